#!/usr/bin/env bash
# Self-tests for guests/: boot each guest image under QEMU TCG with small
# parameters and check its "HOG ..." serial output (format: ../README.md).
# Prints one line per test:  PASS guests/<name> | FAIL guests/<name>: why |
# SKIP guests/<name>: why.   Exit status 1 if any test failed.
#
# env: BUILD (default ../build/guests), GUEST_KERNEL, GUEST_KERNEL_DIR, QEMU,
#      GUESTS_TEST_BUDGET (seconds for the whole run, default 300),
#      GUESTS_TEST_KEEP=1 to keep the serial logs (path printed on FAIL).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$here/../build/guests}
GUEST_KERNEL_DIR=${GUEST_KERNEL_DIR:-/var/cache/ramzswap-kit/guest-kernel}
GUEST_KERNEL=${GUEST_KERNEL:-$GUEST_KERNEL_DIR/boot/vmlinuz-6.1.0-57-amd64}
QEMU=${QEMU:-qemu-system-x86_64}
BUDGET=${GUESTS_TEST_BUDGET:-300}
VM_TIMEOUT=120

logdir=$(mktemp -d "${TMPDIR:-/tmp}/guests-test.XXXXXX")
cleanup() {
	if [[ ${GUESTS_TEST_KEEP:-0} != 1 ]]; then
		rm -rf "$logdir"
	fi
}
trap cleanup EXIT

npass=0
nfail=0
nskip=0
start_s=$SECONDS

pass() {
	echo "PASS guests/$1"
	npass=$((npass + 1))
}
fail() {
	echo "FAIL guests/$1: $2"
	nfail=$((nfail + 1))
	if [[ ${GUESTS_TEST_KEEP:-0} == 1 ]]; then
		echo "  log: $logdir/$1.log" >&2
	elif [[ -f $logdir/$1.log ]]; then
		sed 's/^/  | /' "$logdir/$1.log" | tail -n 15 >&2
	fi
}
skip() {
	echo "SKIP guests/$1: $2"
	nskip=$((nskip + 1))
}

over_budget() {
	((SECONDS - start_s > BUDGET))
}

# run_vm NAME QEMU-ARGS... : boots under TCG, serial -> $logdir/NAME.log,
# sets vm_rc (124 = timed out, i.e. the VM did not power off by itself)
vm_rc=0
run_vm() {
	local name=$1
	shift
	vm_rc=0
	timeout "${vm_timeout:-$VM_TIMEOUT}" "$QEMU" -accel tcg -cpu max -m 256 \
		-nodefaults -display none -monitor none -no-reboot \
		-serial "file:$logdir/$name.log" "$@" \
		</dev/null >"$logdir/$name.qemu.out" 2>&1 || vm_rc=$?
	if [[ -f $logdir/$name.log ]]; then
		tr -d '\r' <"$logdir/$name.log" >"$logdir/$name.log.tmp"
		mv "$logdir/$name.log.tmp" "$logdir/$name.log"
	else
		: >"$logdir/$name.log"
	fi
}

# value of key=... on the last line starting with "HOG <what>"
field() {
	local log=$1 what=$2 key=$3
	grep -a "^HOG $what " "$log" | tail -n 1 | tr ' ' '\n' |
		sed -n "s/^$key=//p" | tail -n 1
}

# common checks; prints a reason and returns 1 on the first problem
check_powered_off() {
	local name=$1 class=$2 log=$logdir/$1.log
	if [[ $vm_rc == 124 ]]; then
		echo "VM did not power off within ${VM_TIMEOUT}s"
		return 1
	fi
	if [[ $vm_rc != 0 ]]; then
		echo "qemu exited with status $vm_rc: $(head -c 300 "$logdir/$name.qemu.out")"
		return 1
	fi
	if grep -aq 'HOG poweroff_failed' "$log"; then
		echo "guest reports poweroff_failed"
		return 1
	fi
	if [[ $class == linux ]] && ! grep -aq 'reboot: Power down' "$log"; then
		echo "kernel did not power down (reboot/panic?)"
		return 1
	fi
	if ! grep -aq "^HOG done class=$class " "$log"; then
		echo "no 'HOG done class=$class' line"
		return 1
	fi
}

