#!/usr/bin/env bash
# Swap-in frees the slot at once: 6.1 gives a swap device SWP_SYNCHRONOUS_IO
# only if it has ->rw_page, and then a page mapped once is read in without
# the swap cache and its slot freed (do_swap_page()), as with zram. Without
# it the page stays in the swap cache after the read, and the device keeps
# its compressed copy beside it until swap is half full. The pages are
# only read (memscan's final check), so no write fault frees them either.
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
unit=rzs-swapin-$$
on_exit_early "touch $tmp/go $tmp/end; sleep 1; pkill -f 'memscan -m 160' || true"

# Swapped out in a 48 MiB cgroup, then read back with no limit.
systemd-run --quiet --scope --unit="$unit" -p MemoryMax=48M -p MemorySwapMax=infinity \
	timeout 300 memscan -m 160 -p 2 -t text -w "$tmp/go" -r "$tmp/ready" \
	-d "$tmp/done" -e "$tmp/end" >"$tmp/log" 2>&1 &
pid=$!
wait_for 280 test -e "$tmp/ready" || { cat "$tmp/log"; fail "memscan never got ready"; }
orig=$(rzs_mm $d 1)
nf0=$(rzs_stat $d NotifyFree)
info "swapped out: orig_data_size $orig, NotifyFree $nf0, SwapCached $(meminfo SwapCached) kB"
[ "$orig" -gt $((64 << 20)) ] || fail "only $orig bytes swapped out"
systemctl set-property --runtime "$unit.scope" MemoryMax=infinity
touch "$tmp/go"
wait_for 200 test -e "$tmp/done" || { cat "$tmp/log"; fail "memscan's final check did not end"; }

# memscan holds every page, read back, until $tmp/end.
left=$(rzs_mm $d 1)
cached=$(meminfo SwapCached)
nf=$(rzs_stat $d NotifyFree)
info "read back: orig_data_size $left, NotifyFree $nf, SwapCached $cached kB"
touch "$tmp/end"
wait "$pid" || { cat "$tmp/log"; fail "memscan found corrupt data"; }
cat "$tmp/log"
show_stats $d
[ "$left" -lt $((orig / 10)) ] ||
	fail "the device still holds $left of $orig bytes after every page was read back (no SWP_SYNCHRONOUS_IO: no ->rw_page?)"
[ "$cached" -lt $((orig / 10 / 1024)) ] ||
	fail "$cached kB in the swap cache after the pages were read back"
[ $((nf - nf0)) -ge $((orig / 4096 / 2)) ] || fail "NotifyFree only +$((nf - nf0))"
swapoff $dev
rzs_unload
info "ok"
