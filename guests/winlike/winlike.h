/*
 * winlike.h - what the files of hog-winlike share: CPU and port I/O
 * instruction wrappers, constants, and the functions and globals one file
 * defines for another (each group says which file defines it).
 */
#ifndef HOG_WINLIKE_H
#define HOG_WINLIKE_H

#include <stddef.h>
#include <stdint.h>

#define TICK_HZ 100u		/* PIT tick when there is no local APIC timer */
#define LAPIC_TIMER_VEC 0x30u	/* IDT vector of the local APIC timer */

/* ------------------------------------------------ port I/O and CPU insns */

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outw(uint16_t port, uint16_t v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint16_t inw(uint16_t port)
{
	uint16_t v;
	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline void cpuid(uint32_t leaf, uint32_t r[4])
{
	__asm__ volatile("cpuid"
			 : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(0));
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

/* ---------------------------------------------------- called from boot.S */

/*
 * kmain: kernel.c; exception_handler: interrupts.c.  boot.S also uses
 * timer_ticks and lapic_eoi, which timer.c defines.
 */
void kmain(uint32_t magic, uint32_t mbi_addr);
void exception_handler(uint32_t vec, uint32_t err, uint32_t eip);

/* ---------------------------------------------------------------- libc.c */

void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t kstrlen(const char *s);
int kstreq(const char *a, const char *b);

/* ------------------------------------------------------------- console.c */

void serial_init(void);
void serial_drain(void);
/* printf-like (formats: see console.c); writes one line to COM1 */
void out(const char *fmt, ...);

/* ---------------------------------------------------------- interrupts.c */

void idt_init(void);
void pic_init(void);

/* --------------------------------------------------------------- timer.c */

extern uint64_t tsc_hz;		/* TSC ticks per second */
extern uint64_t tsc_boot;	/* TSC at boot: now_us() counts from it */
extern uint32_t idle_wakeups;	/* hlt returns in idle_until() */
void pit_periodic(unsigned hz);
void pit_stop(void);
uint64_t calibrate_tsc(void);
uint64_t now_us(void);
unsigned lapic_timer_init(void);
void idle_until(uint64_t t_us);

/* ---------------------------------------------------------------- acpi.c */

struct acpi_s5 {
	int ok;
	uint16_t pm1a_cnt, pm1b_cnt, smi_cmd;
	uint8_t acpi_enable;
	uint16_t slp_typa, slp_typb;
	const char *why;
};

extern struct acpi_s5 s5;
void acpi_init(void);
void power_off(void) __attribute__((noreturn));

/* -------------------------------------------------------------- params.c */

enum { PROF_MIXED, PROF_ZERO, PROF_CODE, PROF_DATA };
extern const char *const profile_names[];

struct params {
	uint64_t mem;      /* bytes; 0 = all RAM */
	uint32_t mem_pct;  /* mem=N%: percent of the RAM region (0 = unset) */
	int profile;
	uint32_t ws_milli; /* working-set fraction * 1000 */
	int pattern_random;
	uint32_t drift_milli; /* ws window moves drift*ws_pages pages per pass */
	uint32_t period_ms;
	uint32_t periods;
	int periods_set;
	uint32_t duration_ms;
	uint32_t seed;
	int write;
	uint32_t corrupt;
	int triple_fault; /* selftest_triple_fault: shut down after the fill */
};

extern struct params P;
int parse_cmdline(char *s);

/* ----------------------------------------------------------- multiboot.c */

struct mb_info;

struct region {
	uint32_t base, end; /* [base, end), page aligned */
};

extern char cmdline[1024];	/* the multiboot command line, NUL-terminated */
extern struct region regions[];	/* usable RAM above the kernel */
extern unsigned nregions;
int read_multiboot(uint32_t magic, const struct mb_info *mbi);

#endif
