#!/usr/bin/env bash
# Under TCG, vm-main's kvm-apic-key-pin holds kvm's two APIC static keys
# on (host-setup/vm/kvm-apic-key-pin.c): with no guest running both enable
# counts are at least 1, and they fall to 0 once the pin is stopped (so the
# counts read are the keys the pin moves). The pin is started again at the
# end for the tests after this one.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ "${KIT_ACCEL:-}" = tcg ] || skip "accelerator ${KIT_ACCEL:-unknown}: the pin is used under TCG only"
keys=(apic_sw_disabled apic_hw_disabled)
pidf=/run/kvm-apic-key-pin.pid
if ! { [ -s $pidf ] && kill -0 "$(cat $pidf)" 2>/dev/null; }; then
	fail "kvm-apic-key-pin is not running: $(cat /run/kvm-apic-key-pin.out 2>&1)"
fi
if timeout 60 virsh -c qemu:///system list --name | grep -q .; then
	fail "a domain is running: its vCPUs would hold the keys too"
fi

counts() { kernel-int "${keys[@]}" | awk '{printf "%s%s=%s", sep, $1, $2; sep = " "}'; }
held=$(counts) || fail "cannot read the keys: $held"
info "pinned: $held"
# Both counts at least 1, from the one reading above.
for kv in $held; do
	[ "${kv#*=}" -ge 1 ] || fail "${kv%=*} is ${kv#*=} with the pin running ($held)"
done

kill "$(cat $pidf)"
# kvm drops the keys on a delayed work, HZ (1 s) after the last user.
free=
for _ in $(seq 20); do
	sleep 0.5
	free=$(counts)
	[ "$free" = "apic_sw_disabled=0 apic_hw_disabled=0" ] && break
done
info "after the pin stopped: $free"

why=$(/kit/host-setup/vm/apic-key-pin-start 2>&1) || fail "the pin did not start again: $why"

[ "$free" = "apic_sw_disabled=0 apic_hw_disabled=0" ] ||
	fail "the keys did not fall to 0 without the pin ($free): the counts read are not the pin's"
info "pinned again: $(counts)"
