#!/usr/bin/env bash
# A small density run through the benchmark itself (bench/in-vm): three
# tiny hog guests, linux / winlike / linux, started through libvirt, all
# guests together capped at 160 MiB (machine.slice) so that they swap into
# ramzswap. Passes when:
#   - every guest started, held, and at the end read back and verified all
#     of its pages (final result=PASS), with no verification error;
#   - ramzswap's mm_stat showed swapped data (orig_data_size > 0) while the
#     guests ran, and swap was in use;
#   - the benchmark's report files exist with their columns, and
#     bench/report turns them into a REPORT.md with the density table.
# Skips only when /kit/module/ramzswap.ko has not been built.
# kit-timeout: 1500
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

ko=/kit/module/ramzswap.ko
[ -f "$ko" ] || skip "no $ko (module not built): nothing to test the density run with"

out=$(mktemp -d /tmp/density-test.XXXX)
keep() {
	mkdir -p "${KIT_OUT:-/tmp}/density-test"
	cp -r "$out"/. "${KIT_OUT:-/tmp}/density-test/" 2>/dev/null || true
}
trap keep EXIT

# The deadline rule is off (--max-miss 100): this test is about data
# integrity through libvirt and ramzswap, not about timing under TCG.
defrag_file=/sys/kernel/mm/transparent_hugepage/defrag
defrag_before=$(cat "$defrag_file")
proactive_before=$(cat /proc/sys/vm/compaction_proactiveness)
rc=0
/kit/bench/in-vm --out "$out" --class both --profile mixed --configs ramzswap \
	--guest-mib 192 --max-guests 3 --config-time 420 --period 5 --window 2 \
	--ws 0.2 --max-miss 100 --boot-timeout 500 --guest-mem-max 160M --label test --swap-factor 3 || rc=$?
[ "$rc" = 0 ] || fail "bench/in-vm exited with status $rc"

# Report files and their columns.
need_cols() { # FILE COLUMN...
	local f=$1 head c
	shift
	[ -s "$f" ] || fail "missing report file $(basename "$f")"
	head=$(head -n1 "$f")
	for c in "$@"; do
		grep -q "\(^\|,\)$c\(,\|$\)" <<<"$head" || fail "$(basename "$f") has no column '$c': $head"
	done
}
need_cols "$out/density.csv" config class profile status density limit guests_started \
	pass_mbps agg_mbps verify_errors final_verified final_pass swap_used_mib mm_orig_mib
need_cols "$out/steps.csv" config guests passes missed miss_pct pass_mbps mm_orig_mib swap_used_mib ok work_mbps \
	swapin_ps swapout_ps cpu_busy_pct guests_cpu_pct
# The host VM's CPU busy share of each window: a percentage, above 0 with
# guests running (the report's CPU bound is made from it).
bad_busy=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "cpu_busy_pct") b = i; next}
	!($b + 0 > 0 && $b + 0 <= 100) {printf "%s@%s=%s ", $1, $4, $b}' "$out/steps.csv")
[ -z "$bad_busy" ] || fail "steps.csv cpu_busy_pct not in (0, 100]: $bad_busy"
# The guests' QEMU processes' share: above 0 with guests running. It is
# exact run time over tick-sampled totals, so allow a little over 100.
bad_gcpu=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "guests_cpu_pct") g = i; next}
	!($g + 0 > 0 && $g + 0 <= 110) {printf "%s@%s=%s ", $1, $4, $g}' "$out/steps.csv")
[ -z "$bad_gcpu" ] || fail "steps.csv guests_cpu_pct not in (0, 110]: $bad_gcpu"
info "steps.csv host CPU busy % (guests %): $(awk -F, 'NR > 1 {printf "%s@%s=%s(%s) ", $1, $4, $(NF - 1), $NF}' "$out/steps.csv")"
need_cols "$out/latency.csv" config source device op ios avg_ms p50_us p99_us kib
need_cols "$out/diskstats-ramzswap.csv" t reads writes mm_orig_mib
[ -s "$out/meta.env" ] || fail "missing meta.env"
# The swap area (--swap-factor 3): ramzswap's disksize 3x the host VM's
# RAM, as recorded in meta.env, and the SwapTotal that swapon gave it
# (density.csv's last column; one page less, mkswap's header) recorded.
host_mib=$(sed -n 's/^host_mib=//p' "$out/meta.env")
swap_mib=$(sed -n 's/^swap_mib=//p' "$out/meta.env")
{ grep -qx 'swap_factor=3' "$out/meta.env" && [ "$swap_mib" = $((host_mib * 3)) ]; } ||
	fail "meta.env: swap_mib=$swap_mib for host_mib=$host_mib, $(grep swap_factor "$out/meta.env" || echo no swap_factor)"
need_cols "$out/density.csv" swap_total_mib
swap_total=$(awk -F, 'NR > 1 && $1 == "ramzswap" {print $NF}' "$out/density.csv")
{ [[ $swap_total =~ ^[0-9]+$ ]] && [ "$swap_total" -ge $((swap_mib - 1)) ] && [ "$swap_total" -le "$swap_mib" ]; } ||
	fail "density.csv swap_total_mib '$swap_total', expected the ${swap_mib} MiB disksize less a page"
