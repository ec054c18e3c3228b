#!/usr/bin/env bash
# bench/in-vm notices a guest that dies while others run. It watches the
# guests' QEMU processes without calling virsh while they are all alive
# (each virsh call costs the TCG host VM CPU the guests need), so this
# checks that a QEMU process that goes away is still seen at once: guest 1
# is destroyed behind the benchmark's back once guest 2 has made a pass,
# and the configuration must end with "died: kithog-noswap-1 destroyed".
# The deadline rule is off (--max-miss 100), so a dead guest that went
# unseen would not end the configuration (it would end at --max-guests).
# kit-timeout: 900
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

out=$(mktemp -d /tmp/death-test.XXXX)
serial2=/var/log/libvirt/qemu/kithog-noswap-2-serial.log
killer() {
	local _
	for _ in $(seq 300); do
		if grep -aq 'HOG pass ' "$serial2" 2>/dev/null; then
			virsh -q -c qemu:///system destroy kithog-noswap-1 >/dev/null 2>&1 && echo destroyed >"$out/killed"
			return 0
		fi
		sleep 1
	done
}
rm -f "$serial2"
killer &
kpid=$!
trap 'kill "$kpid" 2>/dev/null || true; /kit/libvirt/guestctl destroy --all >/dev/null 2>&1 || true' EXIT
rc=0
/kit/bench/in-vm --out "$out" --class winlike --profile mixed --configs noswap \
	--guest-mib 64 --max-guests 3 --config-time 400 --period 2 --window 3 \
	--ws 0.2 --max-miss 100 --boot-timeout 200 --label death >"$out/in-vm.log" 2>&1 || rc=$?
wait "$kpid" || true
[ "$rc" = 0 ] || fail "bench/in-vm exited with status $rc: $(tail -n3 "$out/in-vm.log")"
[ -f "$out/killed" ] || fail "guest 2 never made a pass, so guest 1 was not destroyed: $(tail -n3 "$out/in-vm.log")"
# The limit column is quoted and holds commas: match the whole row.
row=$(grep '^noswap,' "$out/density.csv" || true)
info "density.csv: $row"
[[ $row == 'noswap,winlike,mixed,ok,'*',"died: kithog-noswap-1 destroyed '* ]] ||
	fail "the configuration did not end on guest 1's death: $row"
echo "ok"
