#!/usr/bin/env bash
# Leak check: MemFree before loading, then twice: load, swap and raw-device
# work (compressed, raw and same-filled pages), free everything, reset and
# rmmod; MemFree must come back. Also checks the pool is empty (mm_stat
# mem_used_total 0) once every slot is freed, before the reset.
# kit-timeout: 600
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

settle_free() { # print MemFree (kB) after dropping caches
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 2
	echo 3 >/proc/sys/vm/drop_caches
	meminfo MemFree
}

swapoff_all
[ ! -d /sys/module/ramzswap ] || rmmod ramzswap
# Load and unload once so the module's own text and the first-use caches
# of the block layer are not counted.
rzs_load disksize=16M
rmmod ramzswap
free0=$(settle_free)
info "MemFree before: $free0 kB"

for round in 1 2; do
	rzs_load disksize=256M
	d=ramzswap0
	dev=/dev/$d
	[ "$(rzs_mm $d 3)" = 0 ] || fail "memory used right after load"
	pagepat write $dev mixed 41 1 16384
	pagepat write $dev random 42 16385 2048
	pagepat verify $dev mixed 41 1 16384 || fail "raw-device data"
	info "round $round: raw-device work used $(rzs_mm $d 3) bytes"
	blkdiscard $dev
	[ "$(rzs_mm $d 3)" = 0 ] || fail "pool not empty after freeing every slot: $(rzs_mm $d 3)"
	mkswap $dev >/dev/null
	swapon $dev
	in_cgroup 48M timeout 300 memscan -m 128 -p 2 -t mixed >/dev/null || fail "memscan"
	show_stats $d
	swapoff $dev
	[ "$(rzs_mm $d 3)" -le 4096 ] || fail "memory left after swapoff: $(rzs_mm $d 3)"
	rzs_unload
	free=$(settle_free)
	info "round $round: MemFree $free kB (before: $free0 kB, diff $((free0 - free)) kB)"
done
[ $((free0 - free)) -lt 12288 ] || fail "MemFree $((free0 - free)) kB lower after two rounds: leak"
info "ok"