# expect_pass NAME CLASS PASSES [START_FIELD [WINDOW_STARTS [IDLE_TIMER MIN MAX]]]: a clean run
expect_pass() {
	local name=$1 class=$2 passes=$3 log=$logdir/$1.log why n
	if ! why=$(check_powered_off "$name" "$class"); then
		fail "$name" "$why"
		return
	fi
	if ! grep -aq "^HOG start class=$class " "$log"; then
		fail "$name" "no 'HOG start class=$class' line"
		return
	fi
	if [[ -z $(field "$log" fill mbps) ]]; then
		fail "$name" "no 'HOG fill ... mbps=' line"
		return
	fi
	n=$(grep -ac '^HOG pass n=[0-9]* mb=[0-9]* secs=[0-9.]* mbps=[0-9.]* deadline_missed=[01] verify_errors=0' "$log" || true)
	if [[ $passes != any && $n != "$passes" ]]; then
		fail "$name" "expected $passes clean 'HOG pass' lines, got $n"
		return
	fi
	if [[ $passes == any && $n -lt 1 ]]; then
		fail "$name" "no clean 'HOG pass' line"
		return
	fi
	if [[ $(field "$log" verify verify_errors) != 0 ]]; then
		fail "$name" "final verify line missing or verify_errors!=0"
		return
	fi
	if [[ $(field "$log" "done" verify_errors) != 0 || $(field "$log" "done" result) != PASS ]]; then
		fail "$name" "done line: $(grep -a '^HOG done' "$log" | tail -n 1)"
		return
	fi
	if [[ $passes != any && $(field "$log" "done" passes) != "$passes" ]]; then
		fail "$name" "done line passes != $passes"
		return
	fi
	# Optional: a field of the start line, and the pass windows' start pages.
	if [[ -n ${4:-} ]] && ! grep -aq "^HOG start class=$class .* $4\( \|\r\|$\)" "$log"; then
		fail "$name" "the start line has no '$4'"
		return
	fi
	if [[ -n ${5:-} ]]; then
		n=$({ grep -ao '^HOG pass .* start=[0-9]*' "$log" || true; } | sed 's/.* start=//' | tr '\n' ' ')
		if [[ ${n% } != "$5" ]]; then
			fail "$name" "pass windows start at '${n% }', expected '$5'"
			return
		fi
	fi
	# Optional (winlike): the idle timer the info line names, and bounds
	# on the done line's idle_wakeups.
	if [[ -n ${6:-} ]]; then
		if [[ $(field "$log" info idle_timer) != "$6" ]]; then
			fail "$name" "idle_timer is '$(field "$log" info idle_timer)', expected '$6'"
			return
		fi
		n=$(field "$log" "done" idle_wakeups)
		if [[ ! $n =~ ^[0-9]+$ ]] || ((n < $7 || n > $8)); then
			fail "$name" "idle_wakeups '$n' not within $7..$8"
			return
		fi
	fi
	pass "$name"
}

# expect_bad_param NAME CLASS PARAM
expect_bad_param() {
	local name=$1 class=$2 param=$3 log=$logdir/$1.log why
	if ! why=$(check_powered_off "$name" "$class"); then
		fail "$name" "$why"
		return
	fi
	if ! grep -aq "^HOG error param=$param value=bogus reason=" "$log"; then
		fail "$name" "no 'HOG error param=$param value=bogus' line"
		return
	fi
	if [[ $(field "$log" "done" result) != FAIL || $(field "$log" "done" reason) != bad_param ]]; then
		fail "$name" "done line not result=FAIL reason=bad_param"
		return
	fi
	if grep -aq '^HOG pass ' "$log"; then
		fail "$name" "ran passes despite the bad parameter"
		return
	fi
	pass "$name"
}

# expect_corrupt NAME CLASS: selftest_corrupt must be detected
expect_corrupt() {
	local name=$1 class=$2 log=$logdir/$1.log why e
	if ! why=$(check_powered_off "$name" "$class"); then
		fail "$name" "$why"
		return
	fi
	if ! grep -aq '^HOG selftest corrupted page=' "$log"; then
		fail "$name" "no 'HOG selftest corrupted' line"
		return
	fi
	e=$(field "$log" "done" verify_errors)
	if [[ -z $e || $e -lt 1 ]]; then
		fail "$name" "corruption not detected (verify_errors=${e:-missing})"
		return
	fi
	if ! grep -aq '^HOG verify_error phase=pass page=.* reason=checksum' "$log"; then
		fail "$name" "no 'HOG verify_error phase=pass ... reason=checksum' line"
		return
	fi
	if [[ $(field "$log" "done" result) != FAIL ]]; then
		fail "$name" "result is not FAIL"
		return
	fi
	pass "$name"
}

