/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the xvmalloc unit tests and the fuzzer: object
 * patterns, a small PRNG and a checker that walks a pool and verifies all
 * of its invariants against the set of live objects.
 */
#ifndef XV_TESTLIB_H
#define XV_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../module/xvmalloc.h"
#include "../../module/xvmalloc_int.h"

/* A live object as the test knows it. */
struct xv_obj {
	struct page *page;
	u32 offset;
	u32 size;
	u32 seed;	/* pattern seed */
};

/* xorshift64* PRNG */
struct xv_rng {
	uint64_t s;
};

void xv_rng_seed(struct xv_rng *r, uint64_t seed);
uint64_t xv_rng_next(struct xv_rng *r);
/* uniform in [lo, hi] */
uint32_t xv_rng_range(struct xv_rng *r, uint32_t lo, uint32_t hi);

/* Write / check the pattern of @o through kmap_local_page(). */
void xv_obj_fill(const struct xv_obj *o);
/* Returns true if intact; else describes the first bad byte in @err. */
bool xv_obj_verify(const struct xv_obj *o, char *err, size_t errlen);

/*
 * Check every invariant of @pool against the @n live objects @objs
 * (entries with page == NULL are ignored):
 *  - bitmaps agree with the free lists (both levels);
 *  - free lists are well linked, hold free blocks of exactly their size,
 *    and only in pages that hold at least one live object;
 *  - every page tiles exactly into blocks, prev offsets and prev-free flags
 *    are right, no two free blocks are adjacent, every used block is a
 *    live object with the right size and every live object is a used block;
 *  - the page count equals the number of distinct pages of live objects;
 *  - if @check_env, the shim's pages outstanding equal it too, and no
 *    spinlock or kmap is held.
 * Returns 0 if all hold, else -1 with a reason in @err.
 */
int xv_check_pool(struct xv_pool *pool, const struct xv_obj *objs, size_t n,
		  bool check_env, char *err, size_t errlen);

/* Reset the shim's counters and hooks (between test cases). */
void xv_env_reset(void);

#endif /* XV_TESTLIB_H */
