# bench/hog-log.sh: sourced by bench/in-vm (tests/host/bench-hog-log tests
# it on its own). Follows the memory-hog guests' serial logs.
# shellcheck shell=bash disable=SC2034 # the arrays are for bench/in-vm
serial() { printf '/var/log/libvirt/qemu/%s-serial.log\n' "$1"; }

# The guests' "HOG ..." serial lines are followed incrementally with bash
# builtins (no process is spawned: each costs the 1-vCPU TCG host VM about
# 50 ms of CPU that the guests being measured need): each log is opened
# once it exists and every follow_serial reads what was appended since; a
# line still being written is kept until its end arrives. Per guest NAME:
#   gstat[NAME]    "started filled passes done ok verify_errors", set once
#                  its log exists (verify_errors: the larger of the
#                  verify_error lines and the largest verify_errors=N)
#   gpasses[NAME]  one "mbps missed mb secs" line per pass
#   gdone[NAME]    its first "HOG done" line; gverified[NAME] 1 after a
#                  "HOG verify" line
declare -A gstat=() gpasses=() gdone=() gverified=() gvlines=() slog_fd=() slog_part=()
follow_serial() { # NAME
	local n=$1 fd line kv st fl np dn ok ve
	local -a tok
	local -A v
	fd=${slog_fd[$n]:-}
	if [ -z "$fd" ]; then
		# Never create it: qemu/libvirt create it for the guest.
		[ -e "$(serial "$n")" ] || return 0
		exec {fd}<"$(serial "$n")" || return 0
		slog_fd[$n]=$fd
		gstat[$n]="0 0 0 0 0 0"
	fi
	read -r st fl np dn ok ve <<<"${gstat[$n]}"
	while :; do
		line=
		if ! IFS= read -r -u "$fd" line; then
			slog_part[$n]=${slog_part[$n]:-}$line
			break
		fi
		line=${slog_part[$n]:-}$line
		slog_part[$n]=
		line=${line%$'\r'}
		[[ $line == *"HOG "* ]] || continue
		line="HOG ${line#*HOG }"
		read -r -a tok <<<"$line"
		case ${tok[1]:-} in
		start) st=1 ;;
		fill) fl=1 ;;
		verify) gverified[$n]=1 ;;
		verify_error) gvlines[$n]=$((${gvlines[$n]:-0} + 1)) ;;
		done)
			dn=1
			ok=0
			[[ $line != *result=PASS* ]] || ok=1
			[ -n "${gdone[$n]:-}" ] || gdone[$n]=$line
			;;
		esac
		v=()
		for kv in "${tok[@]:2}"; do
			[[ $kv =~ ^[a-z_]+= ]] && v[${kv%%=*}]=${kv#*=}
		done
		if [ "${tok[1]:-}" = pass ]; then
			np=$((np + 1))
			gpasses[$n]+="${v[mbps]:-} ${v[deadline_missed]:-} ${v[mb]:-} ${v[secs]:-}"$'\n'
		fi
		[[ ${v[verify_errors]:-} =~ ^[0-9]+$ ]] && [ "${v[verify_errors]}" -gt "$ve" ] && ve=${v[verify_errors]}
		[ "${gvlines[$n]:-0}" -le "$ve" ] || ve=${gvlines[$n]}
	done
	gstat[$n]="$st $fl $np $dn $ok $ve"
}
# forget_serial NAME: close NAME's log and drop what was read from it (a
# guest started again under the same name writes a new log).
forget_serial() {
	local fd=${slog_fd[$1]:-}
	[ -z "$fd" ] || exec {fd}<&-
	unset "slog_fd[$1]" "slog_part[$1]" "gstat[$1]" "gpasses[$1]" "gdone[$1]" "gverified[$1]" "gvlines[$1]"
}

# passes_of NAME FROM: pass lines after the first FROM, as "mbps missed mb secs".
passes_of() {
	local -a pl
	[ -n "${gpasses[$1]:-}" ] || return 0
	mapfile -t pl <<<"${gpasses[$1]%$'\n'}"
	[ "$2" -ge "${#pl[@]}" ] || printf '%s\n' "${pl[@]:$2}"
}

# window_stats WLEN PERIOD BEFORE: the passes all guests ($names) completed
# since BEFORE[NAME] passes each, over a window of WLEN seconds, as
# "passes,missed,short,miss_pct,pass_mbps,agg_mbps,pass_secs,work_mbps".
# A guest that completed fewer passes than the window allows (minus one) is
# short, and every missing pass counts as a missed deadline. pass_mbps is
# the mean of the per-pass rates; work_mbps is the work rate, MB touched
# per second of pass time (sum of MB / sum of seconds), which a few fast
# passes cannot dominate.
window_stats() {
	local -n _before=$3
	local n all='' exp
	# shellcheck disable=SC2154 # names: the caller's guests
	for n in "${names[@]}"; do all+=$(passes_of "$n" "${_before[$n]:-0}")$'\n'; done
	exp=$((${#names[@]} * ($1 / $2 - 1)))
	awk -v expn="$exp" -v wlen="$1" 'NF == 4 {n++; m += $2; s += $1; mb += $3; secs += $4}
		END {short = expn - n; if (short < 0) short = 0
			tot = n + short
			printf "%d,%d,%d,%.2f,%.1f,%.1f,%.3f,%.1f\n", n, m, short, (tot ? 100 * (m + short) / tot : 100),
				(n ? s / n : 0), mb / wlen, (n ? secs / n : 0), (secs > 0 ? mb / secs : 0)}' <<<"$all"
}
