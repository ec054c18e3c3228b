# shellcheck shell=bash
# Helpers for the ramzswap in-VM tests. Source after ../lib.sh:
#   . "$(dirname "$0")/../lib.sh"; . "$(dirname "$0")/lib-rzs.sh"
# Sourcing installs an EXIT trap that undoes everything: first the commands
# given to on_exit_early (stop workloads), then swapoff, reset and rmmod,
# then the commands given to on_exit (remove dm devices and the like).

RZS_KO=${RZS_KO:-/kit/module/ramzswap.ko}
# The backing disk: the one the suite attaches (suite.conf: --disk bk:...),
# or a loop device made by rzs_backing_disk when there is none.
export RZS_BK=/dev/disk/by-id/virtio-bk

[ -f "$RZS_KO" ] || skip "no $RZS_KO (module not built)"

_rzs_early_cmds=()
_rzs_exit_cmds=()
on_exit_early() { _rzs_early_cmds+=("$*"); }
on_exit() { _rzs_exit_cmds=("$*" "${_rzs_exit_cmds[@]}"); } # run last-in first-out

rzs_cleanup() {
	local c dev
	for c in "${_rzs_early_cmds[@]}"; do eval "$c" 2>/dev/null || true; done
	for dev in /dev/ramzswap*; do
		[ -b "$dev" ] || continue
		timeout 300 swapoff "$dev" 2>/dev/null || true
	done
	if [ -d /sys/module/ramzswap ]; then
		for dev in /sys/block/ramzswap*; do
			if [ -e "$dev/reset" ]; then
				{ echo 1 >"$dev/reset"; } 2>/dev/null || true
			fi
		done
		timeout 60 rmmod ramzswap 2>/dev/null || true
	fi
	for c in "${_rzs_exit_cmds[@]}"; do eval "$c" 2>/dev/null || true; done
}
trap rzs_cleanup EXIT

rzs_load() { # [PARAM=VALUE...]
	swapoff_all
	if [ -d /sys/module/ramzswap ]; then rmmod ramzswap; fi
	insmod "$RZS_KO" "$@"
	udevadm settle --timeout=30 || true
}

rzs_unload() {
	local dev
	for dev in /sys/block/ramzswap*; do
		echo 1 >"$dev/reset"
	done
	rmmod ramzswap
	[ ! -d /sys/module/ramzswap ] || fail "ramzswap still loaded after rmmod"
}

# rzs_attr DEV ATTR: one sysfs attribute of /sys/block/DEV.
rzs_attr() { cat "/sys/block/$1/$2"; }

# rzs_stat DEV NAME: the number of line "NAME: value" of the stats file.
rzs_stat() { awk -v k="$2:" '$1 == k {print $2}' "/sys/block/$1/stats"; }

# rzs_mm DEV COLUMN: mm_stat column (1 orig_data_size, 2 compr_data_size,
# 3 mem_used_total, 4 mem_limit, 5 mem_used_max, 6 same_pages, 8 huge).
rzs_mm() { awk -v c="$2" '{print $c}' "/sys/block/$1/mm_stat"; }
rzs_io() { awk -v c="$2" '{print $c}' "/sys/block/$1/io_stat"; }
rzs_bd() { awk -v c="$2" '{print $c}' "/sys/block/$1/bd_stat"; }

# expect_fail CMD...: CMD must fail (non-zero), else the test fails.
expect_fail() {
	if "$@" 2>/dev/null; then fail "expected failure: $*"; fi
}

# sysfs_write_fails DEV ATTR VALUE [ERRNO-TEXT]: writing must fail; with
# ERRNO-TEXT (e.g. "Invalid argument") the error message must match.
sysfs_write_fails() {
	local out
	if out=$( (printf '%s' "$3" >"/sys/block/$1/$2") 2>&1); then
		fail "writing '$3' to $1/$2 succeeded"
	fi
	if [ -n "${4:-}" ] && ! grep -q "$4" <<<"$out"; then
		fail "writing '$3' to $1/$2: expected '$4', got: $out"
	fi
}

show_stats() { # DEV
	info "$1 stats:"
	sed 's/^/#   /' "/sys/block/$1/stats"
	info "$1 mm_stat: $(rzs_attr "$1" mm_stat)"
	info "$1 io_stat: $(rzs_attr "$1" io_stat) bd_stat: $(rzs_attr "$1" bd_stat)"
}

# in_cgroup MAX CMD...: run CMD in a transient scope limited to MAX of RAM
# (swap unlimited), so it swaps without starving the rest of the VM.
in_cgroup() {
	local max=$1
	shift
	systemd-run --quiet --scope -p MemoryMax="$max" -p MemorySwapMax=infinity "$@"
}

# rzs_backing_disk NAME MB: set RZS_BK to /dev/disk/by-id/virtio-NAME if the
# lab attached it, else to a loop device (direct I/O, so no double caching)
# over a sparse MB-sized file on the root file system, removed at exit.
rzs_backing_disk() {
	local img
	RZS_BK=/dev/disk/by-id/virtio-$1
	[ -b "$RZS_BK" ] && return 0
	img=/var/tmp/rzs-$1.img
	rm -f "$img"
	truncate -s "$2M" "$img"
	RZS_BK=$(losetup --direct-io=on --show -f "$img") || return 1
	on_exit "losetup -d $RZS_BK; rm -f $img"
	info "no disk virtio-$1 attached: using $RZS_BK over $img"
}
