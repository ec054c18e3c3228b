/*
 * hog-linux: /init of the hog-linux.cpio.gz initramfs.
 *
 * A self-verifying memory hog for nested-KVM density measurements.  It reads
 * its parameters from the kernel command line (hog.*), first-touches
 * hog.mem bytes of anonymous memory, then once per hog.period touches a
 * working set (verify the page's checksum/header, rewrite it with the next
 * generation), idles until the next period, and finally verifies every page
 * once more, prints a "HOG done ... result=PASS|FAIL" line on the console and
 * powers the VM off.  Output format: guests/README.md.
 *
 * Never uses mlock/mlockall: all of its memory must stay swappable.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/pagegen.h"

#define HOG_VERSION 1
#define MAX_ERROR_LINES 16

enum profile { PROF_ZERO, PROF_TEXT, PROF_MIXED, PROF_RANDOM };
static const char *const profile_names[] = {"zero", "text", "mixed", "random"};

struct params {
	uint64_t mem;       /* bytes */
	unsigned mem_pct;   /* hog.mem=N%: percent of MemAvailable (0 = unset) */
	int profile;
	double ws;          /* working-set fraction 0..1 */
	int pattern_random; /* 0 seq, 1 random */
	double drift;       /* ws window moves drift*ws_pages pages per pass */
	double period;      /* seconds, 0 = back to back */
	unsigned periods;   /* number of passes */
	int periods_set;
	double duration;    /* seconds, 0 = not set */
	unsigned seed;
	int write;          /* 1: verify+rewrite, 0: verify only */
	unsigned corrupt;   /* selftest: pages to corrupt after the fill */
};

static int con_fd = 1;

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	/* one write per line so lines are not interleaved with the kernel's */
	if (write(con_fd, buf, (size_t)n) < 0) {
		/* nothing sensible to do */
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_until(double t)
{
	struct timespec ts;

	if (t <= now_s())
		return;
	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_nsec = 999999999L;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void power_off(void) __attribute__((noreturn));
static void power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	out("HOG error poweroff_failed errno=%d", errno);
	for (;;)
		pause();
}

/* "HOG done" for a run that never started (parameter/setup error) */
static void fail_early(const char *reason) __attribute__((noreturn));
static void fail_early(const char *reason)
{
	out("HOG done class=linux passes=0 missed=0 verify_errors=0 "
	    "result=FAIL reason=%s",
	    reason);
	power_off();
}

static int parse_size(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long n;
	uint64_t mul = 1;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': mul = 1ull << 10; end++; break;
	case 'm': case 'M': mul = 1ull << 20; end++; break;
	case 'g': case 'G': mul = 1ull << 30; end++; break;
	default: return -1;
	}
	if (*end == 'i')
		end++;
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end != '\0' || n > UINT64_MAX / mul)
		return -1;
	*v = n * mul;
	return 0;
}

static int parse_double(const char *s, double *v)
{
	char *end;

	if (*s == '\0')
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || *end != '\0' || !isfinite(*v) || *v < 0)
		return -1;
	return 0;
}

static int parse_uint(const char *s, unsigned *v)
{
	char *end;
	unsigned long n;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtoul(s, &end, 0);
	if (errno || *end != '\0' || n > 0xffffffffUL)
		return -1;
	*v = (unsigned)n;
	return 0;
}

static int bad_param(const char *key, const char *val, const char *why)
{
	out("HOG error param=hog.%s value=%s reason=%s", key, val, why);
	return -1;
}

