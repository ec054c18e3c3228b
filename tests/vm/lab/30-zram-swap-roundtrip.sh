#!/usr/bin/env bash
# Swap round trip through Debian's own zram: a memory-capped, verifying
# stress-ng worker is forced to swap out and back in, and its data checks.
# kit-timeout: 400
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

cleanup() {
	swapoff /dev/zram0 2>/dev/null || true
	if [ -e /sys/block/zram0/reset ]; then echo 1 >/sys/block/zram0/reset || true; fi
	rmmod zram 2>/dev/null || true
}
trap cleanup EXIT
swapoff_all
modprobe zram num_devices=1
echo lzo >/sys/block/zram0/comp_algorithm
echo 256M >/sys/block/zram0/disksize
mkswap /dev/zram0 >/dev/null
swapon -p 100 /dev/zram0

out0=$(vmstat pswpout)
in0=$(vmstat pswpin)
# 160 MB of verified data in a cgroup that may keep only 48 MB in RAM.
log=$(mktemp)
if ! systemd-run --quiet --wait --collect --pipe -p MemoryMax=48M -p MemorySwapMax=infinity \
	stress-ng --vm 1 --vm-bytes 160M --vm-method modulo-x --vm-ops 3 --verify \
	--timeout 300s --metrics-brief >"$log" 2>&1; then
	cat "$log"
	fail "stress-ng failed (exit status non-zero)"
fi
cat "$log"
grep -qiE 'fail|error' "$log" && fail "stress-ng reported a failure"
read -r orig compr used _ </sys/block/zram0/mm_stat
out=$(($(vmstat pswpout) - out0))
in=$(($(vmstat pswpin) - in0))
info "pswpout +$out pswpin +$in; zram orig=$orig compr=$compr used=$used"
[ "$out" -ge 10000 ] || fail "only $out pages swapped out"
[ "$in" -ge 1000 ] || fail "only $in pages swapped in"
