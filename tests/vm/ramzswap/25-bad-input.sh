#!/usr/bin/env bash
# Bad input never crashes and fails cleanly: 512-byte and unaligned I/O,
# I/O past the end, garbage/negative/huge/empty values in every writable
# sysfs file, reset while swapped on (EBUSY), rmmod while in use, I/O on an
# uninitialised device.
# kit-timeout: 300
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

rzs_load num_devices=2 disksize=16M
d=ramzswap0
dev=/dev/$d
pagepat write $dev text 1 0 4096

# Direct I/O must be whole aligned pages; the kernel refuses the rest.
expect_fail dd if=/dev/zero of=$dev bs=512 count=1 oflag=direct status=none
expect_fail dd if=$dev of=/dev/null bs=512 count=1 iflag=direct status=none
expect_fail dd if=/dev/zero of=$dev bs=4096 seek=1 count=1 oflag=direct,seek_bytes status=none
expect_fail dd if=/dev/zero of=$dev bs=6144 count=1 oflag=direct status=none
# Buffered small I/O goes through the page cache in whole pages and works.
dd if=/dev/urandom of=$dev bs=512 count=3 seek=33 conv=notrunc status=none
sync
dd if=$dev of=/dev/null bs=512 count=8 skip=3 status=none
# Past the end.
expect_fail dd if=/dev/zero of=$dev bs=4096 count=1 seek=4096 oflag=direct status=none
expect_fail dd if=/dev/zero of=$dev bs=4096 count=2 seek=4095 oflag=direct status=none
n=$(dd if=$dev of=/dev/null bs=4096 skip=4096 count=1 iflag=direct 2>&1 | grep -c '^1+0 records in' || true)
[ "$n" = 0 ] || fail "a read past the end returned data"
# I/O to the uninitialised ramzswap1 (capacity 0).
expect_fail dd if=/dev/zero of=/dev/ramzswap1 bs=4096 count=1 oflag=direct status=none
# Data written before is intact.
dd if=/dev/zero of=$dev bs=4096 count=1 seek=4 conv=notrunc oflag=direct status=none
pagepat verify $dev text 1 5 4000 || fail "data damaged by bad I/O"
pagepat verify $dev text 1 0 4 || fail "data damaged by bad I/O"

# Garbage into every writable attribute, on an initialised and an
# uninitialised device. Each must fail; none may crash.
bad_values=($'\n' " " "garbage" "-1" "-4096" "0x1000" "1.5G" "12abc" "1E" "99999999999999999999999999"
	"18446744073709551615" "18446744073709551616" "$(printf '9%.0s' {1..200})" "1K1K")
for dv in ramzswap0 ramzswap1; do
	for v in "${bad_values[@]}"; do
		sysfs_write_fails $dv disksize "$v"
		sysfs_write_fails $dv mem_limit "$v"
		sysfs_write_fails $dv max_zpage_size "$v"
		sysfs_write_fails $dv reset "$v"
		sysfs_write_fails $dv latency_hist "$v"
		sysfs_write_fails $dv comp_algorithm "$v"
		sysfs_write_fails $dv backing_dev "$v"
	done
	sysfs_write_fails $dv reset 0 "Invalid argument"
	sysfs_write_fails $dv comp_algorithm deflate "Invalid argument"
	sysfs_write_fails $dv mem_limit 1P "Invalid argument"
	for v in 0 63 4096 1M; do # below 64 B or above the largest xvmalloc object
		sysfs_write_fails $dv max_zpage_size $v "Invalid argument"
	done
done
for v in $'\n' garbage -1 0 1P "99999999999999999999999"; do
	sysfs_write_fails ramzswap1 disksize "$v" "Invalid argument"
done
sysfs_write_fails ramzswap1 disksize 0
[ "$(rzs_attr ramzswap1 initstate)" = 0 ] || fail "a bad disksize initialised ramzswap1"
# Values that are fine.
echo 1M >/sys/block/ramzswap0/mem_limit
echo 0 >/sys/block/ramzswap0/mem_limit

# In use: reset and rmmod refused, the device keeps working.
mkswap $dev >/dev/null
swapon -p 100 $dev
sysfs_write_fails $d reset 1 "Device or resource busy"
expect_fail rmmod ramzswap
[ -d /sys/module/ramzswap ] || fail "module unloaded while swapped on"
grep -q "^$dev " /proc/swaps || fail "swap gone"
swapoff $dev
# An open file descriptor also blocks reset.
exec 3<$dev
sysfs_write_fails $d reset 1 "Device or resource busy"
expect_fail rmmod ramzswap
exec 3<&-
echo 1 >/sys/block/$d/reset
[ "$(rzs_attr $d initstate)" = 0 ] || fail "reset after close"
info "invalid_io counted: $(rzs_io ramzswap0 3) / $(rzs_io ramzswap1 3)"
rzs_unload
info "ok"