static int set_param(struct params *p, const char *key, const char *val)
{
	unsigned u;

	if (!strcmp(key, "mem")) {
		size_t l = strlen(val);
		p->mem_pct = 0;
		if (l > 1 && val[l - 1] == '%') {
			char num[16];
			if (l - 1 >= sizeof(num))
				return bad_param(key, val, "expected_size_like_200M_or_80%");
			memcpy(num, val, l - 1);
			num[l - 1] = '\0';
			if (parse_uint(num, &p->mem_pct) || p->mem_pct < 1 ||
			    p->mem_pct > 100)
				return bad_param(key, val, "expected_size_like_200M_or_80%");
		} else if (parse_size(val, &p->mem) || p->mem < PG_SIZE) {
			return bad_param(key, val, "expected_size_like_200M_or_80%");
		}
	} else if (!strcmp(key, "profile")) {
		for (u = 0; u < 4; u++)
			if (!strcmp(val, profile_names[u]))
				break;
		if (u == 4)
			return bad_param(key, val,
					 "unknown_profile(zero|text|mixed|random)");
		p->profile = (int)u;
	} else if (!strcmp(key, "ws")) {
		if (parse_double(val, &p->ws) || p->ws > 1.0)
			return bad_param(key, val, "expected_fraction_0..1");
	} else if (!strcmp(key, "drift")) {
		if (parse_double(val, &p->drift) || p->drift > 1.0)
			return bad_param(key, val, "expected_fraction_0..1");
	} else if (!strcmp(key, "pattern")) {
		if (!strcmp(val, "seq"))
			p->pattern_random = 0;
		else if (!strcmp(val, "random"))
			p->pattern_random = 1;
		else
			return bad_param(key, val, "unknown_pattern(seq|random)");
	} else if (!strcmp(key, "period")) {
		if (parse_double(val, &p->period) || p->period > 86400.0 * 365)
			return bad_param(key, val, "expected_seconds");
	} else if (!strcmp(key, "periods")) {
		if (parse_uint(val, &p->periods))
			return bad_param(key, val, "expected_count");
		p->periods_set = 1;
	} else if (!strcmp(key, "duration")) {
		if (parse_double(val, &p->duration) || p->duration > 86400.0 * 365)
			return bad_param(key, val, "expected_seconds");
	} else if (!strcmp(key, "seed")) {
		if (parse_uint(val, &p->seed))
			return bad_param(key, val, "expected_uint");
	} else if (!strcmp(key, "write")) {
		if (parse_uint(val, &u) || u > 1)
			return bad_param(key, val, "expected_0_or_1");
		p->write = (int)u;
	} else if (!strcmp(key, "selftest_corrupt")) {
		if (parse_uint(val, &p->corrupt))
			return bad_param(key, val, "expected_count");
	} else {
		return bad_param(key, val, "unknown_parameter");
	}
	return 0;
}

/* Parse hog.* tokens of the kernel command line; other tokens are ignored. */
static int parse_cmdline(struct params *p, char *cmd)
{
	int errors = 0;
	char *save = NULL, *tok;

	for (tok = strtok_r(cmd, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		char *eq;

		if (strncmp(tok, "hog.", 4) != 0)
			continue;
		tok += 4;
		eq = strchr(tok, '=');
		if (!eq) {
			bad_param(tok, "", "missing_value");
			errors++;
			continue;
		}
		*eq = '\0';
		if (set_param(p, tok, eq + 1))
			errors++;
	}
	return errors;
}

static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	unsigned long long kb;
	uint64_t v = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			v = (uint64_t)kb * 1024;
	fclose(f);
	return v;
}

static unsigned page_kind(int profile, size_t i, unsigned seed)
{
	switch (profile) {
	case PROF_ZERO: return PG_KIND_ZERO;
	case PROF_TEXT: return PG_KIND_TEXT;
	case PROF_RANDOM: return PG_KIND_RANDOM;
	default:
		/* mixed: 2/3 text-like, 1/3 random, spread by a hash */
		return pg_kind_linux_mixed((uint32_t)i, seed);
	}
}

struct hog {
	struct params p;
	uint8_t *mem;
	size_t npages;
	uint32_t *gen;     /* current generation of each page */
	uint32_t *order;   /* working-set visit order */
	size_t ws_pages;
	unsigned long long errors;
	unsigned error_lines;
};

static void report_error(struct hog *h, size_t i, unsigned kind, uint32_t gen,
			 int r, const char *phase)
{
	h->errors++;
	if (h->error_lines < MAX_ERROR_LINES) {
		h->error_lines++;
		out("HOG verify_error phase=%s page=%zu kind=%s gen=%" PRIu32
		    " reason=%s",
		    phase, i, pg_kind_name(kind), gen, pg_result_name(r));
	} else if (h->error_lines == MAX_ERROR_LINES) {
		h->error_lines++;
		out("HOG verify_error more_errors_not_shown=1");
	}
}

