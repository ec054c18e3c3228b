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
 *
 * This file is the hog itself (zero fill, working-set passes, self tests,
 * kmain, entered from boot.S).  The rest, declared in winlike.h: libc.c,
 * console.c (COM1, out()), interrupts.c (IDT, PIC, exceptions), timer.c
 * (TSC clock, PIT, local APIC idle timer), acpi.c (S5 poweroff),
 * params.c (parameter parsing), multiboot.c (command line, RAM regions).
 */
#include <stddef.h>
#include <stdint.h>

#include "../common/pagegen.h"
#include "winlike.h"

#define HOG_VERSION 1
#define MAX_ERROR_LINES 16

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
