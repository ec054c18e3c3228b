#!/usr/bin/env bash
# Swap-out of whole transparent huge pages of incompressible data to a
# device with a backing disk, under global memory pressure (no cgroup), as
# a host whose guests' RAM is THP-backed meets it. Each 2 MiB page is one
# 512-page bio, all of whose pages are forwarded to the backing disk: 512
# child bios from the driver's bio_set, queued on the submitter's
# current->bio_list until its submit_bio returns. Before the bio_set had a
# rescuer, kswapd waited for good in mempool_alloc() for a child once the
# bio slab failed below the min watermark, and the VM froze (bench run
# full12-20261207 and bench/runs/diag-clock-20261207, try 6). Here the
# scanner's data must verify, THPs must have been swapped out whole
# (thp_swpout), their pages must have reached the backing disk and been
# rotated for reclaim when those writes ended (below). With the old bio_set
# the lab VM froze in the first pass, twice out of two.
# kit-timeout: 600
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../ramzswap/lib-rzs.sh
. "$(dirname "$0")/../ramzswap/lib-rzs.sh"

grep -q '\[never\]' /sys/kernel/mm/transparent_hugepage/enabled && skip "transparent huge pages are off"
rzs_backing_disk bk 1536 || skip "no backing disk and no loop device"
# As compcache set it up: ramzswap0 at load, its size the backing disk's.
# That is larger than RAM on purpose: when no swap slot is free, 6.1's
# get_scan_count() stops scanning the anon LRU (can_reclaim_anon_pages()
# counts free slots only), so clean pages left in the swap cache are never
# freed and the OOM killer runs, whatever the device (Liu Shixin's "mm:
# vmscan: reclaim anon pages if there are swapcache pages", 2023, is about
# that). With a 512 MiB device in this 1 GiB VM, and the driver's lost
# PG_reclaim (below), that happened in 5 runs of 10 (bench/runs/
# diag-thp-swapcache-20261207).
rzs_load backing_swap="$RZS_BK"
d=ramzswap0
dev=/dev/$d
[ "$(rzs_attr $d backing_dev)" = "$RZS_BK" ] || fail "backing_dev shows $(rzs_attr $d backing_dev)"
mkswap $dev >/dev/null
swapon -p 100 $dev
on_exit "swapoff $dev 2>/dev/null || true"

# 160 MiB more than is available: reclaim, kswapd's included, runs the
# whole time, with free memory at the watermarks. One writing pass, then
# memscan's check pass reads everything back.
avail_mb=$(($(meminfo MemAvailable) / 1024))
mb=$((avail_mb + 160))
info "MemAvailable $avail_mb MiB: scanning $mb MiB of random pages in THPs, 1 pass and a check"
thp0=$(vmstat thp_swpout)
fb0=$(vmstat thp_swpout_fallback)
w0=$(rzs_bd $d 3)
out0=$(vmstat pswpout)
rot0=$(vmstat pgrotated)
rc=0
timeout 500 memscan -m "$mb" -p 1 -t random -H || rc=$?
show_stats $d
[ "$rc" = 0 ] || fail "memscan of $mb MiB of THPs through backing swap: exit $rc (swap free $(($(meminfo SwapFree) / 1024)) MiB, swap cache $(($(meminfo SwapCached) / 1024)) MiB)"
thp=$(($(vmstat thp_swpout) - thp0))
fb=$(($(vmstat thp_swpout_fallback) - fb0))
fw=$(($(rzs_bd $d 3) - w0))
out=$(($(vmstat pswpout) - out0))
rot=$(($(vmstat pgrotated) - rot0))
info "thp_swpout +$thp (fallback +$fb), pswpout +$out, forwarded to the backing disk +$fw, rotated for reclaim +$rot"
[ "$thp" -ge 8 ] || fail "only $thp THPs swapped out whole (fallback $fb): the 512-page bio was not exercised"
[ "$fw" -ge $((thp * 512 / 2)) ] || fail "$thp THPs swapped out but only $fw pages forwarded"
# A page written out asynchronously is moved to the tail of the inactive
# list when its write ends (PG_reclaim, pgrotated), so that reclaim frees it
# next. When the driver's ->rw_page declined a page (every THP, every page
# for the backing disk) it lost PG_reclaim: pgrotated stayed 0, written-out
# pages piled up in the swap cache and a 512 MiB swap ran full (see
# module/ramzswap_drv.c; ->rw_page now takes every page).
[ "$rot" -ge $((fw / 2)) ] || fail "only $rot of $fw forwarded pages were rotated for reclaim when their writes ended"
[ "$(rzs_stat $d FailedWrites)" = 0 ] || fail "FailedWrites"
[ "$(rzs_stat $d FailedReads)" = 0 ] || fail "FailedReads"
swapoff $dev
echo 1 >/sys/block/$d/reset
wipefs -a "$RZS_BK" >/dev/null
rzs_unload
info "ok"
