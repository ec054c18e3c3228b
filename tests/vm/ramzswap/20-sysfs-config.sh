#!/usr/bin/env bash
# Run-time configuration through sysfs on an uninitialised device, for every
# algorithm: write zero, same-filled, compressible and incompressible pages
# on the raw device, read them back, check the statistics, then EBUSY for
# configuration changes after init, mem_limit at any time, and reset.
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
n=1024

for algo in lzo lzo-rle lz4 zstd; do
	if ! echo "$algo" >/sys/block/$d/comp_algorithm; then
		if [ "$algo" = lzo ]; then fail "cannot select lzo"; fi
		info "algorithm $algo unavailable in this kernel"
		continue
	fi
	grep -q "\[$algo\]" /sys/block/$d/comp_algorithm || fail "$algo not selected"
	echo 64M >/sys/block/$d/disksize
	[ "$(rzs_attr $d initstate)" = 1 ] || fail "not initialised by disksize"
	[ "$(blockdev --getsize64 $dev)" = $((64 << 20)) ] || fail "capacity after disksize"

	# Never-written pages read as zeros.
	pagepat verify $dev zero 0 0 16 || fail "$algo: unwritten pages are not zero"
	pagepat write $dev zero 0 0 $n
	pagepat write $dev same 5 $n $n
	pagepat write $dev text 6 $((2 * n)) $n
	pagepat write $dev random 7 $((3 * n)) $n
	pagepat write $dev mixed 8 $((4 * n)) $n
	show_stats $d
	[ "$(rzs_stat $d ZeroPages)" -ge $((2 * n - 16)) ] || fail "$algo: same-filled pages not detected"
	[ "$(rzs_stat $d PagesStored)" -ge $((2 * n)) ] || fail "$algo: PagesStored too low"
	[ "$(rzs_mm $d 8)" -ge $((n - 16)) ] || fail "$algo: random pages not stored raw"
	[ "$(rzs_stat $d GoodCompress%)" -ge 30 ] || fail "$algo: text pages did not compress"
	# Objects that fit no free block went in two parts into the gaps at
	# the ends of pool pages (xv_malloc_split()); they verify below.
	[ "$(rzs_stat $d SplitPages)" -gt 0 ] || fail "$algo: no page was stored in two parts"
	[ "$(rzs_stat $d NumWrites)" -ge $((5 * n)) ] || fail "$algo: NumWrites"
	used=$(rzs_mm $d 3)
	[ "$used" -gt 0 ] || fail "$algo: mem_used_total is 0"
	[ "$(rzs_stat $d MemUsedTotal)" = $((used / 1024)) ] || fail "$algo: MemUsedTotal != mm_stat mem_used_total"

	pagepat verify $dev zero 0 0 $n || fail "$algo: zero pages"
	pagepat verify $dev same 5 $n $n || fail "$algo: same-filled pages"
	pagepat verify $dev text 6 $((2 * n)) $n || fail "$algo: text pages"
	pagepat verify $dev random 7 $((3 * n)) $n || fail "$algo: random pages"
	pagepat verify $dev mixed 8 $((4 * n)) $n || fail "$algo: mixed pages"
	# Overwrite in place with other data; old objects are freed.
	pagepat write $dev random 9 0 $((5 * n))
	pagepat write $dev zero 0 0 $((5 * n))
	pagepat verify $dev zero 0 0 $((5 * n)) || fail "$algo: overwrite"
	[ "$(rzs_stat $d PagesStored)" = 0 ] || fail "$algo: objects left after overwrite with zeros"
	[ "$(rzs_stat $d SplitPages)" = 0 ] || fail "$algo: split pages left after overwrite with zeros"
	[ "$(rzs_mm $d 3)" = 0 ] || fail "$algo: memory left after overwrite with zeros: $(rzs_mm $d 3)"
	[ "$(rzs_stat $d FailedReads)" = 0 ] || fail "$algo: FailedReads"
	[ "$(rzs_stat $d FailedWrites)" = 0 ] || fail "$algo: FailedWrites"
	reads=$(awk '$1 == "read" {s += $3} END {print s}' /sys/block/$d/latency_hist)
	writes=$(awk '$1 == "write" {s += $3} END {print s}' /sys/block/$d/latency_hist)
	info "$algo: histogram reads $reads writes $writes"
	[ "$reads" -ge $((5 * n)) ] || fail "$algo: latency_hist reads $reads"
	[ "$writes" -ge $((12 * n)) ] || fail "$algo: latency_hist writes $writes"
	awk '$2 ~ /^[0-9]+$/ && $2 < 32 && ($1 == "read" || $1 == "write") {ok++} END {exit ok != 64}' \
		/sys/block/$d/latency_hist || fail "latency_hist format"

	# Configuration is frozen once initialised; mem_limit is not.
	sysfs_write_fails $d disksize 128M "Device or resource busy"
	sysfs_write_fails $d comp_algorithm lzo "Device or resource busy"
	if [ -b "$RZS_BK" ]; then sysfs_write_fails $d backing_dev "$RZS_BK" "Device or resource busy"; fi
	echo 32M >/sys/block/$d/mem_limit
	[ "$(rzs_attr $d mem_limit)" = $((32 << 20)) ] || fail "mem_limit not changed"
	echo 0 >/sys/block/$d/mem_limit
	echo 0 >/sys/block/$d/latency_hist
	[ "$(awk '{s += $3} END {print s}' /sys/block/$d/latency_hist)" = 0 ] || fail "latency_hist not cleared"

	echo 1 >/sys/block/$d/reset
	[ "$(rzs_attr $d initstate)" = 0 ] || fail "reset did not uninitialise"
	[ "$(rzs_attr $d disksize)" = 0 ] || fail "disksize after reset"
	[ "$(blockdev --getsize64 $dev)" = 0 ] || fail "capacity after reset"
	[ "$(rzs_stat $d NumWrites)" = 0 ] || fail "stats survive reset"
	info "$algo ok"
done

# ramzswap0 was initialised by the module; it can be reset and reconfigured.
echo 1 >/sys/block/ramzswap0/reset
echo lz4 >/sys/block/ramzswap0/comp_algorithm 2>/dev/null || true
echo 32M >/sys/block/ramzswap0/disksize
pagepat write /dev/ramzswap0 mixed 3 0 2048
pagepat verify /dev/ramzswap0 mixed 3 0 2048 || fail "ramzswap0 after reconfiguration"
rzs_unload
info "ok"
