/*
 * pagegen.h - deterministic, self-verifying page contents shared by the
 * guest memory hogs (hog-linux and hog-winlike).
 *
 * Header-only, freestanding (needs only <stdint.h>/<stddef.h>), so it builds
 * for the 64-bit static Linux init and for the 32-bit multiboot kernel.
 *
 * Every page's content is a pure function of (kind, page index, generation,
 * seed).  Generation 0 means "never written" and is an all-zero page for
 * every kind.  For the non-zero kinds, a page carries a 32-byte header
 *
 *   off  0  u32 magic  PG_MAGIC
 *   off  4  u32 kind
 *   off  8  u32 page index
 *   off 12  u32 generation
 *   off 16  u32 seed
 *   off 20  u32 0
 *   off 24  u64 checksum over bytes [0,24) and [32,4096)
 *
 * followed by 4064 bytes of payload.  PG_KIND_ZERO pages are all zero and are
 * verified byte for byte.  pg_verify() checks the header against the expected
 * (kind, index, generation, seed) and recomputes the checksum, so a flipped
 * bit, a stale page (old generation) or a misplaced page (other index) are
 * all detected.
 */
#ifndef RAMZSWAP_PAGEGEN_H
#define RAMZSWAP_PAGEGEN_H

#include <stddef.h>
#include <stdint.h>

#define PG_SIZE 4096u
#define PG_HDR 32u
#define PG_MAGIC 0x31474f48u /* "HOG1" little endian */

enum pg_kind {
	PG_KIND_ZERO = 0,   /* all-zero page (zram same-filled)               */
	PG_KIND_TEXT = 1,   /* log/text-like, compresses ~3-4x with LZO       */
	PG_KIND_RANDOM = 2, /* PRNG output, incompressible                    */
	PG_KIND_CODE = 3,   /* x86-instruction-like byte patterns             */
	PG_KIND_DATA = 4,   /* heap/data-like: ints, pointers, UTF-16 strings */
	PG_KIND_COUNT
};

enum pg_result {
	PG_OK = 0,
	PG_ERR_NOT_ZERO = 1, /* zero page (or gen 0) has a non-zero byte */
	PG_ERR_HEADER = 2,   /* magic/kind/index/generation/seed mismatch */
	PG_ERR_CHECKSUM = 3  /* header fine, payload checksum mismatch */
};

static inline const char *pg_kind_name(unsigned k)
{
	static const char *const n[PG_KIND_COUNT] = {"zero", "text", "random",
						     "code", "data"};
	return k < PG_KIND_COUNT ? n[k] : "?";
}

static inline const char *pg_result_name(int r)
{
	switch (r) {
	case PG_OK: return "ok";
	case PG_ERR_NOT_ZERO: return "not_zero";
	case PG_ERR_HEADER: return "header";
	case PG_ERR_CHECKSUM: return "checksum";
	default: return "?";
	}
}

/* ---- small PRNG (xorshift128, 32-bit output; fast on i386 and x86-64) --- */

struct pg_rng {
	uint32_t a, b, c, d;
};

static inline uint32_t pg_mix32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

static inline void pg_rng_init(struct pg_rng *r, uint32_t index, uint32_t gen,
			       uint32_t seed, uint32_t salt)
{
	r->a = pg_mix32(index ^ 0x9e3779b9u) ^ salt;
	r->b = pg_mix32(gen + 0x85ebca6bu + r->a);
	r->c = pg_mix32(seed ^ 0xc2b2ae35u ^ r->b);
	r->d = pg_mix32(r->a + r->b + r->c + 0x27d4eb2fu);
	if ((r->a | r->b | r->c | r->d) == 0)
		r->d = 1;
}

static inline uint32_t pg_rng_next(struct pg_rng *r)
{
	uint32_t t = r->a ^ (r->a << 11);
	r->a = r->b;
	r->b = r->c;
	r->c = r->d;
	r->d = r->d ^ (r->d >> 19) ^ t ^ (t >> 8);
	return r->d;
}

/* uniform-ish value in [0, n) without division by a variable u64 */
static inline uint32_t pg_rng_below(struct pg_rng *r, uint32_t n)
{
	return (uint32_t)(((uint64_t)pg_rng_next(r) * n) >> 32);
}

/* ---- checksum: two 32-bit multiplicative lanes, order dependent ---- */

static inline uint32_t pg_rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline void pg_wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline uint64_t pg_checksum(const uint8_t *page)
{
	const uint32_t *w = (const uint32_t *)(const void *)page;
	uint32_t h1 = 0x811c9dc5u, h2 = 0x2545f491u;
	size_t i;

	for (i = 0; i < PG_SIZE / 4; i++) {
		uint32_t v = w[i];
		if (i == 6 || i == 7) /* the checksum field itself */
			v = 0;
		h1 = (h1 ^ v) * 0x01000193u;
		h2 = ((h2 + v) * 0x9e3779b1u);
		h2 = (h2 << 13) | (h2 >> 19);
	}
	h1 = pg_mix32(h1 ^ h2);
	h2 = pg_mix32(h2 + h1);
	return (uint64_t)h1 | (uint64_t)h2 << 32;
}

