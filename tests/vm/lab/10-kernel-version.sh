#!/usr/bin/env bash
# The host VM runs exactly the kernel the module is built against.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ -n "${KIT_HEADERS_RELEASE:-}" ] || fail "KIT_HEADERS_RELEASE not passed into the VM"
running=$(uname -r)
info "running $running, headers $KIT_HEADERS_RELEASE ($KIT_HEADERS_VERSION)"
[ "$running" = "$KIT_HEADERS_RELEASE" ] ||
	fail "host VM runs $running, the headers are $KIT_HEADERS_RELEASE"
# shellcheck disable=SC2016
pkgver=$(dpkg-query -W -f='${Version}' "linux-image-$running")
[ "$pkgver" = "$KIT_HEADERS_VERSION" ] ||
	fail "linux-image-$running is $pkgver, the headers are $KIT_HEADERS_VERSION"
grep -q "$KIT_HEADERS_VERSION" /proc/version ||
	fail "/proc/version does not name $KIT_HEADERS_VERSION: $(cat /proc/version)"
