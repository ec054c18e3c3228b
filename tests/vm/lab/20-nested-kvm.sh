#!/usr/bin/env bash
# /dev/kvm exists in the host VM, nesting and nested paging are on, and
# libvirt offers KVM domains.
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

[ -c /dev/kvm ] || fail "/dev/kvm missing"
if [ -d /sys/module/kvm_amd ]; then
	nested=$(cat /sys/module/kvm_amd/parameters/nested)
	paging=$(cat /sys/module/kvm_amd/parameters/npt)
elif [ -d /sys/module/kvm_intel ]; then
	nested=$(cat /sys/module/kvm_intel/parameters/nested)
	paging=$(cat /sys/module/kvm_intel/parameters/ept)
else
	fail "neither kvm_amd nor kvm_intel is loaded"
fi
info "nested=$nested nested-paging=$paging"
case $nested in 1 | Y) ;; *) fail "nesting is off (nested=$nested)" ;; esac
case $paging in 1 | Y) ;; *) fail "nested paging is off ($paging)" ;; esac
systemctl is-active --quiet libvirtd || fail "libvirtd is not running"
timeout 120 virsh -c qemu:///system domcapabilities --virttype kvm >/tmp/domcaps.xml ||
	fail "libvirt offers no KVM domains"
grep -q '<domain>kvm</domain>' /tmp/domcaps.xml || fail "domcapabilities lacks kvm"