/* ---- payload generators ---- */

static inline size_t pg_put(uint8_t *p, size_t pos, size_t end, const char *s)
{
	while (*s && pos < end)
		p[pos++] = (uint8_t)*s++;
	return pos;
}

static inline size_t pg_put_dec(uint8_t *p, size_t pos, size_t end, uint32_t v,
				unsigned width)
{
	char tmp[12];
	unsigned n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v && n < sizeof(tmp));
	while (n < width && n < sizeof(tmp))
		tmp[n++] = '0';
	while (n && pos < end)
		p[pos++] = (uint8_t)tmp[--n];
	return pos;
}

/*
 * Text: syslog/application-log-like lines built from a small vocabulary.
 * Tuned so one 4 KiB page compresses to roughly 1/3..1/4 with LZO-1X
 * (lzop -1), like the text/heap pages behind zram's typical ~2.7 ratio.
 */
static inline void pg_gen_text(uint8_t *p, size_t start, struct pg_rng *r)
{
	static const char *const host[4] = {"node1", "node2", "db0", "web3"};
	static const char *const prog[8] = {
	    "kernel", "sshd", "nginx", "postgres",
	    "cron", "systemd", "dockerd", "kubelet"};
	static const char *const msg[16] = {
	    "connection accepted from client",
	    "request completed with status 200 OK",
	    "worker thread started processing queue",
	    "cache miss for key user:session",
	    "checkpoint complete: wrote buffers",
	    "starting periodic maintenance task",
	    "received SIGHUP, reloading configuration",
	    "query executed successfully in pool",
	    "health check passed for service",
	    "garbage collection finished, heap compacted",
	    "opened database connection to primary",
	    "flushing dirty pages to backing store",
	    "user session authenticated via public key",
	    "scheduled job finished without errors",
	    "network interface eth0 link is up",
	    "memory usage within configured limits"};
	size_t pos = start;
	uint32_t ts = pg_rng_below(r, 86400u);

	while (pos < PG_SIZE) {
		uint32_t x = pg_rng_next(r);
		ts += x & 3u;
		pos = pg_put(p, pos, PG_SIZE, "Dec  3 ");
		pos = pg_put_dec(p, pos, PG_SIZE, (ts / 3600u) % 24u, 2);
		pos = pg_put(p, pos, PG_SIZE, ":");
		pos = pg_put_dec(p, pos, PG_SIZE, (ts / 60u) % 60u, 2);
		pos = pg_put(p, pos, PG_SIZE, ":");
		pos = pg_put_dec(p, pos, PG_SIZE, ts % 60u, 2);
		pos = pg_put(p, pos, PG_SIZE, " ");
		pos = pg_put(p, pos, PG_SIZE, host[(x >> 2) & 1u]);
		pos = pg_put(p, pos, PG_SIZE, " ");
		pos = pg_put(p, pos, PG_SIZE, prog[(x >> 4) & 3u]);
		pos = pg_put(p, pos, PG_SIZE, "[");
		pos = pg_put_dec(p, pos, PG_SIZE, 1000u + ((x >> 7) & 1u), 0);
		pos = pg_put(p, pos, PG_SIZE, "]: ");
		pos = pg_put(p, pos, PG_SIZE, msg[(x >> 10) & 7u]);
		if (((x >> 14) & 7u) == 0) {
			pos = pg_put(p, pos, PG_SIZE, " id=");
			pos = pg_put_dec(p, pos, PG_SIZE, (x >> 15) & 1023u, 0);
		}
		pos = pg_put(p, pos, PG_SIZE, "\n");
	}
}

static inline void pg_gen_random(uint8_t *p, size_t start, struct pg_rng *r)
{
	size_t pos;

	for (pos = start; pos + 4 <= PG_SIZE; pos += 4)
		pg_wr32(p + pos, pg_rng_next(r));
}

/*
 * Code: sequences of common x86 instruction encodings (prologues, movs with
 * small displacements, calls with random rel32, jcc, epilogues, int3/nop
 * padding between functions), like .text pages of a loaded image.
 */
