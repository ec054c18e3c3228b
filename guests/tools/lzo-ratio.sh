#!/usr/bin/env bash
# Host-side estimate of per-page LZO-1X-1 compressibility of the guests'
# page contents (zram compresses page by page).  Needs lzop and a built
# pagedump.  All-zero pages are counted as 0 bytes (zram stores same-filled
# pages without compressing them).
# usage: lzo-ratio.sh [-n PAGES] [--sizes] [KIND...]
#   KIND: zero text random code data linux-mixed winlike-mixed (default: all)
#   --sizes: print each page's compressed size in bytes, one per line (0
#   for an all-zero page, at most 4096), instead of the totals; the input
#   of bench/xv-packing
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pagedump=${PAGEDUMP:-$here/../build/guests/pagedump}
n=128
sizes=0
while [[ ${1:-} == -* ]]; do
	case $1 in
	-n)
		[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "lzo-ratio: -n needs a page count" >&2; exit 2; }
		n=$2
		shift 2
		;;
	--sizes) sizes=1; shift ;;
	*) echo "lzo-ratio: unknown option '$1'" >&2; exit 2 ;;
	esac
done
kinds=("$@")
if ((${#kinds[@]} == 0)); then
	kinds=(zero text random code data linux-mixed winlike-mixed)
fi
command -v lzop >/dev/null || {
	echo "lzo-ratio: lzop not installed (apt-get install lzop)" >&2
	exit 2
}
[[ -x $pagedump ]] || {
	echo "lzo-ratio: $pagedump not built (make -C guests)" >&2
	exit 2
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# lzop framing for one block: file header + end marker + block sizes/checksum
overhead=$(($(lzop -1 -c </dev/null | wc -c) + 12))
head -c 4096 /dev/zero >"$tmp/zero"

for k in "${kinds[@]}"; do
	"$pagedump" "$k" "$n" >"$tmp/all"
	rm -f "$tmp"/p.*
	split -b 4096 -a 5 "$tmp/all" "$tmp/p."
	total=0
	zeros=0
	for f in "$tmp"/p.*; do
		if cmp -s "$f" "$tmp/zero"; then
			zeros=$((zeros + 1))
			((sizes)) && echo 0
			continue
		fi
		s=$(($(lzop -1 -c <"$f" | wc -c) - overhead))
		((s > 4096)) && s=4096
		((sizes)) && echo "$s"
		total=$((total + s))
	done
	((sizes)) && continue
	raw=$((n * 4096))
	if ((total == 0)); then
		echo "$k: pages=$n zero_pages=$zeros compressed_bytes=0 ratio=inf"
	else
		ratio=$(awk -v r="$raw" -v t="$total" 'BEGIN { printf "%.2f", r / t }')
		echo "$k: pages=$n zero_pages=$zeros compressed_bytes=$total ratio=$ratio"
	fi
done