# ---- host-side: page generator self-check (verify + corruption detection)
if [[ -x $BUILD/pagedump ]]; then
	bad=""
	for k in zero text random code data; do
		if ! "$BUILD/pagedump" "$k" 64 7 >/dev/null 2>"$logdir/pagedump.err"; then
			bad="$bad $k($(head -c 200 "$logdir/pagedump.err"))"
		fi
	done
	if [[ -z $bad ]]; then
		pass pagegen
	else
		fail pagegen "pagedump failed:$bad"
	fi
else
	fail pagegen "$BUILD/pagedump not built"
fi

# ---- Linux memory hog
linux_tests=(linux-mixed linux-random-duration linux-drift linux-badparam linux-corrupt)
if ! command -v "$QEMU" >/dev/null 2>&1; then
	for t in "${linux_tests[@]}" winlike-pc winlike-noapic winlike-q35-random winlike-badparam winlike-corrupt winlike-noacpi winlike-triple-fault; do
		skip "$t" "$QEMU not installed"
	done
	echo "guests summary: pass=$npass fail=$nfail skip=$nskip"
	((nfail == 0))
	exit
fi

kernel_ok=1
if [[ ! -f $GUEST_KERNEL ]]; then
	if [[ $GUEST_KERNEL == "$GUEST_KERNEL_DIR"/boot/* ]]; then
		"$here/tools/fetch-guest-kernel.sh" "$GUEST_KERNEL_DIR" >"$logdir/fetch.log" 2>&1 || true
	fi
	[[ -f $GUEST_KERNEL ]] || kernel_ok=0
fi

if [[ ! -f $BUILD/hog-linux.cpio.gz ]]; then
	for t in "${linux_tests[@]}"; do fail "$t" "$BUILD/hog-linux.cpio.gz not built"; done
elif ((kernel_ok == 0)); then
	for t in "${linux_tests[@]}"; do skip "$t" "guest kernel $GUEST_KERNEL missing and could not be fetched"; done
else
	linux_vm() {
		local name=$1 params=$2
		run_vm "$name" -kernel "$GUEST_KERNEL" -initrd "$BUILD/hog-linux.cpio.gz" \
			-append "console=ttyS0 quiet panic=-1 $params"
	}
	t=linux-mixed
	if over_budget; then skip $t "test time budget ${BUDGET}s used up"; else
		linux_vm $t "hog.mem=48M hog.profile=mixed hog.ws=0.5 hog.pattern=seq hog.period=1 hog.periods=3"
		expect_pass $t linux 3
	fi
	t=linux-random-duration
	if over_budget; then skip $t "test time budget ${BUDGET}s used up"; else
		linux_vm $t "hog.mem=20% hog.profile=random hog.ws=0.25 hog.pattern=random hog.period=0.5 hog.duration=2 hog.seed=42 hog.write=0"
		expect_pass $t linux any
	fi
	t=linux-drift
	if over_budget; then skip $t "test time budget ${BUDGET}s used up"; else
		# 4096 pages, ws 1024, drift 1: windows at 0, 1024, 2048, 3072, 0
		linux_vm $t "hog.mem=16M hog.profile=mixed hog.ws=0.25 hog.drift=1 hog.period=0 hog.periods=5"
		expect_pass $t linux 5 "drift=1" "0 1024 2048 3072 0"
	fi
	t=linux-badparam
	if over_budget; then skip $t "test time budget ${BUDGET}s used up"; else
		linux_vm $t "hog.mem=16M hog.profile=bogus"
		expect_bad_param $t linux hog.profile
	fi
	t=linux-corrupt
	if over_budget; then skip $t "test time budget ${BUDGET}s used up"; else
		linux_vm $t "hog.mem=16M hog.profile=text hog.ws=1 hog.period=0 hog.periods=2 hog.selftest_corrupt=1"
		expect_corrupt $t linux
	fi
fi

# ---- Windows-like multiboot guest
win_tests=(winlike-pc winlike-noapic winlike-q35-random winlike-drift winlike-badparam winlike-corrupt winlike-noacpi winlike-triple-fault)
if [[ ! -f $BUILD/hog-winlike.elf ]]; then
	for t in "${win_tests[@]}"; do fail "$t" "$BUILD/hog-winlike.elf not built"; done
else
	win_vm() { # NAME MACHINE PARAMS [QEMU-ARGS...]
		local name=$1 machine=$2 params=$3
		shift 3
		run_vm "$name" -M "$machine" -kernel "$BUILD/hog-winlike.elf" -append "$params" "$@"
	}
	t=winlike-pc
	if over_budget; then skip $t "test time budget ${BUDGET}s used up"; else
		win_vm $t pc "ws=0.2,period=1,periods=3"
		expect_pass $t winlike 3 "" "" lapic_oneshot 0 30
	fi
	# without a local APIC the hog idles on the 100 Hz PIT tick: about
	# 200 wake-ups in the two idle seconds of three 1 s periods
	t=winlike-noapic
	if over_budget; then skip $t "test time budget ${BUDGET}s used up"; else
		win_vm $t pc "ws=0.2,period=1,periods=3" -cpu max,-apic
		expect_pass $t winlike 3 "" "" pit_100hz 50 100000
	fi
	t=winlike-q35-random
	if over_budget; then skip $t "test time budget ${BUDGET}s used up"; else
		win_vm $t q35 "mem=40%,ws=0.3,pattern=random,period=0.5,duration=2,seed=9"
		expect_pass $t winlike any
	fi
	t=winlike-drift
	if over_budget; then skip $t "test time budget ${BUDGET}s used up"; else
		# 4096 pages, ws 1024, drift 0.5: windows at 0, 512, 1024
		win_vm $t pc "mem=16M,ws=0.25,drift=0.5,period=0,periods=3"
		expect_pass $t winlike 3 "drift=0.5" "0 512 1024"
	fi
	t=winlike-badparam
	if over_budget; then skip $t "test time budget ${BUDGET}s used up"; else
		win_vm $t pc "ws=0.2,profile=bogus"
		expect_bad_param $t winlike profile
	fi
	t=winlike-corrupt
	if over_budget; then skip $t "test time budget ${BUDGET}s used up"; else
		win_vm $t pc "mem=32M,ws=0.5,period=0,periods=3,selftest_corrupt=1"
		expect_corrupt $t winlike
	fi
	# no ACPI tables: the run must still finish, say why it cannot power
	# off, and halt (QEMU is then stopped by the short timeout)
	t=winlike-noacpi
	if over_budget; then skip $t "test time budget ${BUDGET}s used up"; else
		vm_timeout=20 win_vm $t pc,acpi=off "mem=16M,ws=0.5,periods=1"
		log=$logdir/$t.log
		if [[ $vm_rc != 124 ]]; then
			fail $t "expected a halted VM (timeout), qemu status $vm_rc"
		elif ! grep -aq '^HOG poweroff_failed acpi=no_rsdp halting=1' "$log"; then
			fail $t "no 'HOG poweroff_failed acpi=no_rsdp' line"
		elif [[ $(field "$log" "done" result) != PASS ]]; then
			fail $t "no 'HOG done ... result=PASS' before the halt"
		else
			pass $t
		fi
	fi
	# selftest_triple_fault: the guest shuts the CPU down after its fill
	# (the bench tells such a stop from a power-off by the host's SVM
	# shutdown exit); -no-reboot makes QEMU exit on the reset, and QEMU's
	# cpu_reset log must name the triple fault.
	t=winlike-triple-fault
	if over_budget; then skip $t "test time budget ${BUDGET}s used up"; else
		vm_timeout=60 win_vm $t pc "mem=16M,ws=0.5,periods=1,selftest_triple_fault=1" \
			-d cpu_reset -D "$logdir/$t.reset.log"
		log=$logdir/$t.log
		if [[ $vm_rc != 0 ]]; then
			fail $t "expected QEMU to exit on the reset, status $vm_rc"
		elif ! grep -aq '^HOG selftest triple_fault=1' "$log"; then
			fail $t "no 'HOG selftest triple_fault=1' line"
		elif grep -aq '^HOG done' "$log"; then
			fail $t "the guest finished instead of triple-faulting"
		elif ! grep -aq 'Triple fault' "$logdir/$t.reset.log"; then
			fail $t "QEMU logged no triple fault"
		else
			pass $t
		fi
	fi
fi

echo "guests summary: pass=$npass fail=$nfail skip=$nskip"
((nfail == 0))
