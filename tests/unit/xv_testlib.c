// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared test helpers for xvmalloc; see xv_testlib.h.
 */
#include "xv_testlib.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The userspace kernel-API shim's state lives here, once per program. */
XV_USER_ENV_DEFINE;

void xv_env_reset(void)
{
	xv_user_env.pages_outstanding = 0;
	xv_user_env.pages_allocated = 0;
	xv_user_env.pages_failed = 0;
	xv_user_env.fail_after = -1;
	xv_user_env.alloc_page_hook = NULL;
	xv_user_env.alloc_page_hook_arg = NULL;
	xv_user_env.warnings = 0;
	xv_user_env.quiet_warn = false;
	xv_user_env.last_gfp = 0;
}

void xv_rng_seed(struct xv_rng *r, uint64_t seed)
{
	r->s = seed * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
	if (!r->s)
		r->s = 1;
}

uint64_t xv_rng_next(struct xv_rng *r)
{
	uint64_t x = r->s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

uint32_t xv_rng_range(struct xv_rng *r, uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(xv_rng_next(r) % ((uint64_t)hi - lo + 1));
}

/*
 * Object pattern: an LCG started from the object's seed, one byte per step,
 * so that each object's bytes depend on its seed and position.
 */
static inline u32 pattern_start(u32 seed)
{
	return seed * 0x9e3779b1u + 0x7f4a7c15u;
}

static inline u32 pattern_step(u32 x)
{
	return x * 1664525u + 1013904223u;
}

void xv_obj_fill(const struct xv_obj *o)
{
	u8 *base = kmap_local_page(o->page);
	u8 *p = base + o->offset;
	u32 i, x = pattern_start(o->seed);

	for (i = 0; i < o->size; i++) {
		x = pattern_step(x);
		p[i] = x >> 24;
	}
	kunmap_local(base);
}

bool xv_obj_verify(const struct xv_obj *o, char *err, size_t errlen)
{
	u8 *base = kmap_local_page(o->page);
	u8 *p = base + o->offset;
	u32 i, x = pattern_start(o->seed);
	bool ok = true;

	for (i = 0; i < o->size; i++) {
		x = pattern_step(x);
		if (p[i] != (u8)(x >> 24)) {
			snprintf(err, errlen,
				 "object <%p,%u> size %u: byte %u is 0x%02x, expected 0x%02x",
				 (void *)o->page, o->offset, o->size, i, p[i],
				 (u8)(x >> 24));
			ok = false;
			break;
		}
	}
	if (ok && xv_get_object_size(p) != o->size) {
		snprintf(err, errlen,
			 "object <%p,%u>: xv_get_object_size %u, expected %u",
			 (void *)o->page, o->offset, xv_get_object_size(p),
			 o->size);
		ok = false;
	}
	kunmap_local(base);
	return ok;
}

/* Checker */

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(struct page * const *)a;
	uintptr_t y = (uintptr_t)*(struct page * const *)b;

	return x < y ? -1 : x > y;
}

static int cmp_obj(const void *a, const void *b)
{
	const struct xv_obj *x = a, *y = b;

	if (x->page != y->page)
		return (uintptr_t)x->page < (uintptr_t)y->page ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

struct checker {
	struct page **pages;	/* distinct pages of live objects, sorted */
	size_t npages;
	struct xv_obj *objs;	/* live objects sorted by <page, offset> */
	size_t nobjs;
	struct xv_obj *free;	/* free list entries, sorted <page, offset> */
	size_t nfree;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3)))