# Host memory compaction (--host-compaction auto): off under TCG, the
# kernel's otherwise; as recorded, and the kernel's put back on exit.
if [ "${KIT_ACCEL:-}" = tcg ]; then
	{ grep -qx 'thp_defrag=never' "$out/meta.env" && grep -qx 'compaction_proactiveness=0' "$out/meta.env"; } ||
		fail "under TCG meta.env should record compaction off: $(grep -E 'thp_defrag|compaction' "$out/meta.env" | tr '\n' ' ')"
fi
{ [ "$(cat "$defrag_file")" = "$defrag_before" ] && [ "$(cat /proc/sys/vm/compaction_proactiveness)" = "$proactive_before" ]; } ||
	fail "bench/in-vm did not put back the kernel's compaction settings: $(cat "$defrag_file"), $(cat /proc/sys/vm/compaction_proactiveness)"

col() { # FILE CONFIG COLUMN: that column of CONFIG's row (CSV without quotes inside)
	awk -F, -v c="$2" -v k="$3" 'NR == 1 {for (i = 1; i <= NF; i++) h[$i] = i; next}
		$1 == c {print $h[k]; exit}' "$1"
}
d=$out/density.csv
info "density.csv: $(tail -n +2 "$d")"
[ "$(col "$d" ramzswap status)" = ok ] || fail "ramzswap configuration not run: $(tail -n1 "$d")"
started=$(col "$d" ramzswap guests_started)
[ "$started" = 3 ] || fail "expected 3 guests started, got $started ($(col "$d" ramzswap limit))"
[ "$(col "$d" ramzswap density)" = 3 ] || fail "not all 3 guests held: $(col "$d" ramzswap limit)"
[ "$(col "$d" ramzswap verify_errors)" = 0 ] || fail "verification errors: $(col "$d" ramzswap verify_errors)"
fp=$(col "$d" ramzswap final_pass)
if [ "$fp" != 3 ]; then
	# Name each guest that did not end with PASS, with its last hog line,
	# so that a slow finish, an emulator fault and a data error differ.
	why=
	for f in "$out"/guests/ramzswap/kithog-*.log; do
		case $f in *.qemu.log) continue ;; esac
		[ -e "$f" ] || continue
		grep -aq 'HOG done .*result=PASS' "$f" && continue
		why+="; $(basename "$f" .log): $(grep -a 'HOG ' "$f" | tail -n1 || true)"
		tf=$(cat "${f%.log}.svm-shutdowns" 2>/dev/null || true)
		case $tf in
		'' | 0) ;;
		'?') why+=" (SVM shutdown exits not traced)" ;;
		*) why+=" (SVM shutdown exits traced for it: $tf; a triple fault)" ;;
		esac
	done
	fail "only $fp of 3 guests ended with result=PASS after verifying all pages (limit: $(col "$d" ramzswap limit))${why:-; no guest log}"
fi
for f in "$out"/guests/ramzswap/kithog-*.log; do
	case $f in *.qemu.log) continue ;; esac
	line=$(grep -ao 'HOG done .*' "$f" || echo "no HOG done line")
	grep -q 'verify_errors=0 result=PASS' <<<"$line" || fail "$(basename "$f"): $line"
	info "$(basename "$f" .log): $line"
done
grep -aq 'HOG start class=winlike' "$out"/guests/ramzswap/*.log || fail "no winlike guest ran"
grep -aq 'HOG start class=linux' "$out"/guests/ramzswap/*.log || fail "no linux guest ran"

# Swapped while they ran: mm_stat orig_data_size > 0 in a window, and in
# the 2-s samples.
peak_orig=$(awk -F, 'NR > 1 && $1 == "ramzswap" {if ($14 > m) m = $14} END {print m + 0}' "$out/steps.csv")
sampled=$(awk -F, 'NR > 1 {if ($7 > m) m = $7} END {print m + 0}' "$out/diskstats-ramzswap.csv")
info "ramzswap orig_data_size while running: ${peak_orig} MiB in windows, ${sampled} MiB peak in samples"
[ "$sampled" -gt 0 ] || fail "ramzswap mm_stat orig_data_size stayed 0: the guests never swapped"
[ "$peak_orig" -gt 0 ] || fail "no swapped data during the observation windows"
writes=$(awk -F, '$4 == "diskstats" && $6 == "write" {print $7}' "$out/latency.csv")
[ "${writes:-0}" -gt 0 ] || fail "no swap writes in /proc/diskstats of ramzswap0"
grep -q '^ramzswap,.*,latency_hist,ramzswap0,write,' "$out/latency.csv" || fail "no latency_hist rows"

# The report generator on this data (plots need gnuplot, which the host VM
# does not have: only the Markdown is checked here).
mkdir -p "$out/run/test"
cp "$out"/*.csv "$out"/*.env "$out"/hist-* "$out/run/test/" 2>/dev/null || true
if command -v python3 >/dev/null; then
	python3 /kit/bench/report "$out/run" >"$out/report.txt" 2>&1 || fail "bench/report failed: $(tail -n3 "$out/report.txt")"
	grep -q '^| configuration | VMs per host |' "$out/run/REPORT.md" || fail "REPORT.md has no density table"
	grep -q 'Swap request latency' "$out/run/REPORT.md" || fail "REPORT.md has no latency table"
else
	info "no python3 in the host VM: REPORT.md not checked here"
fi
info "3 guests (linux, winlike, linux) swapped into ramzswap and verified every page"
