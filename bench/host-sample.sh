# bench/host-sample.sh: sourced by bench/in-vm. Samples the host VM (the
# swap device's diskstats, meminfo, mm_stat, swap I/O, CPU time), also in a
# background sampler. Uses bench/in-vm's globals swapdev, rzsdev, names, out
# and guest-watch.sh's qpid; sets sample and swap_total_mib for bench/in-vm.
# shellcheck shell=bash disable=SC2154,SC2034 # the globals are bench/in-vm's
# Sampling and waiting use bash builtins only: on the 1-vCPU TCG host VM
# every process spawned (sleep and awk included) costs about 50 ms of CPU
# that the guests being measured need.
# nap SECONDS: sleep without a process, on a pipe that never has data.
exec {nap_fd}<> <(:)
nap() { read -rt "$1" -u "$nap_fd" _ || true; }
# dev_sample: sets sample=(reads read_ms writes write_ms read_sectors
# write_sectors) of the swap device ($swapdev; zeros without one), then
# swap used, the compressed device's ($rzsdev) orig, compr and used, and
# MemAvailable, in MiB: diskstats, meminfo and mm_stat. Also sets
# swap_total_mib (SwapTotal: the swap areas' size).
sample=()
swap_total_mib=0
# The files read (tests/host/bench-host-sample gives its own).
diskstats_file=/proc/diskstats
meminfo_file=/proc/meminfo
# The /proc files are read whole with mapfile, never line by line: a
# 'while read' loop seeks back after each line, and a seq_file re-generated
# at that offset after its numbers changed length starts mid-line (run
# full11-20261206: a diskstats line of two fields under set -u ended
# bench/in-vm).
dev_sample() {
	local line st=0 sf=0 ma=0 r=0 rm=0 w=0 wm=0 rs=0 wsec=0 mo=0 mc=0 mu=0
	local -a fld lines
	if [ -n "$swapdev" ]; then
		mapfile -t lines <"$diskstats_file"
		for line in "${lines[@]}"; do
			# Split only the device's line (a here-string per line costs).
			case "$line " in *" $swapdev "*) ;; *) continue ;; esac
			read -r -a fld <<<"$line"
			if [ "${#fld[@]}" -lt 11 ] || [ "${fld[2]}" != "$swapdev" ]; then continue; fi
			r=${fld[3]} rs=${fld[5]} rm=${fld[6]} w=${fld[7]} wsec=${fld[9]} wm=${fld[10]}
			break
		done
	fi
	mapfile -t lines <"$meminfo_file"
	for line in "${lines[@]}"; do
		# "Key:   value kB": the value is the line's digits.
		case $line in
		SwapTotal:*) st=${line//[!0-9]/} ;;
		SwapFree:*) sf=${line//[!0-9]/} ;;
		MemAvailable:*) ma=${line//[!0-9]/} ;;
		esac
	done
	if [ -n "$rzsdev" ] && [ -r "/sys/block/$rzsdev/mm_stat" ]; then
		read -r mo mc mu _ <"/sys/block/$rzsdev/mm_stat" || true
	fi
	swap_total_mib=$((st / 1024))
	sample=("$r" "$rm" "$w" "$wm" "$rs" "$wsec" $(((st - sf) / 1024)) $((mo / 1048576))
		$((mc / 1048576)) $((mu / 1048576)) $((ma / 1024)))
}
# Pages swapped in and out since boot: "IN OUT" (/proc/vmstat).
swap_io() { awk '$1 == "pswpin" {i = $2} $1 == "pswpout" {o = $2} END {printf "%d %d", i, o}' /proc/vmstat; }
# swap_rates "IN OUT" SECONDS: pages swapped in and out per second since
# that swap_io, as "in,out".
swap_rates() {
	awk -v a="$1" -v b="$(swap_io)" -v w="$2" 'BEGIN {split(a, x, " "); split(b, y, " ")
		if (w < 1) w = 1; printf "%.1f,%.1f\n", (y[1] - x[1]) / w, (y[2] - x[2]) / w}'
}
# The host VM's CPU time since boot, all CPUs, in ticks: "BUSY TOTAL"
# (/proc/stat; idle and iowait are not busy). Guest time is already in user.
cpu_ticks() {
	awk '$1 == "cpu" {t = 0; for (i = 2; i <= 9; i++) t += $i; printf "%d %d", t - $5 - $6, t; exit}' /proc/stat
}
# CPU time of the guests' QEMU processes (all their threads, the nested
# guests' run time included), in the same ticks: bash builtins only.
guests_ticks() {
	local n p line t=0
	local -a fld
	for n in "${names[@]}"; do
		p=${qpid[$n]:-}
		[ -n "$p" ] || continue
		read -r line 2>/dev/null <"/proc/$p/stat" || continue
		# after "pid (comm) ": state ppid ... utime (11) stime (12)
		read -r -a fld <<<"${line##*) }"
		t=$((t + fld[11] + fld[12]))
	done
	echo "$t"
}

# cpu_shares "BUSY TOTAL" GUEST_TICKS: the host VM's CPU busy share since
# that cpu_ticks, and its guests' QEMU processes' share since that
# guests_ticks, in %, as "busy,guests" (the guests' is exact run time where
# /proc/stat samples at the tick, so it can exceed busy by a little).
cpu_shares() {
	awk -v a="$1" -v b="$(cpu_ticks)" -v g0="$2" -v g1="$(guests_ticks)" 'BEGIN {split(a, x, " "); split(b, y, " ")
		t = y[2] - x[2]; printf "%.1f,%.1f\n", (t > 0 ? 100 * (y[1] - x[1]) / t : 0), (t > 0 ? 100 * (g1 - g0) / t : 0)}'
}

sampler_pid=
start_sampler() { # CONFIG
	local f=$out/diskstats-$1.csv
	echo "t,reads,read_ms,writes,write_ms,swap_used_mib,mm_orig_mib,mm_used_mib,read_sectors,write_sectors" >"$f"
	[ -n "$swapdev" ] || return 0
	(
		# TERM ends the loop between samples: bash runs the trap after
		# the current command, so no reader is killed mid-pipe.
		stop=0
		trap 'stop=1' TERM
		t0=$SECONDS
		while [ "$stop" = 0 ] && nap 2 && [ "$stop" = 0 ]; do
			dev_sample
			read -r r rm w wm rsec wsec su mo _ mu _ <<<"${sample[*]}"
			echo "$((SECONDS - t0)),$r,$rm,$w,$wm,$su,$mo,$mu,$rsec,$wsec"
		done
	) >>"$f" &
	sampler_pid=$!
}
stop_sampler() {
	[ -n "$sampler_pid" ] || return 0
	kill "$sampler_pid" 2>/dev/null || true
	wait "$sampler_pid" 2>/dev/null || true
	sampler_pid=
}
