#!/usr/bin/env bash
# A swap-in that its fault gives up on must not end in a freed page. With
# SWP_SYNCHRONOUS_IO, do_swap_page() reads a page into a new page outside
# the swap cache, holding the only reference, then waits for the page
# lock; a fatal signal (or KVM's FOLL_NOWAIT) ends that wait, and the fault
# drops the page. A read from the backing disk still in flight then wrote
# into a freed page ("Bad page state", or page_poison's "memory
# corruption"), as the full14-20261207 benchmark run met under KVM. Here a
# dm-delay backing disk holds each read 2 s, processes reading their pages
# back are killed while reads are in flight, and memory is churned so that
# the allocator checks the freed pages.
# kit-timeout: 400
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

rzs_backing_disk bk 512 || skip "no backing disk and no loop device"
modprobe dm-delay 2>/dev/null || true
sectors=$(blockdev --getsz "$RZS_BK")
# Reads wait 2000 ms, writes 0 ms.
dmsetup create rzs-slow --table "0 $sectors delay $RZS_BK 0 2000 $RZS_BK 0 0"
on_exit dmsetup remove --retry rzs-slow

rzs_load num_devices=2
d=ramzswap1
dev=/dev/$d
echo /dev/mapper/rzs-slow >/sys/block/$d/backing_dev
echo 256M >/sys/block/$d/disksize
mkswap $dev >/dev/null
swapon -p 100 $dev
tmp=$(mktemp -d)
unit=rzs-killed-$$
n=4
on_exit_early "systemctl kill --signal=KILL $unit.scope 2>/dev/null || true"

# Incompressible pages, swapped out of a 32 MiB cgroup: forwarded to the
# backing disk.
systemd-run --quiet --scope --unit="$unit" -p MemoryMax=32M -p MemorySwapMax=infinity \
	bash -c "for i in \$(seq $n); do memscan -m 24 -p 1 -t random -w $tmp/go -r $tmp/ready\$i & done; wait" \
	>"$tmp/log" 2>&1 &
scope=$!
for i in $(seq $n); do
	wait_for 200 test -e "$tmp/ready$i" || { cat "$tmp/log"; fail "memscan $i never got ready"; }
done
[ "$(rzs_bd $d 1)" -gt 1024 ] || fail "only $(rzs_bd $d 1) pages on the backing disk"
info "forwarded to the backing disk: $(rzs_bd $d 1) pages"

# Read back, then killed while the backing reads are held.
# dm-delay's status: the reads, writes and flushes it holds now.
held_reads() { dmsetup status rzs-slow | awk '{print $4}'; }
reads_held() { [ "$(held_reads)" -gt 0 ]; }
lines0=$(dmesg | wc -l)
touch "$tmp/go"
wait_for 60 reads_held || fail "no backing read was held to kill the faults on"
info "killing $n readers with $(held_reads) backing reads in flight"
systemctl kill --signal=KILL "$unit.scope"
wait "$scope" || true
sleep 5

# Churn: the freed pages are checked when they move between the per-CPU
# lists and the buddy allocator, and poisoned ones when allocated.
avail=$(($(meminfo MemAvailable) / 1024))
for i in 1 2 3; do
	timeout 120 memscan -m $((avail * 6 / 10)) -p 1 -t zero >/dev/null ||
		fail "churn $i: memscan failed (exit $?)"
done
# run-suite fails the test on these too; the message here says why.
if dmesg | tail -n +"$((lines0 + 1))" | grep -E 'Bad page state|memory corruption'; then
	fail "a killed swap-in left a freed page written to (dmesg above)"
fi
show_stats $d
timeout 120 swapoff $dev || fail "swapoff failed"
rzs_unload
info "ok"
