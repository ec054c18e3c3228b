#!/usr/bin/env bash
# max_zpage_size: the default is half a page (the issue's policy); pages
# that compress to more are stored raw (mm_stat huge_pages). Raised to 3072
# at run time, the same pages are kept compressed; every page reads back
# intact either way, and reset restores the default.
# kit-timeout: 300
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib-rzs.sh
. "$(dirname "$0")/lib-rzs.sh"

rzs_load disksize=64M
d=ramzswap0
dev=/dev/$d
half=$(($(getconf PAGESIZE) / 2))
[ "$(rzs_attr $d max_zpage_size)" = "$half" ] || fail "default max_zpage_size $(rzs_attr $d max_zpage_size), not $half"

tmp=$(mktemp -d)
on_exit "rm -rf $tmp"
# 256 pages of 2560 random bytes and 1536 zero bytes: each compresses to
# about 2.6 KiB, over half a page and under 3072.
for _ in $(seq 256); do
	head -c 2560 /dev/urandom
	head -c 1536 /dev/zero
done >"$tmp/data"

dd if="$tmp/data" of=$dev bs=4096 oflag=direct status=none
huge1=$(rzs_mm $d 8)
[ "$huge1" = 256 ] || fail "with the default limit, $huge1 of 256 such pages were stored raw"
compr1=$(rzs_mm $d 2)

echo 3072 >/sys/block/$d/max_zpage_size
[ "$(rzs_attr $d max_zpage_size)" = 3072 ] || fail "max_zpage_size not changed"
dd if="$tmp/data" of=$dev bs=4096 seek=256 oflag=direct status=none
huge2=$(rzs_mm $d 8)
compr2=$(rzs_mm $d 2)
[ "$huge2" = 256 ] || fail "with max_zpage_size 3072, $((huge2 - 256)) more pages were stored raw"
added=$((compr2 - compr1))
info "256 pages: raw $((compr1 >> 10)) KiB by default, compressed $((added >> 10)) KiB with 3072"
if [ "$added" -le $((256 * half)) ] || [ "$added" -gt $((256 * 3072)) ]; then
	fail "compressed size of the second 256 pages: $added bytes"
fi

cat "$tmp/data" "$tmp/data" >"$tmp/both"
dd if=$dev of="$tmp/back" bs=4096 count=512 iflag=direct status=none
cmp -s "$tmp/both" "$tmp/back" || fail "data read back differs"

echo 1 >/sys/block/$d/reset
[ "$(rzs_attr $d max_zpage_size)" = "$half" ] || fail "reset kept max_zpage_size $(rzs_attr $d max_zpage_size)"
info "ok"
