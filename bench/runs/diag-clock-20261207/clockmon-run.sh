#!/usr/bin/env bash
# Diagnostic (not part of the kit): watch the clocks while bench/in-vm runs.
set -uo pipefail
log=/kit-out/clockmon.log
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
echo "clocksource $cs available $(cat /sys/devices/system/clocksource/clocksource0/available_clocksource)" >"$log"
echo "<0>clockmon: start, clocksource $cs" >/dev/kmsg
mkfifo /run/clockmon.fifo
(
	exec 9<>/run/clockmon.fifo
	read -r pu _ </proc/uptime; pu=${pu/./}; pr=${EPOCHREALTIME/./}; n=0
	while :; do
		read -rt 0.2 -u 9 _
		read -r u _ </proc/uptime; u=${u/./}; r=${EPOCHREALTIME/./}
		du=$(( (u - pu) * 10000 )); dr=$(( r - pr ))   # both in microseconds
		if (( du - dr > 2000000 || dr - du > 2000000 || du > 5000000 || dr > 5000000 )); then
			msg="clockmon: JUMP uptime ${pu}->${u} cs, realtime ${pr}->${r} us (d_up ${du} us, d_rt ${dr} us)"
			echo "<0>$msg" >/dev/kmsg; echo "$(date +%T) $msg" >>"$log"
			grep -h . /sys/devices/system/clocksource/clocksource0/current_clocksource >>"$log"
		fi
		n=$((n + 1))
		(( n % 150 )) || echo "$(date +%T) up ${u} cs rt ${r} us" >>"$log"
		pu=$u; pr=$r
	done
) &
mon=$!
bench/in-vm "$@"
rc=$?
kill "$mon" 2>/dev/null
dmesg | grep -i 'clocksource\|tsc\|clockmon' >>"$log"
exit "$rc"
