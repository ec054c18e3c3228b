/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Deterministic page contents for the in-VM tests: page @index of
 * generation @seed in one of several compressibility modes, so a page can be
 * regenerated and compared after a round trip through swap.
 */
#ifndef PATTERN_H
#define PATTERN_H

#include <stdint.h>
#include <string.h>

#define PG 4096UL
#define PG_WORDS (PG / sizeof(uint64_t))

enum pat_mode { PAT_ZERO, PAT_SAME, PAT_TEXT, PAT_RANDOM, PAT_MIXED };

static inline uint64_t pat_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static inline int pat_parse(const char *s)
{
	if (!strcmp(s, "zero"))
		return PAT_ZERO;
	if (!strcmp(s, "same"))
		return PAT_SAME;
	if (!strcmp(s, "text"))
		return PAT_TEXT;
	if (!strcmp(s, "random"))
		return PAT_RANDOM;
	if (!strcmp(s, "mixed"))
		return PAT_MIXED;
	return -1;
}

/* The mode a page actually gets (mixed: 15% same, 25% random, 60% text). */
static inline int pat_page_mode(int mode, uint64_t h)
{
	unsigned int r;

	if (mode != PAT_MIXED)
		return mode;
	r = (h >> 8) % 20;
	if (r < 3)
		return PAT_SAME;
	if (r < 8)
		return PAT_RANDOM;
	return PAT_TEXT;
}

static inline void pat_fill(uint64_t *w, int mode, uint64_t index,
			    uint64_t seed)
{
	uint64_t h = pat_mix(index ^ (seed << 40) ^ 0x5eedULL);
	uint64_t s = h, v = 0;
	unsigned int k, period;

	switch (pat_page_mode(mode, h)) {
	case PAT_ZERO:
		memset(w, 0, PG);
		return;
	case PAT_SAME:
		v = (h & 3) ? h : 0;
		for (k = 0; k < PG_WORDS; k++)
			w[k] = v;
		return;
	case PAT_RANDOM:
		for (k = 0; k < PG_WORDS; k++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			w[k] = s;
		}
		break;
	default: /* PAT_TEXT: 1/16 to 1/3 of the words random */
		period = (unsigned int[]){ 16, 8, 4, 3 }[(h >> 16) & 3];
		for (k = 0; k < PG_WORDS; k++) {
			if (k % period == 0) {
				s ^= s << 13;
				s ^= s >> 7;
				s ^= s << 17;
				v = s & 0x7f7f7f7f7f7f7f7fULL;
			}
			w[k] = v;
		}
		break;
	}
	/* Stamp index and generation so a misplaced page is caught. */
	w[0] = index;
	w[1] = seed;
}

#endif /* PATTERN_H */
