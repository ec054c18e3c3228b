#!/usr/bin/env bash
# swap_slot_free_notify: when a swapped-out process exits, swap frees its
# slots and ramzswap frees the memory behind them at once (no discard).
# kit-timeout: 400
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

rzs_load disksize=512M
d=ramzswap0
dev=/dev/$d
mkswap $dev >/dev/null
swapon -p 100 $dev
tmp=$(mktemp -d)
on_exit_early "touch $tmp/go; sleep 1; pkill -f 'memscan -m 160' || true"

in_cgroup 48M timeout 300 memscan -m 160 -p 2 -t text -w "$tmp/go" -r "$tmp/ready" >"$tmp/log" 2>&1 &
pid=$!
wait_for 280 test -e "$tmp/ready" || { cat "$tmp/log"; fail "memscan never got ready"; }
orig=$(rzs_mm $d 1)
used=$(rzs_mm $d 3)
nf0=$(rzs_stat $d NotifyFree)
info "swapped: orig_data_size $orig mem_used_total $used NotifyFree $nf0"
[ "$orig" -gt $((64 << 20)) ] || fail "only $orig bytes swapped out"
# Let it verify (it swaps everything back in) and exit.
touch "$tmp/go"
wait "$pid" || { cat "$tmp/log"; fail "memscan found corrupt data"; }
cat "$tmp/log"
orig_low() { [ "$(rzs_mm $d 1)" -lt $((orig / 10)) ]; }
wait_for 30 orig_low || true
show_stats $d
nf=$(rzs_stat $d NotifyFree)
[ $((nf - nf0)) -ge $((orig / 4096 / 2)) ] || fail "NotifyFree only +$((nf - nf0))"
[ "$(rzs_mm $d 1)" -lt $((orig / 10)) ] || fail "orig_data_size still $(rzs_mm $d 1) after the process exited"
[ "$(rzs_mm $d 3)" -lt $((used / 5)) ] || fail "mem_used_total still $(rzs_mm $d 3) (was $used)"
swapoff $dev
rzs_unload
info "ok"
