/*
 * hog-winlike: a freestanding 32-bit multiboot kernel that treats its RAM the
 * way a Windows guest does, as seen from the host:
 *
 *   - at boot it zero-fills all of its RAM (Windows' zero-page thread), so
 *     every guest page gets touched and is all zero;
 *   - then, once per period, it touches a working set whose pages mix zero
 *     pages, code-like pages and data-like pages (self-verifying, see
 *     ../common/pagegen.h), and idles (hlt) until the next period;
 *   - it never gives memory back (no balloon, no free page reporting);
 *   - finally it verifies every page, prints "HOG done ... result=" on COM1
 *     and powers off through ACPI S5 (RSDP -> RSDT -> FADT -> DSDT \_S5).
 *
 * Flat 32-bit protected mode, no paging, memory below 4 GiB only.
 * Parameters come from the multiboot command line (see guests/README.md).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/pagegen.h"

#define HOG_VERSION 1
#define MAX_ERROR_LINES 16
#define PIT_HZ 1193182u
#define TICK_HZ 100u
#define LAPIC_TIMER_VEC 0x30u

extern char _kernel_start[], _kernel_end[];
extern void *exc_table[32];
extern void irq0_stub(void), irq_master_stub(void), irq_slave_stub(void),
	ignore_stub(void), lapic_timer_stub(void);
volatile uint32_t timer_ticks;
/* the local APIC's EOI register, written by lapic_timer_stub (boot.S) */
volatile uint32_t *lapic_eoi;

void kmain(uint32_t magic, uint32_t mbi_addr);
void exception_handler(uint32_t vec, uint32_t err, uint32_t eip);

/* ------------------------------------------------------------------ libc */

void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);

void *memset(void *d, int c, size_t n)
{
	uint8_t *p = d;
	while (n--)
		*p++ = (uint8_t)c;
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	uint8_t *p = d;
	const uint8_t *q = s;
	while (n--)
		*p++ = *q++;
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	uint8_t *p = d;
	const uint8_t *q = s;
	if (p < q)
		while (n--)
			*p++ = *q++;
	else
		while (n--)
			p[n] = q[n];
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *p = a, *q = b;
	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

static uint64_t udivmod64(uint64_t n, uint64_t d, uint64_t *rem)
{
	uint64_t q = 0, r = 0;
	int i;

	if (d == 0) {
		*rem = 0;
		return ~0ull;
	}
	if ((n >> 32) == 0 && (d >> 32) == 0) {
		*rem = (uint32_t)n % (uint32_t)d;
		return (uint32_t)n / (uint32_t)d;
	}
	for (i = 63; i >= 0; i--) {
		r = (r << 1) | ((n >> i) & 1u);
		if (r >= d) {
			r -= d;
			q |= 1ull << i;
		}
	}
	*rem = r;
	return q;
}

uint64_t __udivdi3(uint64_t n, uint64_t d)
{
	uint64_t r;
	return udivmod64(n, d, &r);
}

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem)
{
	uint64_t r, q = udivmod64(n, d, &r);
	if (rem)
		*rem = r;
	return q;
}

uint64_t __umoddi3(uint64_t n, uint64_t d)
{
	uint64_t r;
	udivmod64(n, d, &r);
	return r;
}

static size_t kstrlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

static int kstreq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* ------------------------------------------------------------- port I/O */

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

/* --------------------------------------------------------------- serial */

#define COM1 0x3f8

static void serial_init(void)
{
	outb(COM1 + 1, 0x00); /* no interrupts */
	outb(COM1 + 3, 0x80); /* DLAB */
	outb(COM1 + 0, 0x01); /* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03); /* 8N1 */
	outb(COM1 + 2, 0xc7); /* FIFO on, cleared */
	outb(COM1 + 4, 0x03); /* DTR, RTS */
}

static void serial_putc(char c)
{
	unsigned spin = 0;
	while (!(inb(COM1 + 5) & 0x20) && ++spin < 1000000u)
		;
	outb(COM1, (uint8_t)c);
}

static void serial_drain(void)
{
	unsigned spin = 0;
	while (!(inb(COM1 + 5) & 0x40) && ++spin < 1000000u)
		;
}

/* minimal printf: %s %c %d %u %x %lu %llu %llx %zu %% ; width/0 for numbers */
struct obuf {
	char b[256];
	size_t n;
};

static void ob_putc(struct obuf *o, char c)
{
	if (o->n < sizeof(o->b) - 2)
		o->b[o->n++] = c;
}

