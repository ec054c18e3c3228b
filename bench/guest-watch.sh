# bench/guest-watch.sh: sourced by bench/in-vm. Watches the running
# guests: their QEMU processes, libvirt's state, OOM kills and SVM shutdown
# exits. Uses bench/in-vm's globals names, dmesg0 and kit, its gv, and
# hog-log.sh's follow_serial, gstat and gdone; sets qpid, svm_trace and bad
# for bench/in-vm.
# shellcheck shell=bash disable=SC2154,SC2034 # the globals are bench/in-vm's
# Nested triple faults: bench/svm-shutdowns traces the host's SVM shutdown
# exits per qemu process, so that a guest that died can be told from one
# that powered off.
declare -A qpid=()
qemu_pid_dir=/run/libvirt/qemu # libvirt's NAME.pid files (tests give their own)
svm_trace=0
shutdown_exits() { # NAME -> count, or "?" when it cannot be known
	local p=${qpid[$1]:-}
	if [ -z "$p" ] || [ "$svm_trace" != 1 ]; then echo '?'; return; fi
	"$kit/bench/svm-shutdowns" count "$p" 2>/dev/null || echo '?'
}

oom_since() { # DMESG_LINE_COUNT -> prints the first OOM kill line since then
	dmesg | tail -n +"$(($1 + 1))" | grep -a -m1 -E 'Out of memory|oom-kill|Killed process' || true
}

# death_reason NAME WHEN: why a guest is gone. "oom: ..." when the host's
# OOM killer struck during this configuration, else "died: ..." with the SVM
# shutdown exits traced for it (a nested triple fault, or none traced).
death_reason() {
	local s o x
	s=$(gv state "$1" 2>/dev/null || echo unknown)
	o=$(oom_since "$dmesg0")
	if [ -n "$o" ]; then
		echo "oom: $1 $s $2; dmesg: ${o#*] }"
		return
	fi
	x=$(shutdown_exits "$1")
	case $x in
	'?') x="no SVM shutdown trace available" ;;
	0) x="no SVM shutdown exit traced for it" ;;
	*) x="it triple-faulted: the host took $x SVM shutdown exit(s) for it" ;;
	esac
	echo "died: $1 $s $2, with no OOM kill in the host's dmesg; $x"
}

running_list() { timeout -k 5 60 virsh -q -c qemu:///system list --name --state-running; }

# is_gone NAME: the guest is missing from check_guests' running list ($run)
# and its own state does not say running either. A guest just started can
# be missing from the list while its state already says running
# (density/10 called such a guest dead on 2026-12-06).
is_gone() { [[ $'\n'$run$'\n' != *$'\n'"$1"$'\n'* ]] && [ "$(gv state "$1" 2>/dev/null)" != running ]; }

# qemu_alive NAME: the guest's QEMU process (pid from libvirt's pid file,
# learnt once) is still there. Bash builtins only: no process is spawned.
qemu_alive() {
	local p=${qpid[$1]:-} comm
	if [ -z "$p" ]; then
		# libvirt writes the pid without a newline: read then fails at
		# its end but has set p.
		read -r p 2>/dev/null <"$qemu_pid_dir/$1.pid" || [ -n "$p" ] || return 1
		qpid[$1]=$p
	fi
	read -r comm 2>/dev/null <"/proc/$p/comm" || return 1
	[[ $comm == qemu* ]]
}
# check_guests: follows every guest's serial log (gstat, gpasses, gdone,
# gverified), then sets bad=REASON when a guest died or failed verification.
check_guests() {
	local n run np dn ok ve alive=1
	bad=
	[ "${#names[@]}" -gt 0 ] || return 0
	# While every guest's QEMU process is alive, they are all running, and
	# virsh is not asked: on the 1-vCPU TCG host VM each virsh call costs
	# tenths of a second of CPU that the guests being measured need.
	for n in "${names[@]}"; do qemu_alive "$n" || { alive=0; break; }; done
	if [ "$alive" = 1 ]; then
		printf -v run '%s\n' "${names[@]}"
	elif ! run=$(running_list); then
		bad="oom: host stalled (virsh list did not answer in 60 s)"
		return
	fi
	# Follow all of them first: the loop may return early.
	for n in "${names[@]}"; do follow_serial "$n"; done
	for n in "${names[@]}"; do
		[ -n "${gstat[$n]:-}" ] || continue
		read -r _ _ np dn ok ve <<<"${gstat[$n]}"
		if [ "$ve" -gt 0 ]; then bad="verify: $n reported $ve verification errors"; return; fi
		if [ "$dn" = 1 ] && [ "$ok" = 0 ]; then bad="verify: $n: ${gdone[$n]}"; return; fi
		if [ "$dn" = 0 ] && is_gone "$n"; then
			bad=$(death_reason "$n" "after $np passes without finishing")
			return
		fi
	done
	# Guests that have printed nothing yet (still booting) must be running.
	for n in "${names[@]}"; do
		[ -z "${gstat[$n]:-}" ] || continue
		if is_gone "$n"; then
			bad=$(death_reason "$n" "before printing anything")
			return
		fi
	done
}
