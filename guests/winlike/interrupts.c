/*
 * interrupts.c - the IDT (gates to boot.S's stubs), the 8259 PICs, and
 * exception_handler(), which reports a CPU exception and powers off.
 */
#include <stdint.h>

#include "winlike.h"

/* boot.S */
extern void *exc_table[32];
extern void irq0_stub(void), irq_master_stub(void), irq_slave_stub(void),
	ignore_stub(void), lapic_timer_stub(void);

struct idt_entry {
	uint16_t off_lo, sel;
	uint8_t zero, attr;
	uint16_t off_hi;
} __attribute__((packed));

static struct idt_entry idt[256];

static void idt_set(unsigned v, void *handler)
{
	uint32_t a = (uint32_t)(uintptr_t)handler;
	idt[v].off_lo = (uint16_t)a;
	idt[v].sel = 0x08;
	idt[v].zero = 0;
	idt[v].attr = 0x8e; /* present, ring 0, 32-bit interrupt gate */
	idt[v].off_hi = (uint16_t)(a >> 16);
}

void idt_init(void)
{
	struct {
		uint16_t limit;
		uint32_t base;
	} __attribute__((packed)) d;
	unsigned v;

	for (v = 0; v < 256; v++)
		idt_set(v, (void *)ignore_stub);
	for (v = 0; v < 32; v++)
		idt_set(v, exc_table[v]);
	idt_set(32, (void *)irq0_stub);
	for (v = 33; v < 40; v++)
		idt_set(v, (void *)irq_master_stub);
	for (v = 40; v < 48; v++)
		idt_set(v, (void *)irq_slave_stub);
	idt_set(39, (void *)ignore_stub); /* spurious IRQ7: no EOI */
	idt_set(LAPIC_TIMER_VEC, (void *)lapic_timer_stub);
	d.limit = sizeof(idt) - 1;
	d.base = (uint32_t)(uintptr_t)idt;
	__asm__ volatile("lidt %0" : : "m"(d));
}

void pic_init(void)
{
	outb(0x20, 0x11);
	outb(0xa0, 0x11);
	outb(0x21, 0x20); /* master vectors 0x20.. */
	outb(0xa1, 0x28); /* slave vectors 0x28.. */
	outb(0x21, 0x04);
	outb(0xa1, 0x02);
	outb(0x21, 0x01);
	outb(0xa1, 0x01);
	outb(0x21, 0xfe); /* only IRQ0 (PIT) */
	outb(0xa1, 0xff);
}

void exception_handler(uint32_t vec, uint32_t err, uint32_t eip)
{
	out("HOG error exception vector=%u error_code=0x%x eip=0x%x", vec, err,
	    eip);
	out("HOG done class=winlike passes=0 missed=0 verify_errors=0 result=FAIL reason=exception");
	power_off();
}