static void ob_num(struct obuf *o, uint64_t v, unsigned base, unsigned width,
		   char padc)
{
	char tmp[24];
	unsigned n = 0;

	do {
		unsigned dgt = (unsigned)(v % base);
		tmp[n++] = (char)(dgt < 10 ? '0' + dgt : 'a' + dgt - 10);
		v /= base;
	} while (v && n < sizeof(tmp));
	while (n < width && n < sizeof(tmp))
		tmp[n++] = padc;
	while (n)
		ob_putc(o, tmp[--n]);
}

static void kvprintf(const char *fmt, va_list ap)
{
	struct obuf o;
	size_t i;

	o.n = 0;
	for (; *fmt; fmt++) {
		unsigned width = 0, lng = 0;
		char padc = ' ';
		uint64_t v;
		const char *s;

		if (*fmt != '%') {
			ob_putc(&o, *fmt);
			continue;
		}
		fmt++;
		if (*fmt == '0')
			padc = '0';
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (unsigned)(*fmt++ - '0');
		while (*fmt == 'l' || *fmt == 'z')
			lng += (*fmt++ == 'l') ? 1 : 0;
		switch (*fmt) {
		case 's':
			for (s = va_arg(ap, const char *); *s; s++)
				ob_putc(&o, *s);
			break;
		case 'c':
			ob_putc(&o, (char)va_arg(ap, int));
			break;
		case 'd': {
			int x = va_arg(ap, int);
			if (x < 0) {
				ob_putc(&o, '-');
				x = -x;
			}
			ob_num(&o, (uint32_t)x, 10, width, padc);
			break;
		}
		case 'u':
		case 'x':
			v = lng >= 2 ? va_arg(ap, unsigned long long)
			    : lng == 1 ? va_arg(ap, unsigned long)
				       : va_arg(ap, unsigned);
			ob_num(&o, v, *fmt == 'x' ? 16 : 10, width, padc);
			break;
		case '%':
			ob_putc(&o, '%');
			break;
		default:
			ob_putc(&o, '?');
			break;
		}
	}
	ob_putc(&o, '\n');
	for (i = 0; i < o.n; i++) {
		if (o.b[i] == '\n')
			serial_putc('\r');
		serial_putc(o.b[i]);
	}
}

static void out(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
}

/* --------------------------------------------------- interrupts and time */

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

static void idt_init(void)
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

static void pic_init(void)
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

static void pit_periodic(unsigned hz)
{
	unsigned div = PIT_HZ / hz;
	outb(0x43, 0x34); /* ch0, lo/hi, mode 2 */
	outb(0x40, (uint8_t)div);
	outb(0x40, (uint8_t)(div >> 8));
}

/* no PIT tick: mask IRQ0, and leave channel 0 one-shot so it stops */
static void pit_stop(void)
{
	outb(0x21, 0xff);
	outb(0x43, 0x30); /* ch0, lo/hi, mode 0 */
	outb(0x40, 1);
	outb(0x40, 0);
}

static uint64_t tsc_hz;
static uint64_t tsc_boot;

/* TSC frequency from PIT channel 2 one-shots (gate via port 0x61) */
static uint64_t calibrate_tsc(void)
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
static uint64_t now_us(void)
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
static uint32_t idle_wakeups;	 /* hlt returns in idle_until() */
static uint64_t lapic_hz;	 /* timer counts per second (divide by 16) */

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

static inline uint32_t lapic_rd(uint32_t reg)
{
	return lapic[reg / 4];
}

static inline void lapic_wr(uint32_t reg, uint32_t v)
{
	lapic[reg / 4] = v;
}

/* use the local APIC timer when there is one; returns its MHz, 0 if not */
static unsigned lapic_timer_init(void)
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
static void idle_until(uint64_t t_us)
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

/* -------------------------------------------------------------- ACPI S5 */

struct acpi_s5 {
	int ok;
	uint16_t pm1a_cnt, pm1b_cnt, smi_cmd;
	uint8_t acpi_enable;
	uint16_t slp_typa, slp_typb;
	const char *why;
};

static struct acpi_s5 s5;

/* physical address -> pointer, hidden from GCC's null-page array checks */
static inline const uint8_t *phys(uint32_t a)
{
	__asm__("" : "+r"(a));
	return (const uint8_t *)(uintptr_t)a;
}

static int acpi_sum_ok(const uint8_t *p, uint32_t len)
{
	uint8_t s = 0;
	while (len--)
		s = (uint8_t)(s + *p++);
	return s == 0;
}

