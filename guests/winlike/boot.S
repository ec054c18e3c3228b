/*
 * boot.S - multiboot (v1) entry, GDT, IDT stubs for hog-winlike.
 * Loaded by QEMU -kernel (or GRUB) as an ELF32 multiboot kernel at 1 MiB,
 * entered in 32-bit protected mode with EAX = 0x2BADB002, EBX = &mbi.
 */
	.set MB_MAGIC, 0x1BADB002
	.set MB_FLAGS, 0x00000003	/* page-align modules, want mem info */

	.section .multiboot, "a"
	.align 4
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

	.section .text
	.globl _start
	.type _start, @function
_start:
	cli
	cld
	movl $stack_top, %esp
	pushl %ebx		/* mbi */
	pushl %eax		/* magic */
	lgdt gdt_desc
	ljmp $0x08, $1f
1:	movw $0x10, %cx
	movw %cx, %ds
	movw %cx, %es
	movw %cx, %fs
	movw %cx, %gs
	movw %cx, %ss
	call kmain
2:	cli
	hlt
	jmp 2b

/* ---- interrupt stubs ---- */

	.macro EXC_NOERR n
	.globl exc\n
exc\n:	pushl $0
	pushl $\n
	jmp exc_common
	.endm

	.macro EXC_ERR n
	.globl exc\n
exc\n:	pushl $\n
	jmp exc_common
	.endm

	EXC_NOERR 0
	EXC_NOERR 1
	EXC_NOERR 2
	EXC_NOERR 3
	EXC_NOERR 4
	EXC_NOERR 5
	EXC_NOERR 6
	EXC_NOERR 7
	EXC_ERR 8
	EXC_NOERR 9
	EXC_ERR 10
	EXC_ERR 11
	EXC_ERR 12
	EXC_ERR 13
	EXC_ERR 14
	EXC_NOERR 15
	EXC_NOERR 16
	EXC_ERR 17
	EXC_NOERR 18
	EXC_NOERR 19
	EXC_NOERR 20
	EXC_ERR 21
	EXC_NOERR 22
	EXC_NOERR 23
	EXC_NOERR 24
	EXC_NOERR 25
	EXC_NOERR 26
	EXC_NOERR 27
	EXC_NOERR 28
	EXC_ERR 29
	EXC_ERR 30
	EXC_NOERR 31

exc_common:
	/* stack: vector, error code, eip, cs, eflags */
	pushl 8(%esp)		/* eip */
	pushl 8(%esp)		/* error code */
	pushl 8(%esp)		/* vector */
	call exception_handler	/* does not return */
3:	cli
	hlt
	jmp 3b

	.globl irq0_stub
irq0_stub:
	pushl %eax
	incl timer_ticks
	movb $0x20, %al
	outb %al, $0x20
	popl %eax
	iret

	/* local APIC timer (one-shot idle wake-up): EOI to the local APIC */
	.globl lapic_timer_stub
lapic_timer_stub:
	pushl %eax
	movl lapic_eoi, %eax
	movl $0, (%eax)
	popl %eax
	iret

	.globl irq_master_stub
irq_master_stub:
	pushl %eax
	movb $0x20, %al
	outb %al, $0x20
	popl %eax
	iret

	.globl irq_slave_stub
irq_slave_stub:
	pushl %eax
	movb $0x20, %al
	outb %al, $0xa0
	outb %al, $0x20
	popl %eax
	iret

	.globl ignore_stub
ignore_stub:
	iret

	.globl exc_table
	.section .rodata
	.align 4
exc_table:
	.long exc0, exc1, exc2, exc3, exc4, exc5, exc6, exc7
	.long exc8, exc9, exc10, exc11, exc12, exc13, exc14, exc15
	.long exc16, exc17, exc18, exc19, exc20, exc21, exc22, exc23
	.long exc24, exc25, exc26, exc27, exc28, exc29, exc30, exc31

	.align 8
gdt:
	.quad 0
	.quad 0x00cf9a000000ffff	/* 0x08: code, flat 4 GiB */
	.quad 0x00cf92000000ffff	/* 0x10: data, flat 4 GiB */
gdt_end:
gdt_desc:
	.word gdt_end - gdt - 1
	.long gdt

	.section .bss
	.align 16
	.globl stack_bottom
stack_bottom:
	.skip 32768
stack_top:

	.section .note.GNU-stack, "", @progbits