static int fail(struct checker *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static bool known_page(struct checker *c, struct page *page)
{
	return bsearch(&page, c->pages, c->npages, sizeof(*c->pages),
		       cmp_ptr) != NULL;
}

static const struct xv_obj *find_obj(struct checker *c, struct page *page,
				     u32 offset)
{
	struct xv_obj key = { .page = page, .offset = offset };

	return bsearch(&key, c->objs, c->nobjs, sizeof(*c->objs), cmp_obj);
}

static bool on_free_list(struct checker *c, struct page *page, u32 offset)
{
	struct xv_obj key = { .page = page, .offset = offset };

	return bsearch(&key, c->free, c->nfree, sizeof(*c->free),
		       cmp_obj) != NULL;
}

static int check_bitmaps(struct checker *c, struct xv_pool *pool)
{
	size_t i, w;

	for (i = 0; i < XV_NUM_FREELISTS; i++) {
		bool bit = test_bit(i, pool->slbitmap);

		if (bit != (pool->head_page[i] != NULL))
			return fail(c, "free list %zu (size %u): bitmap bit %d but head %p",
				    i, xv_index_to_size(i), bit,
				    (void *)pool->head_page[i]);
	}
	for (i = XV_NUM_FREELISTS; i < XV_SL_WORDS * BITS_PER_LONG; i++)
		if (test_bit(i, pool->slbitmap))
			return fail(c, "second-level bit %zu beyond the lists", i);
	for (w = 0; w < BITS_PER_LONG; w++) {
		bool bit = (pool->flbitmap >> w) & 1;
		bool want = w < XV_SL_WORDS && pool->slbitmap[w];

		if (bit != want)
			return fail(c, "first-level bit %zu is %d, expected %d",
				    w, bit, want);
	}
	return 0;
}

static int check_lists(struct checker *c, struct xv_pool *pool)
{
	/* More entries than blocks can exist means a cycle. */
	size_t limit = c->npages * (PAGE_SIZE / XV_MIN_BLOCK_SIZE);
	size_t i;

	c->nfree = 0;
	c->free = malloc((limit + 1) * sizeof(*c->free));
	if (!c->free)
		return fail(c, "out of memory in checker");
	for (i = 0; i < XV_NUM_FREELISTS; i++) {
		struct page *page = pool->head_page[i];
		u32 off = pool->head_off[i];
		struct page *prev_page = NULL;
		u32 prev_off = 0;

		while (page) {
			struct xv_link link;
			u8 *base;
			u32 hdr;

			if (c->nfree >= limit)
				return fail(c, "free lists hold more blocks than can exist (cycle?)");
			c->free[c->nfree].page = page;
			c->free[c->nfree++].offset = off;
			if (!known_page(c, page))
				return fail(c, "free list %zu: block in page %p, which holds no live object",
					    i, (void *)page);
			if (off >= PAGE_SIZE || off % XV_ALIGN)
				return fail(c, "free list %zu: bad offset %u",
					    i, off);
			base = kmap_local_page(page);
			hdr = *xv_hdr_ptr(base, off);
			memcpy(&link, xv_link_ptr(base, off), sizeof(link));
			kunmap_local(base);
			if (!(hdr & XV_FREE))
				return fail(c, "free list %zu: block <%p,%u> not marked free",
					    i, (void *)page, off);
			if (xv_hdr_size(hdr) != xv_index_to_size(i))
				return fail(c, "free list %zu (size %u): block <%p,%u> has size %u",
					    i, xv_index_to_size(i),
					    (void *)page, off,
					    xv_hdr_size(hdr));
			if (link.prev_page != prev_page ||
			    (prev_page && link.prev_off != prev_off))
				return fail(c, "free list %zu: block <%p,%u> has a bad prev link",
					    i, (void *)page, off);
			prev_page = page;
			prev_off = off;
			page = link.next_page;
			off = link.next_off;
		}
	}
	qsort(c->free, c->nfree, sizeof(*c->free), cmp_obj);
	for (i = 1; i < c->nfree; i++)
		if (!cmp_obj(&c->free[i - 1], &c->free[i]))
			return fail(c, "block <%p,%u> is on the free lists twice",
				    (void *)c->free[i].page, c->free[i].offset);
	return 0;
}

static int check_page(struct checker *c, struct page *page, size_t *nfree,
		      size_t *nused)
{
	u8 *base = kmap_local_page(page);
	u32 off = 0, prev = 0;
	bool prev_free = false;
	size_t used_here = 0;
	int ret = 0;

	while (off < PAGE_SIZE) {
		u32 hdr = *xv_hdr_ptr(base, off);
		u32 size = xv_hdr_size(hdr);

		if (size < XV_MIN_BLOCK_SIZE || size > PAGE_SIZE - off) {
			ret = fail(c, "page %p: block at %u has bad size %u",
				   (void *)page, off, size);
			break;
		}
		if (off && xv_hdr_prev(hdr) != prev) {
			ret = fail(c, "page %p: block at %u: prev %u, expected %u",
				   (void *)page, off, xv_hdr_prev(hdr), prev);
			break;
		}
		if (!!(hdr & XV_PREV_FREE) != prev_free) {
			ret = fail(c, "page %p: block at %u: prev-free flag %d, expected %d",
				   (void *)page, off, !!(hdr & XV_PREV_FREE),
				   prev_free);
			break;
		}
		if (hdr & XV_FREE) {
			if (prev_free) {
				ret = fail(c, "page %p: adjacent free blocks at %u and %u (not merged)",
					   (void *)page, prev, off);
				break;
			}
			if (xv_hdr_slack(hdr)) {
				ret = fail(c, "page %p: free block at %u has slack",
					   (void *)page, off);
				break;
			}
			if (!on_free_list(c, page, off)) {
				ret = fail(c, "page %p: free block at %u is on no free list",
					   (void *)page, off);
				break;
			}
			++*nfree;
		} else {
			const struct xv_obj *o;
			u32 osize = size - XV_HDR_SIZE - xv_hdr_slack(hdr);

			o = find_obj(c, page, off + XV_HDR_SIZE);
			if (!o) {
				ret = fail(c, "page %p: used block at %u is no live object (leak)",
					   (void *)page, off);
				break;
			}
			if (xv_hdr_slack(hdr) > size - XV_HDR_SIZE - 1 ||
			    osize != o->size) {
				ret = fail(c, "page %p: block at %u records size %u, object has %u",
					   (void *)page, off, osize, o->size);
				break;
			}
			if (xv_block_size(o->size) > size ||
			    size - xv_block_size(o->size) >= XV_MIN_BLOCK_SIZE) {
				ret = fail(c, "page %p: block at %u of %u bytes for a %u byte object",
					   (void *)page, off, size, o->size);
				break;
			}
			++*nused;
			used_here++;
		}
		prev = off;
		prev_free = hdr & XV_FREE;
		off += size;
	}
	if (!ret && off != PAGE_SIZE)
		ret = fail(c, "page %p: blocks end at %u", (void *)page, off);
	if (!ret && !used_here)
		ret = fail(c, "page %p holds no object", (void *)page);
	kunmap_local(base);
	return ret;
}

int xv_check_pool(struct xv_pool *pool, const struct xv_obj *objs, size_t n,
		  bool check_env, char *err, size_t errlen)
{
	struct checker c = { .err = err, .errlen = errlen };
	size_t i, nfree_lists = 0, nfree_pages = 0, nused = 0;
	int ret = -1;

	c.objs = malloc((n ? n : 1) * sizeof(*c.objs));
	c.pages = malloc((n ? n : 1) * sizeof(*c.pages));
	if (!c.objs || !c.pages) {
		fail(&c, "out of memory in checker");
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!objs[i].page)
			continue;
		c.objs[c.nobjs++] = objs[i];
	}
	qsort(c.objs, c.nobjs, sizeof(*c.objs), cmp_obj);
	for (i = 0; i < c.nobjs; i++) {
		if (i && !cmp_obj(&c.objs[i - 1], &c.objs[i])) {
			fail(&c, "two live objects at <%p,%u>",
			     (void *)c.objs[i].page, c.objs[i].offset);
			goto out;
		}
		if (!c.npages || c.pages[c.npages - 1] != c.objs[i].page)
			c.pages[c.npages++] = c.objs[i].page;
	}
	/* c.objs is sorted by page first, so c.pages is sorted too. */

	if (pool->total_pages != c.npages) {
		fail(&c, "pool holds %" PRIu64 " pages, live objects are in %zu",
		     pool->total_pages, c.npages);
		goto out;
	}
	if (xv_get_total_size_bytes(pool) != c.npages * PAGE_SIZE) {
		fail(&c, "xv_get_total_size_bytes %" PRIu64 ", expected %zu",
		     xv_get_total_size_bytes(pool), c.npages * PAGE_SIZE);
		goto out;
	}
	if (check_env) {
		if (xv_user_env.pages_outstanding != (long)c.npages) {
			fail(&c, "%ld pages outstanding, live objects are in %zu",
			     xv_user_env.pages_outstanding, c.npages);
			goto out;
		}
		if (xv_user_thread.locks_held || xv_user_thread.kmap_depth) {
			fail(&c, "%d spinlocks and %d kmaps held between calls",
			     xv_user_thread.locks_held,
			     xv_user_thread.kmap_depth);
			goto out;
		}
	}
	if (check_bitmaps(&c, pool) || check_lists(&c, pool))
		goto out;
	nfree_lists = c.nfree;
	for (i = 0; i < c.npages; i++)
		if (check_page(&c, c.pages[i], &nfree_pages, &nused))
			goto out;
	if (nused != c.nobjs) {
		fail(&c, "%zu used blocks for %zu live objects", nused, c.nobjs);
		goto out;
	}
	if (nfree_pages != nfree_lists) {
		fail(&c, "%zu free blocks in pages, %zu on free lists",
		     nfree_pages, nfree_lists);
		goto out;
	}
	ret = 0;
out:
	free(c.objs);
	free(c.pages);
	free(c.free);
	return ret;
}
