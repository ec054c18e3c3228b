// SPDX-License-Identifier: GPL-2.0-only
/*
 * kvm-apic-key-pin: keep kvm's APIC static keys switched on for as long as
 * it runs, so that kvm never patches their branches again. Runs in the lab
 * host VM under TCG only (host-setup/vm/vm-main starts it before libvirtd).
 *
 * Why: kvm counts vCPUs whose local APIC is software-disabled
 * (apic_sw_disabled: every new vCPU until its guest enables the APIC) or
 * hardware-disabled (apic_hw_disabled) in two static keys, and flips the
 * branches in apic_enabled() with text_poke_bp() whenever a count moves
 * between 0 and 1: as nested guests start and boot. Under QEMU's TCG a host
 * vCPU running __apic_accept_irq at that moment was seen to spin there for
 * 20 s and more (a soft lockup or an RCU stall; host-setup/emulator-fault).
 * One vCPU that never runs, with its APIC disabled both ways, holds both
 * counts at 1 or more, so the guests' comings and goings never reach 0.
 * The cost is that apic_enabled() reads the APIC's two flags instead of
 * taking a patched-out branch.
 *
 * usage: kvm-apic-key-pin   (prints "pinned" once the keys are held, then
 *                            sleeps until killed; exit 1 with a message if
 *                            /dev/kvm refuses a step)
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define MSR_IA32_APICBASE 0x1b
/* The default APIC base with the enable bit (bit 11) clear: disabled. */
#define APICBASE_DISABLED 0xfee00000ULL

static int fail(const char *what)
{
	fprintf(stderr, "kvm-apic-key-pin: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(void)
{
	struct {
		struct kvm_msrs hdr;
		struct kvm_msr_entry entry;
	} msrs;
	int kvm, vm, vcpu;

	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		return fail("open /dev/kvm");
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0)
		return fail("KVM_CREATE_VM");
	/* The in-kernel local APIC, which is what the keys are about. */
	if (ioctl(vm, KVM_CREATE_IRQCHIP, 0) < 0)
		return fail("KVM_CREATE_IRQCHIP");
	/* A new vCPU's APIC is software-disabled: apic_sw_disabled + 1. */
	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0)
		return fail("KVM_CREATE_VCPU");
	/* Clearing the enable bit of its APIC base: apic_hw_disabled + 1. */
	memset(&msrs, 0, sizeof(msrs));
	msrs.hdr.nmsrs = 1;
	msrs.entry.index = MSR_IA32_APICBASE;
	msrs.entry.data = APICBASE_DISABLED;
	if (ioctl(vcpu, KVM_SET_MSRS, &msrs) != 1) {
		if (errno == 0)
			errno = EINVAL;
		return fail("KVM_SET_MSRS (APIC base, disabled)");
	}
	printf("pinned\n");
	fflush(stdout);
	for (;;)
		pause();
}
