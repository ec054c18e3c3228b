#!/usr/bin/env bash
# Fetch the Debian guest kernel used by the hog-linux tests into a cache
# directory outside the repo (default /var/cache/ramzswap-kit/guest-kernel)
# and unpack it there (boot/vmlinuz-*).  Needs root for apt-get.
# usage: fetch-guest-kernel.sh [DEST_DIR]    env: GUEST_KERNEL_PKG
set -euo pipefail

pkg=${GUEST_KERNEL_PKG:-linux-image-6.1.0-57-amd64}
dest=${1:-/var/cache/ramzswap-kit/guest-kernel}
ver=${pkg#linux-image-}

mkdir -p "$dest"
cd "$dest"
exec 9>"$dest/.lock"
flock 9

if [[ -f boot/vmlinuz-$ver ]]; then
	echo "fetch-guest-kernel: $dest/boot/vmlinuz-$ver already present"
	exit 0
fi

have_deb() {
	local f
	for f in "${pkg}"_*.deb; do
		[[ -f $f ]] && return 0
	done
	return 1
}

if ! have_deb; then
	if ! apt-get download "$pkg"; then
		apt-get update -qq
		apt-get download "$pkg"
	fi
fi
for f in "${pkg}"_*.deb; do
	# only ./boot is needed (the guests need no modules); fall back to a
	# full dpkg -x if the member layout is unexpected
	if ! dpkg-deb --fsys-tarfile "$f" | tar -x -f - ./boot; then
		dpkg -x "$f" .
	fi
done
[[ -f boot/vmlinuz-$ver ]] || {
	echo "fetch-guest-kernel: boot/vmlinuz-$ver missing after unpacking" >&2
	exit 1
}
echo "fetch-guest-kernel: $dest/boot/vmlinuz-$ver"
