#!/usr/bin/env bash
# Discard and write-zeroes free the slots they cover: blkdiscard of a range,
# blkdiscard -z, and swapon --discard, which discards the whole area.
# kit-timeout: 300
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

rzs_load disksize=128M
d=ramzswap0
dev=/dev/$d
n=8192
pagepat write $dev mixed 31 0 $n
stored=$(rzs_stat $d PagesStored)
same=$(rzs_stat $d ZeroPages)
used=$(rzs_mm $d 3)
info "stored $stored same $same used $used"
[ "$used" -gt 0 ] || fail "nothing stored"

# Discard the first half.
blkdiscard -o 0 -l $((n * 4096 / 2)) $dev
pd=$(rzs_stat $d PagesDiscard)
info "after discarding half: PagesDiscard $pd, used $(rzs_mm $d 3)"
[ "$pd" -ge $((n / 2 - 64)) ] || fail "PagesDiscard $pd"
[ "$(rzs_mm $d 3)" -lt "$used" ] || fail "memory did not drop after discard"
pagepat verify $dev zero 0 0 $((n / 2)) || fail "discarded pages do not read as zeros"
pagepat verify $dev mixed 31 $((n / 2)) $((n / 2)) || fail "pages outside the discard damaged"
# Write-zeroes on the second half.
blkdiscard -z -o $((n * 4096 / 2)) -l $((n * 4096 / 2)) $dev
pagepat verify $dev zero 0 $((n / 2)) $((n / 2)) || fail "write-zeroes pages not zero"
[ "$(rzs_stat $d PagesStored)" = 0 ] || fail "objects left after discard + write-zeroes"
[ "$(rzs_stat $d ZeroPages)" = 0 ] || fail "same-filled slots left"
[ "$(rzs_mm $d 3)" = 0 ] || fail "memory left: $(rzs_mm $d 3)"

# swapon --discard discards the whole swap area at swapon.
pagepat write $dev text 32 0 $n
used=$(rzs_mm $d 3)
[ "$used" -gt 0 ] || fail "nothing stored"
mkswap $dev >/dev/null
swapon --discard -p 100 $dev
info "used before swapon --discard $used, after $(rzs_mm $d 3)"
[ "$(rzs_mm $d 3)" -lt $((used / 8)) ] || fail "swapon --discard did not free memory"
# Swap use with discard of freed clusters.
in_cgroup 48M timeout 300 memscan -m 128 -p 2 -t text || fail "memscan with discard"
show_stats $d
swapoff $dev
rzs_unload
info "ok"
