#!/usr/bin/env bash
# A backing device that fails I/O (dm-flakey): reads of pages held there
# fail with EIO and are counted, never a crash. A failed backing write is
# counted too, and then the device is bypassed for a while: new pages stay
# in memory, so swap keeps working on a dying disk and no data is lost.
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
pagepat write $dev random 53 $((2 * n)) 1 || rc=$?
[ "$rc" = 3 ] || fail "a write to a failing backing device did not fail (exit $rc)"
[ "$(rzs_stat $d FailedWrites)" -gt 0 ] || fail "FailedWrites not counted"
[ "$(rzs_stat $d BDevFailedWrites)" -ge 1 ] || fail "BDevFailedWrites not counted"
log=$(dmesg)
grep -q "ramzswap: $d: backing device .* failed a write; keeping new pages in memory" <<<"$log" ||
	fail "no dmesg line about bypassing the failed backing device"
# Meanwhile incompressible pages are kept in memory, raw, and read back.
raw0=$(rzs_mm $d 8)
pagepat write $dev random 54 $((3 * n)) 64 || fail "writes failed although the backing device is bypassed"
pagepat verify $dev random 54 $((3 * n)) 64 || fail "pages kept in memory do not read back"
[ "$(rzs_mm $d 8)" -ge $((raw0 + 64)) ] || fail "bypassed pages are not stored raw in memory"
[ "$(rzs_stat $d BDevBypassed)" -ge 64 ] || fail "BDevBypassed not counted"
pagepat verify $dev same 52 $n $n || fail "in-memory pages damaged"
show_stats $d

# Swap on it while the backing device fails: the pages whose first write
# fails are written again by swap and kept in memory, so a workload that
# swaps incompressible data finishes with its data intact.
echo 1 >/sys/block/$d/reset
echo /dev/mapper/rzs-flakey >/sys/block/$d/backing_dev
echo 64M >/sys/block/$d/disksize
mkswap $dev >/dev/null
swapon -p 100 $dev
out0=$(vmstat pswpout)
in_cgroup 32M timeout -k 10 200 memscan -m 48 -p 2 -t random ||
	fail "memscan failed (exit $?) while swapping to a device with a failing backing disk"
info "pswpout +$(($(vmstat pswpout) - out0))"
[ "$(rzs_stat $d BDevFailedWrites)" -ge 1 ] || fail "no backing write failed during the swap run"
[ "$(rzs_stat $d BDevBypassed)" -gt 0 ] || fail "nothing was kept in memory during the swap run"
show_stats $d
# Backing device healthy again: swapoff brings every page back.
dmsetup suspend rzs-flakey
dmsetup load rzs-flakey --table "0 $sectors linear $RZS_BK 0"
dmsetup resume rzs-flakey
timeout 120 swapoff $dev || fail "swapoff failed after the backing device recovered"
echo 1 >/sys/block/$d/reset
rzs_unload
info "ok"