static const uint8_t *find_rsdp_in(uint32_t start, uint32_t len)
{
	uint32_t a;
	for (a = start; a + 20 <= start + len; a += 16) {
		const uint8_t *p = phys(a);
		if (memcmp(p, "RSD PTR ", 8) == 0 && acpi_sum_ok(p, 20))
			return p;
	}
	return NULL;
}

static void acpi_init(void)
{
	const uint8_t *rsdp, *rsdt, *fadt = NULL, *dsdt, *s;
	uint32_t ebda, len, i, n;

	s5.why = "no_rsdp";
	ebda = (uint32_t)pg_rd32(phys(0x40c)) >> 16 << 4; /* u16 at 0x40e */
	rsdp = ebda >= 0x80000 && ebda < 0xa0000 ? find_rsdp_in(ebda, 1024) : NULL;
	if (!rsdp)
		rsdp = find_rsdp_in(0xe0000, 0x20000);
	if (!rsdp)
		return;
	rsdt = phys(pg_rd32(rsdp + 16));
	s5.why = "bad_rsdt";
	if (!rsdt || memcmp(rsdt, "RSDT", 4) != 0)
		return;
	len = pg_rd32(rsdt + 4);
	if (len < 36 || len > 65536 || !acpi_sum_ok(rsdt, len))
		return;
	n = (len - 36) / 4;
	for (i = 0; i < n; i++) {
		const uint8_t *t = phys(pg_rd32(rsdt + 36 + 4 * i));
		if (t && memcmp(t, "FACP", 4) == 0) {
			fadt = t;
			break;
		}
	}
	s5.why = "no_fadt";
	if (!fadt || pg_rd32(fadt + 4) < 76)
		return;
	dsdt = phys(pg_rd32(fadt + 40));
	s5.smi_cmd = (uint16_t)pg_rd32(fadt + 48);
	s5.acpi_enable = fadt[52];
	s5.pm1a_cnt = (uint16_t)pg_rd32(fadt + 64);
	s5.pm1b_cnt = (uint16_t)pg_rd32(fadt + 68);
	s5.why = "no_dsdt";
	if (!dsdt || memcmp(dsdt, "DSDT", 4) != 0 || !s5.pm1a_cnt)
		return;
	len = pg_rd32(dsdt + 4);
	s5.why = "no_s5";
	for (s = dsdt + 36; s + 12 < dsdt + len; s++) {
		const uint8_t *q;

		if (memcmp(s, "_S5_", 4) != 0)
			continue;
		/* NameOp "_S5_" or NameOp "\_S5_", then PackageOp */
		if (!(s[-1] == 0x08 || (s[-2] == 0x08 && s[-1] == '\\')) ||
		    s[4] != 0x12)
			continue;
		q = s + 5;
		q += ((*q & 0xc0) >> 6) + 1; /* PkgLength */
		q++;                         /* NumElements */
		if (*q == 0x0a)              /* BytePrefix */
			q++;
		s5.slp_typa = (uint16_t)((*q == 0xff ? 0 : *q) & 7u);
		q++;
		if (*q == 0x0a)
			q++;
		s5.slp_typb = (uint16_t)((*q == 0xff ? 0 : *q) & 7u);
		s5.ok = 1;
		s5.why = "ok";
		return;
	}
}

static void power_off(void) __attribute__((noreturn));
static void power_off(void)
{
	serial_drain();
	if (s5.ok) {
		unsigned spin;

		if (!(inw(s5.pm1a_cnt) & 1u) && s5.smi_cmd && s5.acpi_enable) {
			outb(s5.smi_cmd, s5.acpi_enable);
			for (spin = 0; spin < 300 && !(inw(s5.pm1a_cnt) & 1u); spin++)
				idle_until(now_us() + 10000u);
		}
		outw(s5.pm1a_cnt, (uint16_t)(s5.slp_typa << 10 | 1u << 13));
		if (s5.pm1b_cnt)
			outw(s5.pm1b_cnt, (uint16_t)(s5.slp_typb << 10 | 1u << 13));
		idle_until(now_us() + 500000u);
	}
	out("HOG poweroff_failed acpi=%s halting=1", s5.why);
	serial_drain();
	for (;;)
		__asm__ volatile("cli; hlt");
}

