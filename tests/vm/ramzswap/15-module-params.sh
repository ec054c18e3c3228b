#!/usr/bin/env bash
# Module parameters configure ramzswap0 at load: disksize, memlimit and
# backing_swap (with the original's defaults: disksize = backing device
# size, memlimit = 15% of RAM). Bad values make insmod fail cleanly.
# kit-timeout: 180
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

rzs_backing_disk bk 512 || true

rzs_load disksize=64M memlimit=8M
[ "$(rzs_attr ramzswap0 disksize)" = $((64 << 20)) ] || fail "disksize=64M gave $(rzs_attr ramzswap0 disksize)"
[ "$(rzs_attr ramzswap0 mem_limit)" = $((8 << 20)) ] || fail "memlimit=8M gave $(rzs_attr ramzswap0 mem_limit)"
[ "$(rzs_mm ramzswap0 4)" = $((8 << 20)) ] || fail "mm_stat mem_limit"
rmmod ramzswap

rzs_load disksize=1000000
[ "$(rzs_attr ramzswap0 disksize)" = 1003520 ] || fail "disksize not page aligned up: $(rzs_attr ramzswap0 disksize)"
rmmod ramzswap

ram=$(($(meminfo MemTotal) * 1024))
if [ -b "$RZS_BK" ]; then
	bksize=$(blockdev --getsize64 "$RZS_BK")
	rzs_load backing_swap="$RZS_BK"
	[ "$(rzs_attr ramzswap0 backing_dev)" = "$RZS_BK" ] || fail "backing_dev shows $(rzs_attr ramzswap0 backing_dev)"
	[ "$(rzs_attr ramzswap0 disksize)" = "$bksize" ] || fail "disksize is not the backing size"
	lim=$(rzs_attr ramzswap0 mem_limit)
	want=$((ram * 15 / 100))
	diff=$((lim - want))
	[ "${diff#-}" -le 4096 ] || fail "memlimit $lim is not 15% of RAM ($want)"
	# The backing device is held exclusively.
	expect_fail mkswap "$RZS_BK"
	rmmod ramzswap
	rzs_load backing_swap="$RZS_BK" disksize=16M memlimit=1M
	[ "$(rzs_attr ramzswap0 disksize)" = $((16 << 20)) ] || fail "disksize with backing"
	rmmod ramzswap
	# Backing device smaller than disksize.
	expect_fail insmod "$RZS_KO" backing_swap="$RZS_BK" disksize=$((bksize + 4096))
else
	info "no backing disk attached: backing_swap parameter cases skipped"
fi

dmesg_lines=$(dmesg | wc -l)
for bad in disksize=garbage disksize=-5 disksize=0 disksize=99999999999999999999999 \
	disksize=1E memlimit=x memlimit=-1 backing_swap=/nonexistent backing_swap=/etc/passwd \
	num_devices=-1; do
	expect_fail insmod "$RZS_KO" "$bad"
	[ ! -d /sys/module/ramzswap ] || fail "module loaded with $bad"
done
log=$(dmesg | tail -n +"$((dmesg_lines + 1))")
grep -q 'ramzswap: .*not a block device' <<<"$log" ||
	fail "no clear message for a non-block backing_swap"
info "ok"
