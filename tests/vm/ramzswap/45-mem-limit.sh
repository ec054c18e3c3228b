#!/usr/bin/env bash
# mem_limit without a backing device: writes beyond the limit fail (counted
# in failed_writes), memory stays at the limit, raising the limit lets them
# through. With a backing device: what does not fit goes to the disk and
# everything reads back intact.
# kit-timeout: 300
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

rzs_backing_disk bk 512 || true

rzs_load num_devices=2
d=ramzswap1
dev=/dev/$d
echo 64M >/sys/block/$d/disksize
echo 4M >/sys/block/$d/mem_limit
n=4096
rc=0
pagepat write $dev text 21 0 $n || rc=$?
show_stats $d
[ "$rc" = 3 ] || fail "writes beyond mem_limit did not fail (pagepat exit $rc)"
[ "$(rzs_stat $d FailedWrites)" -gt 0 ] || fail "FailedWrites not counted"
[ "$(rzs_io $d 2)" = "$(rzs_stat $d FailedWrites)" ] || fail "io_stat failed_writes differs"
used=$(rzs_mm $d 3)
[ "$used" -le $(((4 << 20) + 4096)) ] || fail "mem_used_total $used above mem_limit"
[ "$(rzs_mm $d 5)" -le $(((4 << 20) + 8192)) ] || fail "mem_used_max $(rzs_mm $d 5)"
# Same-filled pages need no memory: they still work at the limit.
pagepat write $dev same 22 $n 1024 || fail "same-filled pages refused at the limit"
pagepat verify $dev same 22 $n 1024 || fail "same-filled pages at the limit"
# Raise the limit at run time: the writes go through.
echo 0 >/sys/block/$d/mem_limit
pagepat write $dev text 21 0 $n || fail "writes still fail without a limit"
pagepat verify $dev text 21 0 $n || fail "data after raising the limit"
# Lower it below current use: new writes fail, old data stays readable.
echo 1M >/sys/block/$d/mem_limit
rc=0
pagepat write $dev random 23 $((2 * n)) 64 || rc=$?
[ "$rc" = 3 ] || fail "write below a lowered limit succeeded"
pagepat verify $dev text 21 0 $n || fail "old data after lowering the limit"
echo 1 >/sys/block/$d/reset

if [ -b "$RZS_BK" ]; then
	echo "$RZS_BK" >/sys/block/$d/backing_dev
	echo 64M >/sys/block/$d/disksize
	echo 2M >/sys/block/$d/mem_limit
	pagepat write $dev text 24 0 $n || fail "writes with a backing device failed"
	show_stats $d
	[ "$(rzs_bd $d 1)" -gt 1000 ] || fail "pages over the limit did not go to the backing device"
	[ "$(rzs_mm $d 3)" -le $(((2 << 20) + 4096)) ] || fail "memory above the limit with a backing device"
	pagepat verify $dev text 24 0 $n || fail "data with limit + backing device"
	[ "$(rzs_stat $d FailedWrites)" = 0 ] || fail "FailedWrites with a backing device"
	echo 1 >/sys/block/$d/reset
	wipefs -a "$RZS_BK" >/dev/null 2>&1 || true
else
	info "no backing disk: limit + backing case skipped"
fi
rzs_unload
info "ok"
