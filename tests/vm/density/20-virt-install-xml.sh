#!/usr/bin/env bash
# The virt-install command lines documented in libvirt/README.md produce
# domains like the templates: direct kernel boot with the hog's command
# line, ACPI, no balloon, no hugepages or locked memory, serial to a file,
# on_poweroff destroy. Dry run (--print-xml): nothing is defined or started.
# kit-timeout: 300
set -euo pipefail
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

command -v virt-install >/dev/null || fail "virt-install missing from the host image"
/kit/libvirt/guestctl prepare
img=/var/lib/libvirt/images
check() { # NAME XML
	local x=$2
	grep -q "<kernel>$img/hog-" <<<"$x" || fail "$1: no direct kernel boot"
	grep -q '<memballoon model="none"' <<<"$x" || fail "$1: balloon not disabled"
	grep -q '<acpi/>' <<<"$x" || fail "$1: no <acpi/>"
	grep -q '<on_poweroff>destroy</on_poweroff>' <<<"$x" || fail "$1: on_poweroff is not destroy"
	grep -q '<serial type="file">' <<<"$x" || fail "$1: serial is not a file"
	! grep -qE '<hugepages|<locked' <<<"$x" || fail "$1: hugepages or locked memory"
	info "$1: ok"
}
x=$(timeout 180 virt-install --name hog1 --memory 256 --vcpus 1 --cpu host-passthrough \
	--machine pc --osinfo generic --install no_install=yes \
	--boot kernel=$img/hog-vmlinuz,initrd=$img/hog-linux.cpio.gz,kernel_args="console=ttyS0 quiet panic=-1 hog.mem=160M hog.ws=0.1" \
	--features acpi=on --memballoon none \
	--disk none --network none --graphics none --sound none \
	--serial file,path=/var/log/libvirt/qemu/hog1-serial.log \
	--events on_poweroff=destroy,on_reboot=destroy,on_crash=destroy \
	--noautoconsole --print-xml 2>&1) || fail "virt-install (linux) failed: $x"
check linux "$x"
grep -q 'hog.mem=160M' <<<"$x" || fail "linux: hog parameters missing from <cmdline>"
x=$(timeout 180 virt-install --name hog2 --memory 192 --vcpus 1 --cpu host-passthrough \
	--machine pc --osinfo generic --install no_install=yes \
	--boot kernel=$img/hog-winlike.elf,kernel_args="ws=0.1,period=5,periods=20" \
	--features acpi=on --memballoon none \
	--disk none --network none --graphics none --sound none \
	--serial file,path=/var/log/libvirt/qemu/hog2-serial.log \
	--events on_poweroff=destroy,on_reboot=destroy,on_crash=destroy \
	--noautoconsole --print-xml 2>&1) || fail "virt-install (winlike) failed: $x"
check winlike "$x"
