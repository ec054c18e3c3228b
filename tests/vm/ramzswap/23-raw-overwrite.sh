#!/usr/bin/env bash
# Overwrites of raw (incompressible) slots: a raw page overwritten with
# another raw page is copied in place, so the raw page count and the memory
# in use stay the same, it works at the memory limit, and the new data reads
# back. Raw -> compressible -> raw overwrites move the slot between the
# pool and a page of its own; every step reads back intact.
# kit-timeout: 300
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

rzs_load disksize=64M
d=ramzswap0
dev=/dev/$d
n=256

tmp=$(mktemp -d)
on_exit "rm -rf $tmp"
head -c $((n * 4096)) /dev/urandom >"$tmp/rand1"
head -c $((n * 4096)) /dev/urandom >"$tmp/rand2"
# Text-like pages: compress far below half a page, never same-filled.
awk 'BEGIN { for (i = 0; i < 40000; i++) printf "line %d: lorem ipsum dolor sit amet, consectetur adipiscing elit\n", i }' >"$tmp/text"
truncate -s $((n * 4096)) "$tmp/text"

write() { dd if="$1" of=$dev bs=4096 oflag=direct status=none; }
check() { # FILE WHAT
	dd if=$dev of="$tmp/back" bs=4096 count=$n iflag=direct status=none
	cmp -s "$1" "$tmp/back" || fail "$2: data read back differs"
}

write "$tmp/rand1"
check "$tmp/rand1" "first raw write"
raw1=$(rzs_mm $d 8)
used1=$(rzs_mm $d 3)
[ "$raw1" = $n ] || fail "$raw1 of $n random pages stored raw"

# At the memory limit: an in-place overwrite needs no new page.
echo "$used1" >/sys/block/$d/mem_limit
write "$tmp/rand2"
check "$tmp/rand2" "raw over raw at the memory limit"
raw2=$(rzs_mm $d 8)
used2=$(rzs_mm $d 3)
[ "$raw2" = $n ] || fail "raw over raw: huge_pages $raw1 -> $raw2"
[ "$used2" = "$used1" ] || fail "raw over raw: mem_used_total $used1 -> $used2"
[ "$(rzs_stat $d FailedWrites)" = 0 ] || fail "writes failed at the limit: $(rzs_stat $d FailedWrites)"
echo 0 >/sys/block/$d/mem_limit

write "$tmp/text"
check "$tmp/text" "compressible over raw"
[ "$(rzs_mm $d 8)" = 0 ] || fail "compressible over raw: huge_pages $(rzs_mm $d 8)"
used3=$(rzs_mm $d 3)
[ "$used3" -lt "$used1" ] || fail "compressible over raw: mem_used_total $used1 -> $used3"

write "$tmp/rand1"
check "$tmp/rand1" "raw over compressible"
[ "$(rzs_mm $d 8)" = $n ] || fail "raw over compressible: huge_pages $(rzs_mm $d 8)"

echo 1 >/sys/block/$d/reset
info "ok: $n raw pages overwritten in place (mem_used_total $((used1 >> 10)) KiB before and after), compressible $((used3 >> 10)) KiB"