/* Touch page i: verify its current content, rewrite with the next gen. */
static unsigned long long touch(struct hog *h, size_t i, int do_write,
				const char *phase)
{
	uint8_t *pg = h->mem + i * PG_SIZE;
	unsigned kind = page_kind(h->p.profile, i, h->p.seed);
	int r = pg_verify(pg, kind, (uint32_t)i, h->gen[i], h->p.seed);

	if (r != PG_OK)
		report_error(h, i, kind, h->gen[i], r, phase);
	if (do_write) {
		h->gen[i]++;
		if (h->gen[i] == 0)
			h->gen[i] = 1;
		pg_fill(pg, kind, (uint32_t)i, h->gen[i], h->p.seed);
	}
	return r != PG_OK;
}

static void shuffle(struct hog *h, unsigned pass)
{
	struct pg_rng r;
	size_t i;

	pg_rng_init(&r, pass, 0x5eedu, h->p.seed, 0xabcdu);
	for (i = h->ws_pages; i > 1; i--) {
		uint64_t x = (uint64_t)pg_rng_next(&r) << 32 | pg_rng_next(&r);
		size_t j = (size_t)(x % i);
		uint32_t t = h->order[i - 1];
		h->order[i - 1] = h->order[j];
		h->order[j] = t;
	}
}

static double mbps(double mb, double secs)
{
	return secs > 0 ? mb / secs : 0.0;
}

static void setup_console(void)
{
	int fd;

	mkdir("/proc", 0555);
	mkdir("/dev", 0755);
	mount("proc", "/proc", "proc", 0, NULL);
	fd = open("/dev/console", O_WRONLY | O_NOCTTY);
	if (fd < 0) {
		mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
		fd = open("/dev/console", O_WRONLY | O_NOCTTY);
	}
	if (fd >= 0) {
		con_fd = fd;
		dup2(fd, 1);
		dup2(fd, 2);
	}
}

