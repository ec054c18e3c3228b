// SPDX-License-Identifier: GPL-2.0-only
/*
 * xv-packing: how densely module/xvmalloc.c (the driver's own allocator,
 * built in userspace with xvmalloc_user.h) packs a given set of compressed
 * page sizes, as ramzswap would store them.
 *
 * usage: xv-packing [--max-zpage N] [--churn R] [--seed S] [--repeat K]
 *                   [--split MIN] < SIZES
 *   SIZES: one compressed page size in bytes per line (0: a same-filled
 *   page, stored without memory); guests/tools/lzo-ratio.sh --sizes
 *   prints them for the guests' page contents.
 *   --max-zpage N  sizes above N are stored as raw pages (the driver's
 *                  max_zpage_size; default 2048, half a page)
 *   --churn R      after the fill, replace R times as many objects as were
 *                  stored, each by one of the same sizes picked at random
 *                  (swap-ins and new swap-outs; default 4)
 *   --seed S       PRNG seed for the churn (default 1)
 *   --split MIN    store with xv_malloc_split() (a head of at least MIN
 *                  bytes in the largest free block, when no free block
 *                  holds the object whole, with a 12-byte link to the
 *                  tail) instead of xv_malloc()
 *   --repeat K     store every size K times (default 1): a sample of a
 *                  few thousand pages stands for a swap area of many
 *                  more, whose allocator holds few partly filled pages
 *
 * Prints, after the fill and after the churn, one line each:
 *   PHASE objects=N raw_pages=N data_bytes=B pool_bytes=B free_pct=P
 *         used_bytes=B bytes_per_page=B
 * where pool_bytes is xvmalloc's pages, free_pct the share of them not
 * holding object data (headers, alignment and unusable gaps),
 * used_bytes = pool_bytes + raw_pages * 4096 and bytes_per_page the
 * memory per stored page (same-filled pages included). A third line,
 * PHASE zsmalloc-model, gives the same for the fill's objects packed the
 * way zsmalloc (zram's allocator) lays out its size classes: classes 16
 * bytes apart from 32, each class in zspages of the 1-4 pages that waste
 * least (its get_pages_per_zspage()), objects spanning page boundaries.
 * It is arithmetic, not zsmalloc's code: no churn, no compaction.
 * Exit status 2 on bad input or options, 1 when an allocation fails.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xvmalloc.h"

XV_USER_ENV_DEFINE;

struct obj {
	struct xv_part part[2];
	int nparts;
	u32 size;
};

/* The link a split object's head would keep: tail page, offset, length. */
#define LINK_SIZE 12

static void die(const char *msg)
{
	fprintf(stderr, "xv-packing: error: %s\n", msg);
	exit(2);
}

static unsigned long arg_ul(const char *opt, const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-') {
		fprintf(stderr, "xv-packing: error: %s needs a number, not '%s'\n", opt, s);
		exit(2);
	}
	return v;
}

/* xorshift64* */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

struct tally {
	unsigned long objects, raw, same, split;
	uint64_t data;
};

/* 0: xv_malloc(); else xv_malloc_split() with this smallest head. */
static u32 split_min;

/* Store one page of compressed size @size: same-filled, raw or an object. */
static int store(struct xv_pool *pool, struct obj *o, u32 size, u32 max_zpage,
		 struct tally *t)
{
	o->size = size;
	o->nparts = 0;
	if (size == 0) {
		t->same++;
		return 0;
	}
	if (size > max_zpage) {
		t->raw++;
		return 0;
	}
	if (split_min) {
		o->nparts = xv_malloc_split(pool, size, split_min, LINK_SIZE,
					    o->part, GFP_NOIO);
		if (o->nparts < 0)
			return -1;
		if (o->nparts == 2)
			t->split++;
	} else {
		if (xv_malloc(pool, size, &o->part[0].page, &o->part[0].offset,
			      GFP_NOIO))
			return -1;
		o->nparts = 1;
	}
	t->objects++;
	t->data += size;
	return 0;
}

static void drop(struct xv_pool *pool, struct obj *o, u32 max_zpage,
		 struct tally *t)
{
	if (o->size == 0) {
		t->same--;
	} else if (o->size > max_zpage) {
		t->raw--;
	} else {
		int i;

		for (i = 0; i < o->nparts; i++)
			xv_free(pool, o->part[i].page, o->part[i].offset);
		if (o->nparts == 2)
			t->split--;
		t->objects--;
		t->data -= o->size;
	}
}

static void report(const char *phase, struct xv_pool *pool,
		   const struct tally *t)
{
	uint64_t pool_bytes = xv_get_total_size_bytes(pool);
	uint64_t used = pool_bytes + (uint64_t)t->raw * 4096;
	unsigned long pages = t->objects + t->raw + t->same;

	printf("%s objects=%lu raw_pages=%lu data_bytes=%" PRIu64
	       " pool_bytes=%" PRIu64 " free_pct=%.1f used_bytes=%" PRIu64
	       " bytes_per_page=%.0f split=%lu\n",
	       phase, t->objects, t->raw, t->data, pool_bytes,
	       pool_bytes ? 100.0 * (double)(pool_bytes - t->data) / (double)pool_bytes : 0.0,
	       used, pages ? (double)used / (double)pages : 0.0, t->split);
}

/*
 * Pages zsmalloc would hold for @count objects of class size @class: its
 * zspage of 1-4 pages with the least waste (the first such), full zspages.
 */
