#!/usr/bin/env bash
# Backing swap: incompressible pages land on the backing disk in blocks
# handed out next fit (bd_stat counts them) and read back intact,
# compressible ones stay in memory; forwarded pages that are not neighbours
# on the device still merge into large requests on the disk; swap traffic
# through a backing-backed device verifies, and a page swap forwards is
# compressed once; bad backing devices (regular file, missing, too small,
# itself) are refused.
# kit-timeout: 600
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

rzs_backing_disk bk 512 || skip "no backing disk and no loop device"
rzs_load num_devices=2
d=ramzswap1
dev=/dev/$d
bksize=$(blockdev --getsize64 "$RZS_BK")

# Refusals, each with a message in the kernel log.
tmpf=$(mktemp)
truncate -s 64M "$tmpf"
sysfs_write_fails $d backing_dev "$tmpf" "Block device required"
sysfs_write_fails $d backing_dev /nonexistent/disk "Invalid argument"
sysfs_write_fails $d backing_dev /dev/$d "Invalid argument"
rm -f "$tmpf"
sectors=$((bksize / 512))
dmsetup create rzs-small --table "0 16384 linear $RZS_BK 0"
on_exit dmsetup remove --retry rzs-small
echo /dev/mapper/rzs-small >/sys/block/$d/backing_dev
sysfs_write_fails $d disksize 64M "Invalid argument"
[ "$(rzs_attr $d initstate)" = 0 ] || fail "initialised with a too small backing device"
log=$(dmesg)
grep -q 'ramzswap: ramzswap1: backing device .* smaller than disksize' <<<"$log" || fail "no message for a small backing device"
echo none >/sys/block/$d/backing_dev
dmsetup remove --retry rzs-small
[ "$(rzs_attr $d backing_dev)" = none ] || fail "backing_dev none"

# A good backing device.
echo "$RZS_BK" >/sys/block/$d/backing_dev
[ "$(rzs_attr $d backing_dev)" = "$RZS_BK" ] || fail "backing_dev shows $(rzs_attr $d backing_dev)"
expect_fail mkswap "$RZS_BK"
echo $((sectors * 512 / 2)) >/sys/block/$d/disksize
n=2048
pagepat write $dev random 11 0 $n
pagepat write $dev text 12 $n $n
pagepat write $dev same 13 $((2 * n)) $n
show_stats $d
bd_count=$(rzs_bd $d 1)
[ "$bd_count" -ge $((n - 8)) ] || fail "only $bd_count pages on the backing device"
[ "$(rzs_bd $d 3)" -ge $((n - 8)) ] || fail "bd_writes $(rzs_bd $d 3)"
[ "$(rzs_stat $d BDevNumWrites)" = "$(rzs_bd $d 3)" ] || fail "BDevNumWrites differs from bd_stat"
[ "$(rzs_mm $d 8)" = 0 ] || fail "raw pages with a backing device"
# Text pages compress to 15-60%: most stay in memory, the rest go to disk.
[ "$(rzs_stat $d PagesStored)" -ge $((n / 2)) ] || fail "text pages not kept in memory"
# Blocks are handed out next fit: with one writer on a fresh device, slot i
# is at block i (read through a normal, non-exclusive open).
pagepat verify "$RZS_BK" random 11 0 $n || fail "backing disk does not hold slot i at block i"
r0=$(rzs_bd $d 2)
pagepat verify $dev random 11 0 $n || fail "pages from the backing device"
pagepat verify $dev text 12 $n $n || fail "text pages"
pagepat verify $dev same 13 $((2 * n)) $n || fail "same pages"
[ $(($(rzs_bd $d 2) - r0)) -ge $((n - 8)) ] || fail "reads did not go to the backing device"
# Overwrite backed pages with same-filled data: bd_count drops.
pagepat write $dev same 14 0 $n
[ "$(rzs_bd $d 1)" -le $((bd_count - n + 8)) ] || fail "bd_count $(rzs_bd $d 1) after overwrite (was $bd_count)"
pagepat verify $dev same 14 0 $n || fail "overwritten pages"

# Forwarded pages that are not neighbours on the device (every other page
# incompressible, the rest zero) get adjacent blocks, so their writes merge
# into large requests on the backing disk: at their own sectors each would
# be a request of its own. One 2 MiB direct write (a multi-bio write, under
# the submitter's plug, as reclaim's swap-out is).
pat=$(mktemp)
on_exit "rm -f $pat"
for _ in $(seq 256); do
	head -c 4096 /dev/urandom
	head -c 4096 /dev/zero
done >"$pat"
bkstat=/sys/class/block/$(basename "$(readlink -f "$RZS_BK")")/stat
w0=$(rzs_bd $d 3)
r0=$(awk '{print $5}' "$bkstat")
dd if="$pat" of=$dev bs=2M seek=$((3 * n / 512)) oflag=direct status=none || fail "2 MiB direct write"
fw=$(($(rzs_bd $d 3) - w0))
reqs=$(($(awk '{print $5}' "$bkstat") - r0))
info "alternate pages: $fw forwarded in $reqs write requests to the backing disk"
[ "$fw" -ge 248 ] || fail "only $fw of 256 incompressible pages forwarded"
[ $((reqs * 8)) -le "$fw" ] || fail "$fw forwarded pages took $reqs write requests (want >= 8 pages per request)"
cmp <(dd if=$dev bs=2M skip=$((3 * n / 512)) count=1 iflag=direct status=none) "$pat" ||
	fail "alternate pages read back differ"

# Swap through it: incompressible pages go to the disk, all data verifies.
blkdiscard $dev
mkswap $dev >/dev/null
swapon -p 100 $dev
w0=$(rzs_bd $d 3)
r0=$(awk '{print $5}' "$bkstat")
c0=$(rzs_stat $d Compressions)
n0=$(rzs_stat $d NumWrites)
in_cgroup 64M timeout 400 memscan -m 192 -p 3 -t mixed || fail "memscan through backing swap"
show_stats $d
fw=$(($(rzs_bd $d 3) - w0))
reqs=$(($(awk '{print $5}' "$bkstat") - r0))
info "swap: $fw pages forwarded in $reqs write requests to the backing disk"
[ "$fw" -ge 1000 ] || fail "swap wrote only $fw pages to the backing device"
# Reclaim writes out under a plug: adjacent blocks merge there too.
[ $((reqs * 3)) -le "$fw" ] || fail "swap: $fw forwarded pages took $reqs write requests (want >= 3 pages per request)"
# A page is compressed once per store (same-filled pages not at all;
# retries inside one store not counted).
comps=$(($(rzs_stat $d Compressions) - c0))
writes=$(($(rzs_stat $d NumWrites) - n0))
info "swap: $comps compressions for $writes page writes"
[ "$comps" -le "$writes" ] || fail "swap: $comps compressions for $writes page writes ($fw forwarded)"
[ "$(rzs_stat $d FailedReads)" = 0 ] || fail "FailedReads"
[ "$(rzs_stat $d FailedWrites)" = 0 ] || fail "FailedWrites"
swapoff $dev
echo 1 >/sys/block/$d/reset
# The backing device is released by reset.
mkswap "$RZS_BK" >/dev/null || fail "backing device still claimed after reset"
wipefs -a "$RZS_BK" >/dev/null
rzs_unload
info "ok"