int main(void)
{
	static char cmdline[4096];
	struct hog h;
	struct params *p = &h.p;
	double t_fill, t0, t_end, sched, mb_ws, mb_all;
	unsigned pass, missed = 0, max_passes, passes_done = 0;
	uint64_t avail, need, drift_step;
	size_t i, start;
	ssize_t n;
	int fd;

	memset(&h, 0, sizeof(h));
	p->mem = 64ull << 20;
	p->profile = PROF_MIXED;
	p->ws = 1.0;
	p->seed = 1;
	p->write = 1;

	setup_console();
	if (getpid() != 1)
		out("HOG warning not_pid1=1 (poweroff will fail)");

	fd = open("/proc/cmdline", O_RDONLY);
	if (fd < 0) {
		out("HOG error setup reason=cannot_read_proc_cmdline errno=%d", errno);
		fail_early("setup");
	}
	n = read(fd, cmdline, sizeof(cmdline) - 1);
	close(fd);
	cmdline[n > 0 ? n : 0] = '\0';

	if (parse_cmdline(p, cmdline))
		fail_early("bad_param");

	if (!p->periods_set && p->duration == 0)
		p->periods = 3;
	avail = mem_available();
	if (p->mem_pct) {
		/* percent of MemAvailable, less 8 MiB slack and the gen[] array */
		uint64_t a = avail > (8u << 20) ? avail - (8u << 20) : 0;
		p->mem = a / 100 * p->mem_pct / (PG_SIZE + 8) * PG_SIZE;
		if (p->mem < PG_SIZE)
			p->mem = PG_SIZE;
	}
	h.npages = (size_t)(p->mem / PG_SIZE);
	h.ws_pages = (size_t)llround(p->ws * (double)h.npages);
	if (h.ws_pages == 0 && p->ws > 0)
		h.ws_pages = 1;
	if (h.ws_pages > h.npages)
		h.ws_pages = h.npages;
	mb_all = (double)h.npages * PG_SIZE / 1048576.0;
	mb_ws = (double)h.ws_pages * PG_SIZE / 1048576.0;

	out("HOG start class=linux version=%d mem_mb=%.0f profile=%s ws=%g "
	    "pattern=%s period=%g periods=%u duration=%g pages=%zu ws_pages=%zu "
	    "write=%d seed=%u drift=%g",
	    HOG_VERSION, mb_all, profile_names[p->profile], p->ws,
	    p->pattern_random ? "random" : "seq", p->period, p->periods,
	    p->duration, h.npages, h.ws_pages, p->write, p->seed, p->drift);

	need = (uint64_t)h.npages * (PG_SIZE + 8);
	if (avail && need + (8u << 20) > avail) {
		out("HOG error param=hog.mem value=%" PRIu64
		    " reason=exceeds_guest_mem_available mem_available_mb=%" PRIu64,
		    p->mem, avail >> 20);
		fail_early("mem_too_large");
	}

	h.gen = calloc(h.npages, sizeof(*h.gen));
	h.order = calloc(h.ws_pages ? h.ws_pages : 1, sizeof(*h.order));
	/* plain anonymous memory: swappable, never mlock()ed */
	h.mem = mmap(NULL, h.npages * PG_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!h.gen || !h.order || h.mem == MAP_FAILED) {
		out("HOG error setup reason=out_of_memory errno=%d", errno);
		fail_early("setup");
	}
	for (i = 0; i < h.ws_pages; i++)
		h.order[i] = (uint32_t)i;

	/* first touch: write-only, like an application filling its heap */
	t_fill = now_s();
	for (i = 0; i < h.npages; i++) {
		h.gen[i] = 1;
		pg_fill(h.mem + i * PG_SIZE, page_kind(p->profile, i, p->seed),
			(uint32_t)i, 1, p->seed);
	}
	t0 = now_s();
	out("HOG fill mb=%.0f secs=%.2f mbps=%.1f verify_errors=%llu", mb_all,
	    t0 - t_fill, mbps(mb_all, t0 - t_fill), h.errors);

	for (i = 0; i < p->corrupt && h.npages; i++) {
		/* selftest: flip one payload byte in spread-out pages */
		size_t span = h.ws_pages ? h.ws_pages : h.npages;
		size_t pg = (span / 2 + i * 7919u) % span;
		size_t off = PG_HDR + (i * 997u) % (PG_SIZE - PG_HDR);
		h.mem[pg * PG_SIZE + off] ^= 0x5a;
		out("HOG selftest corrupted page=%zu offset=%zu kind=%s gen=%" PRIu32,
		    pg, off, pg_kind_name(page_kind(p->profile, pg, p->seed)),
		    h.gen[pg]);
	}

	drift_step = (uint64_t)llround(p->drift * (double)h.ws_pages);
	max_passes = p->periods_set || p->duration == 0 ? p->periods : UINT32_MAX;
	t_end = p->duration > 0 ? t0 + p->duration : INFINITY;
	sched = t0;
	for (pass = 1; pass <= max_passes; pass++) {
		unsigned long long before = h.errors;
		double ts, te;
		int late;

		if (pass > 1 && sched >= t_end)
			break;
		sleep_until(sched);
		ts = now_s();
		if (p->pattern_random)
			shuffle(&h, pass);
		/* drift: this pass's window starts (pass-1)*step pages on */
		start = h.npages ? (size_t)(((uint64_t)(pass - 1) * drift_step) %
					    h.npages) : 0;
		for (i = 0; i < h.ws_pages; i++)
			touch(&h, (start + h.order[i]) % h.npages, p->write,
			      "pass");
		te = now_s();
		late = p->period > 0 && te > sched + p->period;
		missed += (unsigned)late;
		passes_done++;
		out("HOG pass n=%u mb=%.0f secs=%.2f mbps=%.1f deadline_missed=%d "
		    "verify_errors=%llu t=%.2f start=%zu",
		    pass, mb_ws, te - ts, mbps(mb_ws, te - ts), late,
		    h.errors - before, te - t0, start);
		sched = p->period > 0 ? sched + p->period : te;
		if (sched < te)
			sched = te; /* overran: next pass starts right away */
		if (p->duration > 0 && te >= t_end)
			break;
	}
	{
		/* final read-only check of every page, cold ones included */
		unsigned long long before = h.errors;
		double ts = now_s(), te;

		for (i = 0; i < h.npages; i++)
			touch(&h, i, 0, "final");
		te = now_s();
		out("HOG verify mb=%.0f secs=%.2f mbps=%.1f verify_errors=%llu",
		    mb_all, te - ts, mbps(mb_all, te - ts), h.errors - before);
	}

	out("HOG done class=linux passes=%u missed=%u verify_errors=%llu result=%s",
	    passes_done, missed, h.errors, h.errors ? "FAIL" : "PASS");
	power_off();
}