static uint64_t zs_model_pages(uint64_t count, u32 class)
{
	u32 best_pages = 1, best_used = 0, p;

	for (p = 1; p <= 4; p++) {
		u32 bytes = p * 4096;
		u32 used = (bytes - bytes % class) * 100 / bytes;

		if (used > best_used) {
			best_used = used;
			best_pages = p;
		}
	}
	return (count + best_pages * 4096 / class - 1) / (best_pages * 4096 / class) * best_pages;
}

/* The zsmalloc-model line for the objects stored now (see the header). */
static void report_zs_model(const struct obj *objs, unsigned long n,
			    u32 max_zpage, const struct tally *t)
{
	static uint64_t per_class[4096 / 16 + 1];
	uint64_t pages = 0, data = 0, used;
	unsigned long i, objects = 0;
	u32 c;

	memset(per_class, 0, sizeof(per_class));
	for (i = 0; i < n; i++) {
		u32 size = objs[i].size;

		if (size == 0 || size > max_zpage)
			continue;
		c = size < 32 ? 32 : (size + 15) / 16 * 16;
		per_class[c / 16]++;
		objects++;
		data += size;
	}
	for (c = 2; c <= 4096 / 16; c++)
		if (per_class[c])
			pages += zs_model_pages(per_class[c], c * 16);
	used = pages * 4096 + (uint64_t)t->raw * 4096;
	printf("fill zsmalloc-model objects=%lu raw_pages=%lu data_bytes=%" PRIu64
	       " pool_bytes=%" PRIu64 " free_pct=%.1f used_bytes=%" PRIu64
	       " bytes_per_page=%.0f\n",
	       objects, t->raw, data, pages * 4096,
	       pages ? 100.0 * (double)(pages * 4096 - data) / (double)(pages * 4096) : 0.0,
	       used, n ? (double)used / (double)n : 0.0);
}

int main(int argc, char **argv)
{
	unsigned long max_zpage = 2048, churn = 4, seed = 1, repeat = 1;
	unsigned long split_arg = 0;
	unsigned long n = 0, cap = 0, i;
	u32 *sizes = NULL;
	struct obj *objs;
	struct xv_pool *pool;
	struct tally t = { 0 };
	uint64_t rng;
	char line[64];
	int a;

	for (a = 1; a < argc; a++) {
		if (a + 1 < argc && !strcmp(argv[a], "--max-zpage"))
			max_zpage = arg_ul(argv[a], argv[a + 1]);
		else if (a + 1 < argc && !strcmp(argv[a], "--churn"))
			churn = arg_ul(argv[a], argv[a + 1]);
		else if (a + 1 < argc && !strcmp(argv[a], "--seed"))
			seed = arg_ul(argv[a], argv[a + 1]);
		else if (a + 1 < argc && !strcmp(argv[a], "--repeat"))
			repeat = arg_ul(argv[a], argv[a + 1]);
		else if (a + 1 < argc && !strcmp(argv[a], "--split"))
			split_arg = arg_ul(argv[a], argv[a + 1]);
		else
			die("usage: xv-packing [--max-zpage N] [--churn R] [--seed S] [--repeat K] [--split MIN] < SIZES");
		a++;
	}
	if (repeat < 1 || repeat > 1000)
		die("--repeat must be 1-1000");
	if (split_arg > 4096)
		die("--split must be 0-4096");
	split_min = (u32)split_arg;
	if (max_zpage > xv_max_alloc_size()) {
		fprintf(stderr, "xv-packing: error: --max-zpage %lu is above xvmalloc's largest object (%u)\n",
			max_zpage, xv_max_alloc_size());
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		char *end;
		unsigned long v;

		if (line[0] == '\n' || line[0] == '#')
			continue;
		errno = 0;
		v = strtoul(line, &end, 10);
		if (errno || end == line || (*end && *end != '\n') || line[0] == '-' || v > 4096) {
			fprintf(stderr, "xv-packing: error: line %lu: '%.*s' is not a size of 0-4096 bytes\n",
				n + 1, (int)strcspn(line, "\n"), line);
			free(sizes);
			return 2;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			u32 *more = realloc(sizes, cap * sizeof(*sizes));

			if (!more) {
				free(sizes);
				die("out of memory");
			}
			sizes = more;
		}
		sizes[n++] = (u32)v;
	}
	if (!n)
		die("no sizes on stdin");
	if (repeat > 1) {
		u32 *more = realloc(sizes, n * repeat * sizeof(*sizes));

		if (!more) {
			free(sizes);
			die("out of memory");
		}
		sizes = more;
		for (i = n; i < n * repeat; i++)
			sizes[i] = sizes[i % n];
		n *= repeat;
	}
	objs = calloc(n, sizeof(*objs));
	pool = xv_create_pool();
	if (!objs || !pool)
		die("out of memory");
	for (i = 0; i < n; i++) {
		if (store(pool, &objs[i], sizes[i], (u32)max_zpage, &t)) {
			fprintf(stderr, "xv-packing: xv_malloc of %u bytes failed\n", sizes[i]);
			return 1;
		}
	}
	report("fill", pool, &t);
	report_zs_model(objs, n, (u32)max_zpage, &t);
	rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	for (i = 0; i < churn * n; i++) {
		struct obj *o = &objs[rng_next(&rng) % n];
		u32 size = sizes[rng_next(&rng) % n];

		drop(pool, o, (u32)max_zpage, &t);
		if (store(pool, o, size, (u32)max_zpage, &t)) {
			fprintf(stderr, "xv-packing: xv_malloc of %u bytes failed\n", size);
			return 1;
		}
	}
	report("churn", pool, &t);
	for (i = 0; i < n; i++)
		drop(pool, &objs[i], (u32)max_zpage, &t);
	xv_destroy_pool(pool);
	free(objs);
	free(sizes);
	return 0;
}
