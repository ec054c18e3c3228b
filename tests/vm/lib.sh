# shellcheck shell=bash
# Helpers for in-VM tests. Source it: . /kit/tests/vm/lib.sh

fail() { echo "FAIL: $*" >&2; echo "$*"; exit 1; }
skip() { echo "$*"; exit 77; }
info() { echo "# $*"; }

# vmstat KEY: a counter from /proc/vmstat.
vmstat() { awk -v k="$1" '$1 == k {print $2}' /proc/vmstat; }

# meminfo KEY: a value in kB from /proc/meminfo.
meminfo() { awk -v k="$1:" '$1 == k {print $2}' /proc/meminfo; }

# wait_for SECONDS COMMAND...: poll every 0.5 s until COMMAND succeeds.
wait_for() {
	local limit=$1 start=$SECONDS
	shift
	until "$@"; do
		[ $((SECONDS - start)) -lt "$limit" ] || return 1
		sleep 0.5
	done
}

# Turn off every active swap area, so a test starts from a known state.
swapoff_all() { swapoff -a 2>/dev/null || true; }
