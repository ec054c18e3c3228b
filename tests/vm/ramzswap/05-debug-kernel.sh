#!/usr/bin/env bash
# The suite runs on a host kernel with the memory debugging Debian's kernel
# has (no KASAN, lockdep or kmemleak there): slub_debug=FZPU (red zones,
# poisoning, sanity checks, owner tracking), page_poison=1 and
# init_on_free=1. suite.conf puts them on the command line; this checks that
# they are in force, so a use-after-free or overflow in the driver shows up
# on the console (which fails the test that caused it).
# kit-timeout: 60
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

cmdline=$(cat /proc/cmdline)
info "cmdline: $cmdline"
for opt in slub_debug=FZPU page_poison=1 init_on_free=1; do
	[[ " $cmdline " == *" $opt "* ]] || fail "host kernel booted without $opt"
done
# slub_debug took effect: a kmalloc cache has sanity checks, red zones,
# poisoning and user tracking on.
slab=/sys/kernel/slab/kmalloc-64
for f in sanity_checks red_zone poison store_user; do
	[ "$(cat "$slab/$f")" = 1 ] || fail "$slab/$f is not 1: slub_debug not in force"
done
# page_poison=1: freed pages are poisoned and checked when allocated again
# (a write after free shows up as "pagealloc: memory corruption"). On 6.1 it
# takes precedence over init_on_free, and the kernel says so at boot.
log=$(dmesg)
grep -q 'mem auto-init: CONFIG_PAGE_POISONING is on' <<<"$log" ||
	fail "no page poisoning message in dmesg: page_poison not in force"
info "slub_debug and page_poison are in force (page_poison overrides init_on_free)"
