# shellcheck shell=bash
# Common helpers for the host-setup scripts. Source it; do not run it.

KIT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KIT_CACHE=${KIT_CACHE:-/var/cache/ramzswap-kit}
export KIT_TOP KIT_CACHE

# The Debian suite the host image is built from (the build machine's own).
KIT_SUITE=${KIT_SUITE:-bookworm}

say() { printf '%s: %s\n' "${KIT_PROG:-kit}" "$*" >&2; }
die() { say "error: $*"; exit 2; }

# need_cmd CMD PACKAGE: fail with the package to install when CMD is missing.
need_cmd() {
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' not found: install it with 'apt-get install $2' (or run 'make deps')"
}

# Print "RELEASE VERSION" of the kernel the kit builds against: the ABI
# that Debian's linux-headers-amd64 depends on, and that package's version.
# Prefer what is installed; fall back to what apt would install.
kernel_release() {
	local rel ver
	rel=$(dpkg-query -W -f='${Depends}\n' linux-headers-amd64 2>/dev/null |
		grep -o 'linux-headers-[0-9][^ ,]*-amd64' | head -n1 || true)
	if [ -z "$rel" ]; then
		rel=$(apt-cache depends linux-headers-amd64 2>/dev/null |
			grep -o 'linux-headers-[0-9][^ ,]*-amd64' | head -n1 || true)
	fi
	[ -n "$rel" ] || die "cannot resolve linux-headers-amd64 (run 'apt-get update')"
	rel=${rel#linux-headers-}
	ver=$(dpkg-query -W -f='${Version}' "linux-headers-$rel" 2>/dev/null || true)
	if [ -z "$ver" ]; then
		ver=$(apt-cache policy "linux-headers-$rel" | awk '/Candidate:/ {print $2}')
	fi
	if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
		die "no version of linux-headers-$rel available"
	fi
	printf '%s %s\n' "$rel" "$ver"
}

# Directory of the kernel headers for RELEASE, or fail.
headers_dir() {
	local d="/usr/src/linux-headers-$1"
	[ -f "$d/Makefile" ] || die "headers for $1 missing: run 'apt-get install linux-headers-$1'"
	printf '%s\n' "$d"
}

# parse_size_mib SIZE: SIZE (512M, 2G, 2GiB, a bare number of MiB) in MiB,
# or nothing when it is malformed (host-setup/lab, bench/run).
parse_size_mib() { # SIZE -> MiB, or empty when malformed
	local v=$1 n unit
	[[ $v =~ ^([0-9]+)([KkMmGgTt]?)(i?[Bb])?$ ]] || return 0
	n=${BASH_REMATCH[1]}
	unit=${BASH_REMATCH[2]^^}
	case $unit in
	K) echo $((n / 1024)) ;;
	M | "") echo "$n" ;;
	G) echo $((n * 1024)) ;;
	T) echo $((n * 1024 * 1024)) ;;
	esac
}