void exception_handler(uint32_t vec, uint32_t err, uint32_t eip)
{
	out("HOG error exception vector=%u error_code=0x%x eip=0x%x", vec, err,
	    eip);
	out("HOG done class=winlike passes=0 missed=0 verify_errors=0 result=FAIL reason=exception");
	power_off();
}

/* ------------------------------------------------------------ parameters */

enum { PROF_MIXED, PROF_ZERO, PROF_CODE, PROF_DATA };
static const char *const profile_names[] = {"mixed", "zero", "code", "data"};

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

static struct params P;
static char cmdline[1024];

static int parse_u64(const char *s, uint64_t *v)
{
	uint64_t n = 0;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		if (n > 100000000000000ull)
			return -1;
		n = n * 10 + (uint64_t)(*s++ - '0');
	}
	*v = n;
	return *s ? -1 : 0;
}

static int parse_size(const char *s, uint64_t *v)
{
	char num[24];
	size_t i = 0;
	uint64_t mul = 1;

	while (s[i] >= '0' && s[i] <= '9' && i < sizeof(num) - 1) {
		num[i] = s[i];
		i++;
	}
	num[i] = 0;
	s += i;
	switch (*s) {
	case 'k': case 'K': mul = 1ull << 10; s++; break;
	case 'm': case 'M': mul = 1ull << 20; s++; break;
	case 'g': case 'G': mul = 1ull << 30; s++; break;
	default: break;
	}
	if (*s == 'i')
		s++;
	if (*s == 'B' || *s == 'b')
		s++;
	if (*s || parse_u64(num, v) || *v > (16ull << 30) / mul)
		return -1;
	*v *= mul;
	return 0;
}

/* decimal "12.345" -> 12345 (milli units) */
static int parse_milli(const char *s, uint32_t *v)
{
	uint64_t ip = 0, frac = 0;
	unsigned fd = 0;

	if (!((*s >= '0' && *s <= '9') || *s == '.'))
		return -1;
	while (*s >= '0' && *s <= '9') {
		ip = ip * 10 + (uint64_t)(*s++ - '0');
		if (ip > 4000000u)
			return -1;
	}
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			if (fd < 3) {
				frac = frac * 10 + (uint64_t)(*s - '0');
				fd++;
			}
			s++;
		}
	}
	if (*s)
		return -1;
	while (fd < 3) {
		frac *= 10;
		fd++;
	}
	*v = (uint32_t)(ip * 1000u + frac);
	return 0;
}

static int bad_param(const char *key, const char *val, const char *why)
{
	out("HOG error param=%s value=%s reason=%s", key, val, why);
	return -1;
}

static int set_param(const char *key, const char *val)
{
	uint64_t u;
	unsigned i;

	if (kstreq(key, "mem")) {
		size_t l = kstrlen(val);
		P.mem = 0;
		P.mem_pct = 0;
		if (l > 1 && l < 8 && val[l - 1] == '%') {
			char num[8];
			memcpy(num, val, l - 1);
			num[l - 1] = 0;
			if (parse_u64(num, &u) || u < 1 || u > 100)
				return bad_param(key, val, "expected_size_like_200M_or_80%");
			P.mem_pct = (uint32_t)u;
		} else if (parse_size(val, &P.mem) || P.mem < PG_SIZE) {
			return bad_param(key, val, "expected_size_like_200M_or_80%");
		}
	} else if (kstreq(key, "profile")) {
		for (i = 0; i < 4; i++)
			if (kstreq(val, profile_names[i]))
				break;
		if (i == 4)
			return bad_param(key, val, "unknown_profile(mixed|zero|code|data)");
		P.profile = (int)i;
	} else if (kstreq(key, "ws")) {
		if (parse_milli(val, &P.ws_milli) || P.ws_milli > 1000)
			return bad_param(key, val, "expected_fraction_0..1");
	} else if (kstreq(key, "drift")) {
		if (parse_milli(val, &P.drift_milli) || P.drift_milli > 1000)
			return bad_param(key, val, "expected_fraction_0..1");
	} else if (kstreq(key, "pattern")) {
		if (kstreq(val, "seq"))
			P.pattern_random = 0;
		else if (kstreq(val, "random"))
			P.pattern_random = 1;
		else
			return bad_param(key, val, "unknown_pattern(seq|random)");
	} else if (kstreq(key, "period")) {
		if (parse_milli(val, &P.period_ms))
			return bad_param(key, val, "expected_seconds");
	} else if (kstreq(key, "periods")) {
		if (parse_u64(val, &u) || u > 0xffffffffu)
			return bad_param(key, val, "expected_count");
		P.periods = (uint32_t)u;
		P.periods_set = 1;
	} else if (kstreq(key, "duration")) {
		if (parse_milli(val, &P.duration_ms))
			return bad_param(key, val, "expected_seconds");
	} else if (kstreq(key, "seed")) {
		if (parse_u64(val, &u) || u > 0xffffffffu)
			return bad_param(key, val, "expected_uint");
		P.seed = (uint32_t)u;
	} else if (kstreq(key, "write")) {
		if (parse_u64(val, &u) || u > 1)
			return bad_param(key, val, "expected_0_or_1");
		P.write = (int)u;
	} else if (kstreq(key, "selftest_triple_fault")) {
		if (parse_u64(val, &u) || u > 1)
			return bad_param(key, val, "expected_0_or_1");
		P.triple_fault = (int)u;
	} else if (kstreq(key, "selftest_corrupt")) {
		if (parse_u64(val, &u) || u > 1000000u)
			return bad_param(key, val, "expected_count");
		P.corrupt = (uint32_t)u;
	} else {
		return bad_param(key, val, "unknown_parameter");
	}
	return 0;
}

