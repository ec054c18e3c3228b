#!/usr/bin/env bash
# mkswap + swapon -p 100, then verifying stress-ng workers in a memory-capped
# cgroup push at least twice the VM's RAM through ramzswap (pswpout).
# kit-timeout: 900
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

command -v stress-ng >/dev/null || skip "stress-ng not installed"
# stress-ng wants a writable working directory; /kit is read-only.
cd "$(mktemp -d)"
rzs_load disksize=1G
dev=/dev/ramzswap0
mkswap $dev >/dev/null
swapon -p 100 $dev
awk -v d=$dev '$1 == d && $5 == 100 {ok = 1} END {exit !ok}' /proc/swaps ||
	fail "ramzswap0 not active with priority 100: $(cat /proc/swaps)"

ram_pages=$(($(meminfo MemTotal) / 4))
target=$((2 * ram_pages))
out0=$(vmstat pswpout)
in0=$(vmstat pswpin)
log=$(mktemp)
round=0
while [ $(($(vmstat pswpout) - out0)) -lt $target ]; do
	round=$((round + 1))
	[ $round -le 8 ] || fail "only $(($(vmstat pswpout) - out0)) of $target pages swapped out after 8 rounds"
	# 2 x 192 MB of verified data with 96 MB of RAM.
	if ! in_cgroup 96M timeout 400 stress-ng --vm 2 --vm-bytes 192M --vm-keep \
		--vm-method all --verify --timeout 90s --metrics-brief >"$log" 2>&1; then
		cat "$log"
		fail "stress-ng failed in round $round"
	fi
	grep -qiE ' fail: |bit errors|corrupt' "$log" && { cat "$log"; fail "stress-ng reported a failure"; }
	info "round $round: pswpout +$(($(vmstat pswpout) - out0)) pswpin +$(($(vmstat pswpin) - in0))"
done
out=$(($(vmstat pswpout) - out0))
in=$(($(vmstat pswpin) - in0))
show_stats ramzswap0
info "pswpout +$out pswpin +$in (target $target)"
[ "$in" -ge 1000 ] || fail "only $in pages swapped in"
[ "$(rzs_stat ramzswap0 FailedWrites)" = 0 ] || fail "failed writes"
[ "$(rzs_stat ramzswap0 FailedReads)" = 0 ] || fail "failed reads"
w=$(awk '$3 == "ramzswap0" {print $8}' /proc/diskstats)
[ "$w" -gt 0 ] || fail "/proc/diskstats shows no writes for ramzswap0"
info "diskstats: $(awk '$3 == "ramzswap0"' /proc/diskstats)"
swapoff $dev
rzs_unload
info "ok"
