/*
 * timer.c - time and idling: the PIT, the TSC (calibrated against PIT
 * channel 2) as the clock behind now_us(), and the one-shot local APIC
 * timer that idle_until() sleeps on (the 100 Hz PIT tick without one).
 */
#include <stdint.h>

#include "winlike.h"

#define PIT_HZ 1193182u

/* PIT ticks, counted by irq0_stub (boot.S) */
volatile uint32_t timer_ticks;
/* the local APIC's EOI register, written by lapic_timer_stub (boot.S) */
volatile uint32_t *lapic_eoi;

void pit_periodic(unsigned hz)
{
	unsigned div = PIT_HZ / hz;
	outb(0x43, 0x34); /* ch0, lo/hi, mode 2 */
	outb(0x40, (uint8_t)div);
	outb(0x40, (uint8_t)(div >> 8));
}

/* no PIT tick: mask IRQ0, and leave channel 0 one-shot so it stops */
void pit_stop(void)
{
	outb(0x21, 0xff);
	outb(0x43, 0x30); /* ch0, lo/hi, mode 0 */
	outb(0x40, 1);
	outb(0x40, 0);
}

uint64_t tsc_hz;
uint64_t tsc_boot;

/* TSC frequency from PIT channel 2 one-shots (gate via port 0x61) */
uint64_t calibrate_tsc(void)
{
	const unsigned count = PIT_HZ / 20; /* 50 ms */
	uint64_t best = 0;
	int i;

	for (i = 0; i < 3; i++) {
		uint64_t t0, t1, hz;
		unsigned spin = 0;

		outb(0x61, (uint8_t)((inb(0x61) & ~0x02u) | 0x01u));
		outb(0x43, 0xb0); /* ch2, lo/hi, mode 0 */
		outb(0x42, (uint8_t)count);
		outb(0x42, (uint8_t)(count >> 8));
		t0 = rdtsc();
		while (!(inb(0x61) & 0x20) && ++spin < 200000000u)
			;
		t1 = rdtsc();
		hz = (t1 - t0) * 20u;
		if (hz > best)
			best = hz;
	}
	return best ? best : 1000000000ull;
}

/* microseconds since boot */
uint64_t now_us(void)
{
	uint64_t t = rdtsc() - tsc_boot;
	return (t / tsc_hz) * 1000000u + ((t % tsc_hz) * 1000000u) / tsc_hz;
}

/*
 * Idle timer.  A periodic tick costs the host a nested exit and an
 * interrupt injection per tick even while the guest idles; under TCG
 * that was about 3% of the host VM's CPU per idle guest at 100 Hz.  So,
 * like a tickless kernel, the hog arms the local APIC timer in one-shot
 * mode for the time left and halts: one wake-up per idle stretch.
 * Without a usable local APIC it falls back to the 100 Hz PIT tick.
 */
#define LAPIC_SVR 0xf0u
#define LAPIC_EOI 0xb0u
#define LAPIC_LVT_TIMER 0x320u
#define LAPIC_INIT_COUNT 0x380u
#define LAPIC_CUR_COUNT 0x390u
#define LAPIC_DIVIDE 0x3e0u
#define LAPIC_MASKED (1u << 16)

static volatile uint32_t *lapic; /* MMIO base; NULL: use the PIT tick */
static uint64_t lapic_hz;	 /* timer counts per second (divide by 16) */
uint32_t idle_wakeups;		 /* hlt returns in idle_until() */

static inline uint32_t lapic_rd(uint32_t reg)
{
	return lapic[reg / 4];
}

static inline void lapic_wr(uint32_t reg, uint32_t v)
{
	lapic[reg / 4] = v;
}

/* use the local APIC timer when there is one; returns its MHz, 0 if not */
unsigned lapic_timer_init(void)
{
	uint32_t r[4], left;
	uint64_t base, t0, t1;

	cpuid(1, r);
	if (!(r[3] & (1u << 9)))
		return 0;
	base = rdmsr(0x1b); /* IA32_APIC_BASE */
	if (!(base & (1u << 11)) || (base >> 32))
		return 0;
	lapic = (volatile uint32_t *)(uintptr_t)(base & 0xfffff000u);
	lapic_eoi = lapic + LAPIC_EOI / 4;
	lapic_wr(LAPIC_SVR, 0x100u | 0xffu); /* enabled; spurious: 0xff */
	lapic_wr(LAPIC_DIVIDE, 0x3u);	     /* divide by 16 */
	lapic_wr(LAPIC_LVT_TIMER, LAPIC_MASKED | LAPIC_TIMER_VEC);
	/* count down for 10 ms of TSC time to learn the timer's rate */
	lapic_wr(LAPIC_INIT_COUNT, 0xffffffffu);
	t0 = rdtsc();
	do
		t1 = rdtsc();
	while (t1 - t0 < tsc_hz / 100u);
	left = lapic_rd(LAPIC_CUR_COUNT);
	lapic_wr(LAPIC_INIT_COUNT, 0);
	lapic_hz = (uint64_t)(0xffffffffu - left) * tsc_hz / (t1 - t0);
	if (lapic_hz < 1000u) {
		lapic = 0;
		lapic_eoi = 0;
		return 0;
	}
	return (unsigned)(lapic_hz / 1000000u);
}

/* idle until the deadline: one-shot local APIC timer, else the PIT tick */
void idle_until(uint64_t t_us)
{
	uint64_t now, count;

	while ((now = now_us()) < t_us) {
		if (lapic) {
			count = (t_us - now) * lapic_hz / 1000000u + 1u;
			if (count > 0xffffffffu)
				count = 0xffffffffu;
			lapic_wr(LAPIC_LVT_TIMER, LAPIC_TIMER_VEC); /* one-shot */
			lapic_wr(LAPIC_INIT_COUNT, (uint32_t)count);
		}
		__asm__ volatile("sti; hlt; cli");
		idle_wakeups++;
	}
}
