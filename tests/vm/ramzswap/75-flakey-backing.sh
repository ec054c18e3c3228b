#!/usr/bin/env bash
# A backing device that fails I/O (dm-flakey) gives I/O errors, counted in
# failed_reads/failed_writes, and never a crash; in-memory pages stay good.
# kit-timeout: 300
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

rzs_backing_disk bk 512 || skip "no backing disk and no loop device"
modprobe dm-flakey 2>/dev/null || true
sectors=$((64 << 11))
dmsetup create rzs-flakey --table "0 $sectors linear $RZS_BK 0"
on_exit dmsetup remove --retry rzs-flakey

rzs_load num_devices=2
d=ramzswap1
dev=/dev/$d
echo /dev/mapper/rzs-flakey >/sys/block/$d/backing_dev
echo 64M >/sys/block/$d/disksize
n=1024
pagepat write $dev random 51 0 $n
pagepat write $dev same 52 $n $n
[ "$(rzs_bd $d 1)" -ge $((n - 8)) ] || fail "random pages not on the backing device"

# Now every backing I/O fails (up 0 s, down 3600 s: always down).
dmsetup suspend rzs-flakey
dmsetup load rzs-flakey --table "0 $sectors flakey $RZS_BK 0 0 3600"
dmsetup resume rzs-flakey
rc=0
pagepat verify $dev random 51 0 64 || rc=$?
[ "$rc" = 3 ] || fail "reads from a failing backing device did not fail (exit $rc)"
[ "$(rzs_stat $d FailedReads)" -gt 0 ] || fail "FailedReads not counted"
rc=0
pagepat write $dev random 53 $((2 * n)) 64 || rc=$?
[ "$rc" = 3 ] || fail "writes to a failing backing device did not fail (exit $rc)"
[ "$(rzs_stat $d FailedWrites)" -gt 0 ] || fail "FailedWrites not counted"
pagepat verify $dev same 52 $n $n || fail "in-memory pages damaged"
show_stats $d

# Swap on it while the backing device fails: errors, not a crash.
echo 1 >/sys/block/$d/reset
echo /dev/mapper/rzs-flakey >/sys/block/$d/backing_dev
echo 64M >/sys/block/$d/disksize
mkswap $dev >/dev/null
swapon -p 100 $dev
in_cgroup 32M timeout 120 memscan -m 48 -p 2 -t random >/dev/null 2>&1 || info "memscan failed as expected (exit $?)"
show_stats $d
swapoff $dev 2>/dev/null || info "swapoff failed as expected"
# Backing device healthy again: everything recovers.
dmsetup suspend rzs-flakey
dmsetup load rzs-flakey --table "0 $sectors linear $RZS_BK 0"
dmsetup resume rzs-flakey
timeout 120 swapoff $dev 2>/dev/null || true
grep -q "^$dev " /proc/swaps && fail "cannot swapoff after the backing device recovered"
echo 1 >/sys/block/$d/reset
rzs_unload
info "ok"
