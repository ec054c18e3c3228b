#!/usr/bin/env bash
# swapoff while other processes keep swapping: every page of the swapped-out
# process comes back intact, ramzswap0 is empty afterwards, and the loader,
# which keeps swapping to ramzswap1 throughout, verifies too.
# kit-timeout: 600
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

rzs_load num_devices=2 disksize=512M
echo 512M >/sys/block/ramzswap1/disksize
d=ramzswap0
dev=/dev/$d
mkswap $dev >/dev/null
mkswap /dev/ramzswap1 >/dev/null
swapon -p 100 $dev
swapon -p 50 /dev/ramzswap1
tmp=$(mktemp -d)
on_exit_early "touch $tmp/go $tmp/stop; sleep 1; pkill -f 'memscan -m' || true"

# A process whose memory is mostly swapped out, waiting.
systemd-run --quiet --scope --unit=rzs-held -p MemoryMax=32M -p MemorySwapMax=infinity \
	timeout 500 memscan -m 160 -p 2 -t mixed -w "$tmp/go" -r "$tmp/ready" >"$tmp/held.log" 2>&1 &
held=$!
wait_for 300 test -e "$tmp/ready" || { cat "$tmp/held.log"; fail "memscan never got ready"; }
info "held process swapped out: orig_data_size $(rzs_mm $d 1)"
# It may have all its memory back once swap goes away.
systemctl set-property --runtime rzs-held.scope MemoryMax=infinity

# Load: another scanner keeps swapping in a small cgroup.
in_cgroup 40M timeout 500 memscan -m 96 -p 1000 -t mixed -s "$tmp/stop" >"$tmp/load.log" 2>&1 &
load=$!
sleep 20
info "under load: ramzswap0 orig_data_size $(rzs_mm $d 1), ramzswap1 $(rzs_mm ramzswap1 1)"
w1=$(rzs_stat ramzswap1 NumWrites)
timeout 400 swapoff $dev || fail "swapoff under load failed"
grep -q "^$dev " /proc/swaps && fail "still swapped on"
info "after swapoff: ramzswap1 writes +$(($(rzs_stat ramzswap1 NumWrites) - w1))"
sleep 5
touch "$tmp/stop" "$tmp/go"
wait "$held" || { cat "$tmp/held.log"; fail "held process found corrupt pages after swapoff"; }
cat "$tmp/held.log"
wait "$load" || { cat "$tmp/load.log"; fail "loader failed or found corrupt pages"; }
tail -n 3 "$tmp/load.log"
show_stats $d
[ "$(rzs_stat $d FailedReads)" = 0 ] || fail "FailedReads"
# Only the swap header page may remain.
[ "$(rzs_stat $d PagesStored)" -le 1 ] || fail "$(rzs_stat $d PagesStored) pages still stored after swapoff"
[ "$(rzs_stat $d ZeroPages)" -le 1 ] || fail "$(rzs_stat $d ZeroPages) same-filled slots left after swapoff"
[ "$(rzs_mm $d 3)" -le 4096 ] || fail "memory still used after swapoff: $(rzs_mm $d 3)"
swapoff /dev/ramzswap1
rzs_unload
info "ok"