static inline void pg_gen_code(uint8_t *p, size_t start, struct pg_rng *r)
{
	size_t pos = start;

	while (pos + 16 <= PG_SIZE) {
		uint32_t x = pg_rng_next(r);
		uint32_t imm = pg_rng_next(r);
		uint8_t reg = (uint8_t)((x >> 8) & 3u);

		if ((x >> 28) >= 10u && pos >= start + 64) {
			/* repeated idiom: copy 8..23 bytes seen earlier */
			size_t back = 16u + ((imm >> 8) & 0xffu) % (pos - start - 32u);
			size_t n = 8u + (imm & 15u), k;
			for (k = 0; k < n && pos + 16 <= PG_SIZE; k++, pos++)
				p[pos] = p[pos - back];
			continue;
		}
		switch (x & 15u) {
		case 0: /* function prologue */
			p[pos++] = 0x55;
			p[pos++] = 0x8b;
			p[pos++] = 0xec;
			p[pos++] = 0x83;
			p[pos++] = 0xec;
			p[pos++] = (uint8_t)((x >> 12) & 0x3cu);
			break;
		case 1: /* epilogue + padding */
			p[pos++] = 0x8b;
			p[pos++] = 0xe5;
			p[pos++] = 0x5d;
			p[pos++] = 0xc3;
			while (pos & 15u)
				p[pos++] = 0xcc;
			break;
		case 2: case 3: case 4: /* mov reg, [ebp+disp8] */
			p[pos++] = 0x8b;
			p[pos++] = (uint8_t)(0x45 | reg << 3);
			p[pos++] = (uint8_t)(x >> 16 & 0x1cu);
			break;
		case 5: case 6: /* mov [ebp-disp8], reg */
			p[pos++] = 0x89;
			p[pos++] = (uint8_t)(0x45 | reg << 3);
			p[pos++] = (uint8_t)(0x100u - ((x >> 16) & 0x3cu));
			break;
		case 7: /* call rel32 */
			p[pos++] = 0xe8;
			pg_wr32(p + pos, (imm & 0xff0u) | ((imm & 1u) ? 0xfffff000u : 0));
			pos += 4;
			break;
		case 8: /* test eax,eax ; jz/jnz rel8 */
			p[pos++] = 0x85;
			p[pos++] = 0xc0;
			p[pos++] = (uint8_t)(0x74 | ((x >> 12) & 1u));
			p[pos++] = (uint8_t)(x >> 16);
			break;
		case 9: /* cmp reg, imm8 ; jcc rel32 */
			p[pos++] = 0x83;
			p[pos++] = (uint8_t)(0xf8 | reg);
			p[pos++] = (uint8_t)((x >> 16) & 0x0fu);
			p[pos++] = 0x0f;
			p[pos++] = (uint8_t)(0x84 | ((x >> 12) & 3u));
			pg_wr32(p + pos, imm & 0x3ffu);
			pos += 4;
			break;
		case 10: /* push reg / pop reg pairs */
			p[pos++] = (uint8_t)(0x50 | reg);
			p[pos++] = 0x56;
			p[pos++] = 0x57;
			break;
		case 11: /* mov reg, imm32 (small constants / addresses) */
			p[pos++] = (uint8_t)(0xb8 | reg);
			pg_wr32(p + pos, (x & 0x10000u) ? 0x00400000u + (imm & 0xffffu)
							  : (imm & 0xffu));
			pos += 4;
			break;
		case 12: /* lea reg, [reg+disp8] */
			p[pos++] = 0x8d;
			p[pos++] = (uint8_t)(0x40 | reg << 3 | ((x >> 20) & 7u));
			p[pos++] = (uint8_t)((x >> 24) & 0xfcu);
			break;
		case 13: /* call [imm32] (IAT) */
			p[pos++] = 0xff;
			p[pos++] = 0x15;
			pg_wr32(p + pos, 0x00402000u + (imm & 0x1fcu));
			pos += 4;
			break;
		case 14: /* xor eax,eax ; pop esi ; pop edi */
			p[pos++] = 0x33;
			p[pos++] = 0xc0;
			p[pos++] = 0x5e;
			p[pos++] = 0x5f;
			break;
		default: /* add esp, imm8 ; nop */
			p[pos++] = 0x83;
			p[pos++] = 0xc4;
			p[pos++] = (uint8_t)((x >> 16) & 0x1cu);
			p[pos++] = 0x90;
			break;
		}
	}
	while (pos < PG_SIZE)
		p[pos++] = 0xcc;
}

/*
 * Data: heap-like records: small integers, pointers sharing high bits,
 * UTF-16LE path strings (Windows style), and zero runs.
 */
