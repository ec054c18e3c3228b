#!/usr/bin/env bash
# Leak check. One full warm-up round (load, raw-device and swap work, reset,
# rmmod) pays the kernel's one-time costs: the first cgroup, swap and block
# device set-up, slab caches growing to their working size. Then MemFree is
# the baseline, and three more rounds must not lower it: a leak of the
# driver grows with every round, the one-time costs do not. Each round also
# checks the pool's own page counter: mm_stat mem_used_total is 0 once
# every slot is freed (before the reset), and at most one page after
# swapoff.
# kit-timeout: 900
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

settle() { # drop caches until MemFree holds still (within 1 MB), at most 20 s
	local prev=0 now i
	for i in $(seq 10); do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		sleep 2
		now=$(meminfo MemFree)
		[ $((now - prev)) -gt 1024 ] || [ $((prev - now)) -gt 1024 ] || break
		prev=$now
	done
	[ "$i" -lt 10 ] || info "MemFree still moving after 20 s"
}

# What a round could leave behind, in kB: MemFree and the kernel's own
# consumers, so that a drop shows where it went.
mem_line() {
	local k
	for k in MemFree Cached AnonPages Shmem Slab SUnreclaim Percpu VmallocUsed KernelStack PageTables; do
		printf '%s=%s ' "$k" "$(meminfo $k)"
	done
	echo
}

round() { # N
	local d=ramzswap0 dev=/dev/ramzswap0
	rzs_load disksize=256M
	[ "$(rzs_mm $d 3)" = 0 ] || fail "round $1: memory used right after load"
	pagepat write $dev mixed 41 1 16384
	pagepat write $dev random 42 16385 2048
	pagepat verify $dev mixed 41 1 16384 || fail "round $1: raw-device data"
	info "round $1: raw-device work used $(rzs_mm $d 3) bytes"
	blkdiscard $dev
	[ "$(rzs_mm $d 3)" = 0 ] ||
		fail "round $1: pool not empty after freeing every slot: $(rzs_mm $d 3)"
	mkswap $dev >/dev/null
	swapon $dev
	in_cgroup 48M timeout 300 memscan -m 128 -p 2 -t mixed >/dev/null ||
		fail "round $1: memscan"
	[ "$1" != 3 ] || show_stats $d
	swapoff $dev
	[ "$(rzs_mm $d 3)" -le 4096 ] ||
		fail "round $1: memory left after swapoff: $(rzs_mm $d 3)"
	rzs_unload
	settle
}

swapoff_all
[ ! -d /sys/module/ramzswap ] || rmmod ramzswap
round 0
free0=$(meminfo MemFree)
info "baseline after the warm-up round: $(mem_line)"
# A leak only grows, so the smaller shortfall of rounds 2 and 3 is the one
# that counts: a single round sometimes ends up to 20 MB low (seen under
# slub_debug) and the next one recovers it, which no leak does; and a
# steady offset of about 5 MB that does not grow was seen in other runs.
# 12 MB after three rounds catches a leak of 4 MB per round; smaller pool
# leaks show in the pool's own counter, checked every round.
best=
for r in 1 2 3; do
	round $r
	free=$(meminfo MemFree)
	short=$((free0 - free))
	info "round $r: $(mem_line)(MemFree $short kB below the baseline)"
	if [ "$r" -ge 2 ] && { [ -z "$best" ] || [ "$short" -lt "$best" ]; }; then
		best=$short
	fi
done
[ "$best" -lt 12288 ] ||
	fail "MemFree stays $best kB or more below the baseline in rounds 2 and 3: leak"
info "ok: MemFree within $best kB of the baseline (smaller shortfall of rounds 2 and 3)"