/*
 * "IMAGE key=val,key=val key=val": the first word is the image name (QEMU
 * and GRUB put it there) and is skipped unless it contains '='; tokens are
 * separated by spaces or commas; an optional "hog." prefix is accepted.
 */
static int parse_token(char *tok)
{
	char *eq;

	for (eq = tok; *eq && *eq != '='; eq++)
		;
	if (!*eq)
		return bad_param(tok, "", "missing_value");
	*eq = 0;
	if (tok[0] == 'h' && tok[1] == 'o' && tok[2] == 'g' && tok[3] == '.')
		tok += 4;
	return set_param(tok, eq + 1);
}

static int parse_cmdline(char *s)
{
	int errors = 0, word = 0;

	for (;;) {
		char *w, *t, *eq;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		w = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = 0;
		for (eq = w; *eq && *eq != '='; eq++)
			;
		if (word++ == 0 && !*eq)
			continue; /* image name */
		for (t = w;;) {
			char *c = t;
			int last;

			while (*c && *c != ',')
				c++;
			last = !*c;
			*c = 0;
			if (*t && parse_token(t))
				errors++;
			if (last)
				break;
			t = c + 1;
		}
	}
	return errors;
}

/* ------------------------------------------------------------- multiboot */

struct mb_info {
	uint32_t flags, mem_lower, mem_upper, boot_device, cmdline;
	uint32_t mods_count, mods_addr, syms[4], mmap_length, mmap_addr;
};

struct region {
	uint32_t base, end; /* [base, end), page aligned */
};

#define MAX_REGIONS 16
static struct region regions[MAX_REGIONS];
static unsigned nregions;

static void add_region(uint64_t base, uint64_t len)
{
	uint64_t end = base + len;
	uint32_t kend = (uint32_t)(uintptr_t)_kernel_end;

	if (end > 0xfffff000ull)
		end = 0xfffff000ull;
	if (base < kend)
		base = kend;
	base = (base + PG_SIZE - 1) & ~(uint64_t)(PG_SIZE - 1);
	end &= ~(uint64_t)(PG_SIZE - 1);
	if (end <= base + PG_SIZE || nregions == MAX_REGIONS)
		return;
	regions[nregions].base = (uint32_t)base;
	regions[nregions].end = (uint32_t)end;
	nregions++;
}