static inline void pg_gen_data(uint8_t *p, size_t start, struct pg_rng *r)
{
	static const char *const str[6] = {
	    "C:\\Windows\\System32\\", "kernel32.dll", "HKEY_LOCAL_MACHINE",
	    "\\Device\\HarddiskVolume2", "ntdll.dll", "Microsoft"};
	size_t pos = start;

	while (pos + 64 <= PG_SIZE) {
		uint32_t x = pg_rng_next(r);
		size_t end = pos + 32u + (x & 31u);
		const char *s;

		switch ((x >> 5) & 3u) {
		case 0: /* struct: pointer, flags, small counters */
			while (pos + 16 <= end) {
				uint32_t y = pg_rng_next(r);
				pg_wr32(p + pos, 0x7ff60000u + (y & 0xfff8u));
				pg_wr32(p + pos + 4, y >> 28);
				pg_wr32(p + pos + 8, (y >> 16) & 0xffu);
				pg_wr32(p + pos + 12, 0);
				pos += 16;
			}
			break;
		case 1: /* UTF-16LE string */
			s = str[(x >> 8) % 6u];
			while (*s && pos + 2 <= end) {
				p[pos++] = (uint8_t)*s++;
				p[pos++] = 0;
			}
			break;
		case 2: /* zero run */
			while (pos < end)
				p[pos++] = 0;
			break;
		default: /* array of small ints */
			while (pos + 4 <= end) {
				pg_wr32(p + pos, pg_rng_next(r) & 0x3ffu);
				pos += 4;
			}
			break;
		}
		while (pos < end)
			p[pos++] = 0;
	}
	while (pos < PG_SIZE)
		p[pos++] = 0;
}

/*
 * Page kind of page i in the "mixed" profiles (shared with tools/pagedump so
 * host-side ratio estimates use the very same mix).
 *   linux mixed:   2/3 text, 1/3 random   (overall ~2:1 with LZO)
 *   winlike mixed: 1/3 zero, 1/3 code, 1/3 data
 */
static inline unsigned pg_kind_linux_mixed(uint32_t i, uint32_t seed)
{
	return pg_mix32(i ^ (seed * 0x9e3779b1u)) % 3u < 2u ? PG_KIND_TEXT
							      : PG_KIND_RANDOM;
}

static inline unsigned pg_kind_winlike_mixed(uint32_t i, uint32_t seed)
{
	switch (pg_mix32(i ^ (seed * 0x9e3779b1u)) % 3u) {
	case 0: return PG_KIND_ZERO;
	case 1: return PG_KIND_CODE;
	default: return PG_KIND_DATA;
	}
}

/* Write the page for (kind, index, gen, seed).  gen 0 or ZERO: all zero. */
static inline void pg_fill(uint8_t *p, unsigned kind, uint32_t index,
			   uint32_t gen, uint32_t seed)
{
	struct pg_rng r;
	uint64_t sum;
	size_t i;

	if (gen == 0 || kind == PG_KIND_ZERO || kind >= PG_KIND_COUNT) {
		uint32_t *w = (uint32_t *)(void *)p;
		for (i = 0; i < PG_SIZE / 4; i++)
			w[i] = 0;
		return;
	}
	pg_rng_init(&r, index, gen, seed, kind);
	pg_wr32(p + 0, PG_MAGIC);
	pg_wr32(p + 4, kind);
	pg_wr32(p + 8, index);
	pg_wr32(p + 12, gen);
	pg_wr32(p + 16, seed);
	pg_wr32(p + 20, 0);
	switch (kind) {
	case PG_KIND_TEXT: pg_gen_text(p, PG_HDR, &r); break;
	case PG_KIND_RANDOM: pg_gen_random(p, PG_HDR, &r); break;
	case PG_KIND_CODE: pg_gen_code(p, PG_HDR, &r); break;
	default: pg_gen_data(p, PG_HDR, &r); break;
	}
	sum = pg_checksum(p);
	pg_wr32(p + 24, (uint32_t)sum);
	pg_wr32(p + 28, (uint32_t)(sum >> 32));
}

/* Verify that page p holds (kind, index, gen, seed).  Returns pg_result. */
static inline int pg_verify(const uint8_t *p, unsigned kind, uint32_t index,
			    uint32_t gen, uint32_t seed)
{
	uint64_t sum;
	size_t i;

	if (gen == 0 || kind == PG_KIND_ZERO || kind >= PG_KIND_COUNT) {
		const uint32_t *w = (const uint32_t *)(const void *)p;
		uint32_t acc = 0;
		for (i = 0; i < PG_SIZE / 4; i++)
			acc |= w[i];
		return acc ? PG_ERR_NOT_ZERO : PG_OK;
	}
	if (pg_rd32(p + 0) != PG_MAGIC || pg_rd32(p + 4) != kind ||
	    pg_rd32(p + 8) != index || pg_rd32(p + 12) != gen ||
	    pg_rd32(p + 16) != seed || pg_rd32(p + 20) != 0)
		return PG_ERR_HEADER;
	sum = pg_checksum(p);
	if (pg_rd32(p + 24) != (uint32_t)sum ||
	    pg_rd32(p + 28) != (uint32_t)(sum >> 32))
		return PG_ERR_CHECKSUM;
	return PG_OK;
}

#endif /* RAMZSWAP_PAGEGEN_H */
