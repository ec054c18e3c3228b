#!/usr/bin/env bash
# Reproduces the testing notes of "compressed in-memory swapping take5"
# (2009): 512 MB of RAM, a 768 MB backing swap, memlimit 76 MB (15% of
# RAM), and a cyclic use-once scan over 450 MB ("./scan 450 20") run until
# ramzswap has seen at least 200K reads and writes. Every page is verified
# on every pass, incompressible pages must have gone to the backing device
# and come back intact.
# kit-timeout: 2400
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../ramzswap/lib-rzs.sh
. "$(dirname "$0")/../ramzswap/lib-rzs.sh"

rzs_backing_disk backing 768 || skip "no backing disk and no loop device"
bk=$RZS_BK
mem=$(meminfo MemTotal)
[ "$mem" -le $((600 * 1024)) ] || info "warning: VM has $mem kB, the original test had 512 MB"

rzs_load backing_swap="$bk" memlimit=76M
d=ramzswap0
dev=/dev/$d
info "disksize $(rzs_attr $d disksize) mem_limit $(rzs_attr $d mem_limit) backing $(rzs_attr $d backing_dev)"
[ "$(rzs_attr $d disksize)" = "$(blockdev --getsize64 "$bk")" ] || fail "disksize is not the backing size"
mkswap $dev >/dev/null
swapon -p 100 $dev
# Nothing else may absorb the pages.
[ "$(grep -c '^/' /proc/swaps)" = 1 ] || fail "other swap areas are active"

tmp=$(mktemp -d)
on_exit_early "touch $tmp/stop; sleep 2; pkill -f 'memscan -m 450' || true"
timeout 2200 memscan -m 450 -p 20 -t mixed -s "$tmp/stop" >"$tmp/scan.log" 2>&1 &
scan=$!
target=200000
start=$SECONDS
while kill -0 "$scan" 2>/dev/null; do
	rw=$(($(rzs_stat $d NumReads) + $(rzs_stat $d NumWrites)))
	if [ "$rw" -ge "$target" ]; then
		[ -e "$tmp/stop" ] || info "$rw reads+writes after $((SECONDS - start)) s: stopping the scan"
		touch "$tmp/stop"
	fi
	sleep 5
done
rc=0
wait "$scan" || rc=$?
cat "$tmp/scan.log"
show_stats $d
rw=$(($(rzs_stat $d NumReads) + $(rzs_stat $d NumWrites)))
info "ramzswap reads+writes: $rw; used $(rzs_mm $d 3) of limit $(rzs_mm $d 4); max $(rzs_mm $d 5)"
[ "$rc" = 0 ] || fail "scan failed (exit $rc): corrupt pages or killed"
[ "$rw" -ge "$target" ] || fail "only $rw reads+writes on ramzswap"
[ "$(rzs_bd $d 3)" -gt 0 ] || fail "no page was forwarded to the backing device"
[ "$(rzs_bd $d 2)" -gt 0 ] || fail "no page was read back from the backing device"
[ "$(rzs_stat $d FailedReads)" = 0 ] || fail "FailedReads $(rzs_stat $d FailedReads)"
[ "$(rzs_stat $d FailedWrites)" = 0 ] || fail "FailedWrites $(rzs_stat $d FailedWrites)"
[ "$(rzs_mm $d 5)" -le $(((76 << 20) + 8192)) ] || fail "mem_used_max $(rzs_mm $d 5) above memlimit"
timeout 600 swapoff $dev || fail "swapoff"
rzs_unload
info "ok"