static int read_multiboot(uint32_t magic, const struct mb_info *mbi)
{
	if (magic != 0x2badb002u) {
		out("HOG error setup reason=not_multiboot magic=0x%x", magic);
		return -1;
	}
	if (mbi->flags & (1u << 2)) {
		const char *c = (const char *)(uintptr_t)mbi->cmdline;
		size_t n = kstrlen(c);
		if (n >= sizeof(cmdline))
			n = sizeof(cmdline) - 1;
		memcpy(cmdline, c, n);
		cmdline[n] = 0;
	}
	if (mbi->flags & (1u << 6)) {
		uint32_t p = mbi->mmap_addr, end = mbi->mmap_addr + mbi->mmap_length;
		while (p + 24 <= end) {
			uint32_t size = *(const uint32_t *)(uintptr_t)p;
			uint64_t base = *(const uint64_t *)(uintptr_t)(p + 4);
			uint64_t len = *(const uint64_t *)(uintptr_t)(p + 12);
			uint32_t type = *(const uint32_t *)(uintptr_t)(p + 20);
			if (type == 1 && base >= 0x100000u && base < 0x100000000ull)
				add_region(base, len);
			p += size + 4;
		}
	} else if (mbi->flags & 1u) {
		add_region(0x100000u, (uint64_t)mbi->mem_upper * 1024u);
	}
	if (!nregions) {
		out("HOG error setup reason=no_memory_map");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ hog */

static uint8_t *hog_base;
static uint32_t *gens;
static uint32_t npages, ws_pages;
static uint64_t errors;
static unsigned error_lines;

static unsigned page_kind(uint32_t i)
{
	switch (P.profile) {
	case PROF_ZERO: return PG_KIND_ZERO;
	case PROF_CODE: return PG_KIND_CODE;
	case PROF_DATA: return PG_KIND_DATA;
	default: return pg_kind_winlike_mixed(i, P.seed);
	}
}

static void touch(uint32_t i, int do_write, const char *phase)
{
	uint8_t *pg = hog_base + (size_t)i * PG_SIZE;
	unsigned kind = page_kind(i);
	int r = pg_verify(pg, kind, i, gens[i], P.seed);

	if (r != PG_OK) {
		errors++;
		if (error_lines < MAX_ERROR_LINES) {
			error_lines++;
			out("HOG verify_error phase=%s page=%u kind=%s gen=%u reason=%s",
			    phase, i, pg_kind_name(kind), gens[i], pg_result_name(r));
		} else if (error_lines == MAX_ERROR_LINES) {
			error_lines++;
			out("HOG verify_error more_errors_not_shown=1");
		}
	}
	if (do_write) {
		if (++gens[i] == 0)
			gens[i] = 1;
		pg_fill(pg, kind, i, gens[i], P.seed);
	}
}

static void zero_fill(uint32_t base, uint32_t end)
{
	uint32_t n = (end - base) / 4;
	void *d = (void *)(uintptr_t)base;
	__asm__ volatile("rep stosl" : "+D"(d), "+c"(n) : "a"(0) : "memory");
}

/* milli units -> "0.5", "10", "1.25" (like printf %g) into buf */
static const char *milli_str(uint32_t v, char *buf)
{
	char *p = buf, tmp[12];
	uint32_t ip = v / 1000u, fr = v % 1000u;
	unsigned n = 0;

	do {
		tmp[n++] = (char)('0' + ip % 10u);
		ip /= 10u;
	} while (ip);
	while (n)
		*p++ = tmp[--n];
	if (fr) {
		*p++ = '.';
		*p++ = (char)('0' + fr / 100u);
		fr %= 100u;
		if (fr) {
			*p++ = (char)('0' + fr / 10u);
			fr %= 10u;
			if (fr)
				*p++ = (char)('0' + fr);
		}
	}
	*p = 0;
	return buf;
}

/* "secs=1.23 mbps=45.6" pieces from bytes and microseconds */
static uint32_t secs_int(uint64_t us) { return (uint32_t)(us / 1000000u); }
static uint32_t secs_cent(uint64_t us) { return (uint32_t)(us % 1000000u / 10000u); }
static uint64_t mbps_x10(uint64_t bytes, uint64_t us)
{
	if (!us)
		us = 1;
	return bytes * 10000000u / 1048576u / us;
}

static uint32_t gcd32(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/*
 * selftest_corrupt=N: flip one byte in N working-set pages that hold
 * generated (non-zero) data, so the checksum path must catch it.  Called
 * after pass 1 (after the fill if no pass runs).
 */
static void selftest_corrupt(void)
{
	uint32_t span = ws_pages ? ws_pages : npages, i, k;

	for (i = 0; i < P.corrupt && span; i++) {
		uint32_t pg = (span / 2 + i * 7919u) % span;
		uint32_t off = PG_HDR + (i * 997u) % (PG_SIZE - PG_HDR);

		for (k = 0; k < span && P.profile != PROF_ZERO &&
			    (page_kind(pg) == PG_KIND_ZERO || gens[pg] == 0);
		     k++)
			pg = (pg + 1) % span;
		hog_base[(size_t)pg * PG_SIZE + off] ^= 0x5a;
		out("HOG selftest corrupted page=%u offset=%u kind=%s gen=%u", pg,
		    off, pg_kind_name(page_kind(pg)), gens[pg]);
	}
}

/*
 * selftest_triple_fault=1: after the fill, load an empty IDT and raise an
 * exception. With no gate for it the CPU takes #GP, then #DF, then shuts
 * down (a triple fault); under KVM that is an SVM/VMX shutdown exit of the
 * host, and with on_reboot=destroy the domain ends up shut off.
 */
static void selftest_triple_fault(void) __attribute__((noreturn));
static void selftest_triple_fault(void)
{
	static const struct {
		uint16_t limit;
		uint32_t base;
	} __attribute__((packed)) no_idt = { 0, 0 };

	out("HOG selftest triple_fault=1");
	__asm__ volatile("cli; lidt %0; int3" : : "m"(no_idt));
	for (;;)
		__asm__ volatile("hlt");
}

static void fail_early(const char *reason) __attribute__((noreturn));
static void fail_early(const char *reason)
{
	out("HOG done class=winlike passes=0 missed=0 verify_errors=0 result=FAIL reason=%s",
	    reason);
	power_off();
}

void kmain(uint32_t magic, uint32_t mbi_addr)
{
	uint64_t t_fill, t0, t_end, sched, fill_bytes = 0, ws_bytes, all_bytes;
	uint32_t pass, max_passes, missed = 0, passes_done = 0, i, start, drift_step;
	unsigned r, best = 0, lapic_mhz;

	serial_init();
	idt_init();
	pic_init();
	tsc_boot = rdtsc();
	tsc_hz = calibrate_tsc();
	lapic_mhz = lapic_timer_init();
	if (lapic_mhz)
		pit_stop();
	else
		pit_periodic(TICK_HZ);

	P.profile = PROF_MIXED;
	P.ws_milli = 500;
	P.seed = 1;
	P.write = 1;

	if (read_multiboot(magic, (const struct mb_info *)(uintptr_t)mbi_addr))
		fail_early("setup");
	acpi_init();
	if (parse_cmdline(cmdline))
		fail_early("bad_param");
	if (!P.periods_set && P.duration_ms == 0)
		P.periods = 3;

	/* the hog area: the largest RAM region; gens[] at its start */
	for (r = 1; r < nregions; r++)
		if (regions[r].end - regions[r].base >
		    regions[best].end - regions[best].base)
			best = r;
	{
		uint32_t bytes = regions[best].end - regions[best].base;
		uint32_t total = bytes / PG_SIZE;
		/* each hog page costs 4096 + 4 bytes (its gens[] slot) */
		npages = (uint32_t)((uint64_t)total * PG_SIZE / (PG_SIZE + 4));
		if (P.mem_pct)
			P.mem = (uint64_t)npages * P.mem_pct / 100u * PG_SIZE;
		if (P.mem && P.mem / PG_SIZE < npages)
			npages = (uint32_t)(P.mem / PG_SIZE);
		gens = (uint32_t *)(uintptr_t)regions[best].base;
		hog_base = (uint8_t *)(uintptr_t)(regions[best].base +
			   ((npages * 4u + PG_SIZE - 1) & ~(PG_SIZE - 1)));
		if (P.mem && P.mem / PG_SIZE > npages) {
			out("HOG error param=mem value=%llu reason=exceeds_guest_ram ram_mb=%u",
			    (unsigned long long)P.mem, bytes >> 20);
			fail_early("mem_too_large");
		}
	}
	ws_pages = (uint32_t)(((uint64_t)npages * P.ws_milli + 500u) / 1000u);
	if (!ws_pages && P.ws_milli)
		ws_pages = 1;
	all_bytes = (uint64_t)npages * PG_SIZE;
	ws_bytes = (uint64_t)ws_pages * PG_SIZE;

	{
		char b1[16], b2[16], b3[16], b4[16];
		out("HOG start class=winlike version=%d mem_mb=%u profile=%s ws=%s "
		    "pattern=%s period=%s periods=%u duration=%s pages=%u "
		    "ws_pages=%u write=%d seed=%u drift=%s",
		    HOG_VERSION, (uint32_t)(all_bytes >> 20),
		    profile_names[P.profile], milli_str(P.ws_milli, b1),
		    P.pattern_random ? "random" : "seq", milli_str(P.period_ms, b2),
		    P.periods, milli_str(P.duration_ms, b3), npages, ws_pages,
		    P.write, P.seed, milli_str(P.drift_milli, b4));
	}
	out("HOG info class=winlike tsc_mhz=%u regions=%u acpi_s5=%s pm1a_cnt=0x%x slp_typa=%u idle_timer=%s lapic_mhz=%u",
	    (uint32_t)(tsc_hz / 1000000u), nregions, s5.why, s5.pm1a_cnt,
	    s5.slp_typa, lapic_mhz ? "lapic_oneshot" : "pit_100hz", lapic_mhz);

	/* boot-time zeroing of all RAM above the kernel (zero-page thread) */
	t_fill = now_us();
	for (r = 0; r < nregions; r++) {
		zero_fill(regions[r].base, regions[r].end);
		fill_bytes += regions[r].end - regions[r].base;
	}
	t0 = now_us();
	out("HOG fill kind=zero mb=%u secs=%u.%02u mbps=%llu.%u verify_errors=0",
	    (uint32_t)(fill_bytes >> 20), secs_int(t0 - t_fill),
	    secs_cent(t0 - t_fill),
	    (unsigned long long)(mbps_x10(fill_bytes, t0 - t_fill) / 10u),
	    (unsigned)(mbps_x10(fill_bytes, t0 - t_fill) % 10u));

	if (P.triple_fault)
		selftest_triple_fault();
	drift_step = (uint32_t)(((uint64_t)ws_pages * P.drift_milli + 500u) / 1000u);
	max_passes = (P.periods_set || P.duration_ms == 0) ? P.periods : 0xffffffffu;
	t_end = P.duration_ms ? t0 + (uint64_t)P.duration_ms * 1000u : ~0ull;
	sched = t0;
	for (pass = 1; pass <= max_passes && pass != 0; pass++) {
		uint64_t before = errors, ts, te;
		uint32_t stride = 1, off = 0;
		int late;

		if (pass > 1 && sched >= t_end)
			break;
		idle_until(sched);
		ts = now_us();
		if (P.pattern_random && ws_pages > 1) {
			/* a fresh full-cycle permutation i -> (i*stride+off) % n */
			struct pg_rng rng;
			pg_rng_init(&rng, pass, 0x5eedu, P.seed, 0xabcdu);
			off = pg_rng_next(&rng) % ws_pages;
			do
				stride = (pg_rng_next(&rng) % ws_pages) | 1u;
			while (gcd32(stride, ws_pages) != 1);
		}
		/* drift: this pass's window starts (pass-1)*step pages on */
		start = (uint32_t)(((uint64_t)(pass - 1) * drift_step) % npages);
		for (i = 0; i < ws_pages; i++) {
			uint32_t idx = (uint32_t)(((uint64_t)i * stride + off) % ws_pages);
			touch((uint32_t)(((uint64_t)start + idx) % npages), P.write, "pass");
		}
		te = now_us();
		late = P.period_ms && te > sched + (uint64_t)P.period_ms * 1000u;
		missed += (uint32_t)late;
		passes_done++;
		out("HOG pass n=%u mb=%u secs=%u.%02u mbps=%llu.%u "
		    "deadline_missed=%d verify_errors=%llu t=%u.%02u start=%u",
		    pass, (uint32_t)(ws_bytes >> 20), secs_int(te - ts),
		    secs_cent(te - ts),
		    (unsigned long long)(mbps_x10(ws_bytes, te - ts) / 10u),
		    (unsigned)(mbps_x10(ws_bytes, te - ts) % 10u), late,
		    (unsigned long long)(errors - before), secs_int(te - t0),
		    secs_cent(te - t0), start);
		sched = P.period_ms ? sched + (uint64_t)P.period_ms * 1000u : te;
		if (sched < te)
			sched = te;
		if (pass == 1)
			selftest_corrupt();
		if (P.duration_ms && te >= t_end)
			break;
	}
	if (passes_done == 0)
		selftest_corrupt();

	{
		uint64_t before = errors, ts = now_us(), te;
		for (i = 0; i < npages; i++)
			touch(i, 0, "final");
		te = now_us();
		out("HOG verify mb=%u secs=%u.%02u mbps=%llu.%u verify_errors=%llu",
		    (uint32_t)(all_bytes >> 20), secs_int(te - ts), secs_cent(te - ts),
		    (unsigned long long)(mbps_x10(all_bytes, te - ts) / 10u),
		    (unsigned)(mbps_x10(all_bytes, te - ts) % 10u),
		    (unsigned long long)(errors - before));
	}
	out("HOG done class=winlike passes=%u missed=%u verify_errors=%llu result=%s idle_wakeups=%u",
	    passes_done, missed, (unsigned long long)errors,
	    errors ? "FAIL" : "PASS", idle_wakeups);
	power_off();
}
