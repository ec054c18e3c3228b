#!/usr/bin/env bash
# bench/svm-shutdowns on real nested KVM: a winlike guest told to triple-
# fault (selftest_triple_fault=1) ends shut off, and the host's kvm_amd took
# an SVM shutdown exit for its qemu; a guest that powers off by itself ends
# shut off too, with none. This is how bench/in-vm tells a nested guest's
# triple fault from a power-off when a guest dies.
# kit-timeout: 600
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

gctl=/kit/libvirt/guestctl
svm=/kit/bench/svm-shutdowns
trap '"$svm" off >/dev/null 2>&1 || true; "$gctl" destroy --all >/dev/null 2>&1 || true' EXIT
"$gctl" prepare >/dev/null
"$svm" on || fail "cannot arm the SVM shutdown trace"
# The diagnostic trace of nested page faults in event delivery: the kernel
# took its filter (tracefs shows a filter it refused as "none").
f=/sys/kernel/tracing/instances/kit-npf-in-delivery/events/kvm/kvm_exit/filter
grep -q 'intr_info & 0x80000000' "$f" || fail "event-delivery fault filter not set: $(cat "$f" 2>&1)"

# run_guest NAME PARAMS...: start it, wait for it to stop, print its qemu pid.
run_guest() {
	local name=$1 pid
	shift
	"$gctl" start "$name" winlike 64 "$@" >/dev/null || fail "$name did not start"
	pid=$(cat "/run/libvirt/qemu/$name.pid") || fail "$name: no qemu pid file"
	"$gctl" wait "$name" 300 >/dev/null || fail "$name still running after 300 s"
	echo "$pid"
}

p1=$(run_guest kithog-tf-1 mem=16M ws=0.5 periods=1 selftest_triple_fault=1)
"$gctl" hog kithog-tf-1 | grep -q '^HOG selftest triple_fault=1' ||
	fail "kithog-tf-1 did not reach its triple fault: $("$gctl" hog kithog-tf-1 | tail -n 2)"
n1=$("$svm" count "$p1")
info "triple-faulting guest (qemu $p1): state $("$gctl" state kithog-tf-1), $n1 SVM shutdown exit(s)"
[ "$n1" -ge 1 ] || fail "no SVM shutdown exit traced for the triple-faulting guest (qemu $p1)"
saved=$(mktemp)
"$svm" save "$saved" || fail "svm-shutdowns save failed"
grep -Eq "\( *$p1\) .*reason shutdown rip 0x[0-9a-f]+ .*intr_info" "$saved" ||
	fail "the saved trace lacks the shutdown exit of qemu $p1: $(head -n 5 "$saved")"
rm -f "$saved"

p2=$(run_guest kithog-tf-2 mem=16M ws=0.5 periods=1)
"$gctl" hog kithog-tf-2 | grep -q '^HOG done .*result=PASS' || fail "kithog-tf-2 did not finish"
n2=$("$svm" count "$p2")
info "powered-off guest (qemu $p2): state $("$gctl" state kithog-tf-2), $n2 SVM shutdown exit(s)"
[ "$n2" = 0 ] || fail "$n2 SVM shutdown exit(s) traced for a guest that powered off"
echo "ok: triple fault traced ($n1), power-off not ($n2)"
