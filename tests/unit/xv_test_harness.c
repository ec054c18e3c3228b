// SPDX-License-Identifier: GPL-2.0-only
/*
 * Harness shared by the xvmalloc unit test cases (see test_xvmalloc.c):
 * the failure reason and seed, failf(), and the object helpers that
 * allocate, fill, free and check test objects for overlap.
 */
#include "xv_test_cases.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char reason[1024];
uint64_t seed = 20090801;

/* Declared with its printf format attribute in xv_test_cases.h. */
int failf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	return T_FAIL;
}

u32 next_seed = 1;

/* Allocate @size into @o and fill it; returns the xv_malloc() result. */
int obj_alloc(struct xv_pool *pool, struct xv_obj *o, u32 size)
{
	int ret;

	memset(o, 0, sizeof(*o));
	ret = xv_malloc(pool, size, &o->page, &o->offset, GFP_DRIVER);
	if (ret) {
		o->page = NULL;
		return ret;
	}
	o->size = size;
	o->seed = next_seed++;
	xv_obj_fill(o);
	return 0;
}

void obj_free(struct xv_pool *pool, struct xv_obj *o)
{
	xv_free(pool, o->page, o->offset);
	o->page = NULL;
}

/* Free every live object of @objs, in random order. */
void free_all(struct xv_pool *pool, struct xv_obj *objs, size_t n,
	      struct xv_rng *rng)
{
	size_t i;

	for (i = n; i > 1; i--) {
		size_t j = xv_rng_next(rng) % i;
		struct xv_obj t = objs[i - 1];

		objs[i - 1] = objs[j];
		objs[j] = t;
	}
	for (i = 0; i < n; i++)
		if (objs[i].page)
			obj_free(pool, &objs[i]);
}

/*
 * End a case: free every live object of @objs in random order, check that
 * the pool is then empty, free @objs and destroy the pool. Returns T_PASS,
 * or T_FAIL from the pool check (then @objs and the pool are left as they
 * are, as every failing case leaves them).
 */
int free_all_and_destroy(struct xv_pool *pool, struct xv_obj *objs, size_t n,
			 struct xv_rng *rng)
{
	free_all(pool, objs, n, rng);
	CHECK_POOL(pool, NULL, 0);
	free(objs);
	xv_destroy_pool(pool);
	return T_PASS;
}

/* Object sizes shaped like compressed pages: mostly 100..2500 bytes. */
u32 random_size(struct xv_rng *rng)
{
	switch (xv_rng_next(rng) % 8) {
	case 0:
		return xv_rng_range(rng, 1, 64);
	case 1:
		return xv_rng_range(rng, 1, xv_max_alloc_size());
	case 2:
		return xv_rng_range(rng, 2048, xv_max_alloc_size());
	default:
		return xv_rng_range(rng, 100, 2500);
	}
}

static int cmp_obj_pos(const void *a, const void *b)
{
	const struct xv_obj *x = a, *y = b;

	if (x->page != y->page)
		return (uintptr_t)x->page < (uintptr_t)y->page ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/*
 * No two live objects (plus the header in front of each) overlap, and
 * each lies inside its page.
 */
int check_no_overlap(const struct xv_obj *objs, size_t n)
{
	struct xv_obj *s = malloc((n ? n : 1) * sizeof(*s));
	size_t i, m = 0;
	int ret = T_PASS;

	if (!s)
		return failf("out of memory");
	for (i = 0; i < n; i++)
		if (objs[i].page)
			s[m++] = objs[i];
	qsort(s, m, sizeof(*s), cmp_obj_pos);
	for (i = 0; i < m && ret == T_PASS; i++) {
		if (s[i].offset < XV_HDR_SIZE ||
		    (u64)s[i].offset + s[i].size > PAGE_SIZE)
			ret = failf("object <%p,%u,%u> crosses its page",
				    (void *)s[i].page, s[i].offset, s[i].size);
		else if (i && s[i].page == s[i - 1].page &&
			 s[i - 1].offset + s[i - 1].size >
			 s[i].offset - XV_HDR_SIZE)
			ret = failf("objects <%p,%u,%u> and <%p,%u,%u> overlap",
				    (void *)s[i - 1].page, s[i - 1].offset,
				    s[i - 1].size, (void *)s[i].page,
				    s[i].offset, s[i].size);
	}
	free(s);
	return ret;
}
