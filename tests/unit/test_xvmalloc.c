// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for module/xvmalloc.c, built in userspace with the
 * xvmalloc_user.h shim.
 *
 * Usage: test_xvmalloc            run every case
 *        test_xvmalloc --list     print the case names
 *        test_xvmalloc NAME...    run the named cases
 *
 * Each case prints exactly one line to stdout:
 *   PASS xvmalloc/<name> | FAIL xvmalloc/<name>: <reason> |
 *   SKIP xvmalloc/<name>: <reason>
 * Informational output (seed, fragmentation figures) goes to stderr.
 * The seed is XV_TEST_SEED from the environment, or a fixed default.
 * Nothing is ever asserted on wall-clock time.
 */
#include "xv_testlib.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GFP_DRIVER	(GFP_NOIO | __GFP_HIGHMEM)

enum { T_PASS, T_FAIL, T_SKIP };

static char reason[1024];
static uint64_t seed = 20090801;

__attribute__((format(printf, 1, 2)))
static int failf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	return T_FAIL;
}

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			return failf(__VA_ARGS__);			\
	} while (0)

/* Run the pool checker; on failure, fail the case with its reason. */
#define CHECK_POOL(pool, objs, n)					\
	do {								\
		char e_[512];						\
		if (xv_check_pool(pool, objs, n, true, e_, sizeof(e_)))	\
			return failf("line %d: pool check: %s", __LINE__, e_); \
	} while (0)

#define CHECK_OBJ(o)							\
	do {								\
		char e_[512];						\
		if (!xv_obj_verify(o, e_, sizeof(e_)))			\
			return failf("line %d: %s", __LINE__, e_);	\
	} while (0)

static u32 next_seed = 1;

/* Allocate @size into @o and fill it; returns the xv_malloc() result. */
static int obj_alloc(struct xv_pool *pool, struct xv_obj *o, u32 size)
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

static void obj_free(struct xv_pool *pool, struct xv_obj *o)
{
	xv_free(pool, o->page, o->offset);
	o->page = NULL;
}

/* Free every live object of @objs, in random order. */
static void free_all(struct xv_pool *pool, struct xv_obj *objs, size_t n,
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

/* Object sizes shaped like compressed pages: mostly 100..2500 bytes. */
static u32 random_size(struct xv_rng *rng)
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
static int check_no_overlap(const struct xv_obj *objs, size_t n)
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

/* Test cases */

static int t_limits(void)
{
	struct xv_pool *pool = xv_create_pool();
	struct page *page = NULL;
	u32 off = 0;

	CHECK(pool, "xv_create_pool failed");
	CHECK(xv_max_alloc_size() == PAGE_SIZE - 4,
	      "xv_max_alloc_size() %u, expected PAGE_SIZE - 4",
	      xv_max_alloc_size());
	CHECK(xv_malloc(pool, 0, &page, &off, GFP_DRIVER) == -EINVAL,
	      "size 0 not rejected with -EINVAL");
	CHECK(xv_malloc(pool, xv_max_alloc_size() + 1, &page, &off,
			GFP_DRIVER) == -EINVAL,
	      "size max+1 not rejected with -EINVAL");
	CHECK(xv_malloc(pool, UINT32_MAX, &page, &off, GFP_DRIVER) == -EINVAL,
	      "size UINT32_MAX not rejected with -EINVAL");
	CHECK(xv_user_env.pages_allocated == 0,
	      "a page was allocated for an invalid size");
	CHECK(xv_get_total_size_bytes(pool) == 0, "empty pool has a size");
	xv_destroy_pool(pool);
	xv_destroy_pool(NULL);
	return T_PASS;
}

/* Every size from 1 to max allocates, round-trips and reports its size. */
static int t_all_sizes(void)
{
	u32 max = xv_max_alloc_size(), size;
	struct xv_pool *pool = xv_create_pool();
	struct xv_obj *objs = calloc(max + 1, sizeof(*objs));
	struct xv_rng rng;
	int ret;

	CHECK(pool && objs, "out of memory");
	xv_rng_seed(&rng, seed);
	/* One at a time: each object gets a fresh page. */
	for (size = 1; size <= max; size++) {
		struct xv_obj o;

		ret = obj_alloc(pool, &o, size);
		CHECK(!ret, "size %u: xv_malloc returned %d", size, ret);
		CHECK(o.offset % XV_ALIGN == XV_HDR_SIZE,
		      "size %u: offset %u is not 4 mod 8", size, o.offset);
		CHECK((u64)o.offset + size <= PAGE_SIZE,
		      "size %u at offset %u crosses the page", size, o.offset);
		CHECK_OBJ(&o);
		obj_free(pool, &o);
		CHECK(xv_user_env.pages_outstanding == 0,
		      "size %u: page not released after free", size);
	}
	/* All at once, ascending, then freed in random order. */
	for (size = 1; size <= max; size++) {
		ret = obj_alloc(pool, &objs[size], size);
		CHECK(!ret, "size %u: xv_malloc returned %d", size, ret);
	}
	CHECK_POOL(pool, objs, max + 1);
	for (size = 1; size <= max; size++)
		CHECK_OBJ(&objs[size]);
	ret = check_no_overlap(objs, max + 1);
	if (ret != T_PASS)
		return ret;
	free_all(pool, objs, max + 1, &rng);
	CHECK_POOL(pool, NULL, 0);
	free(objs);
	xv_destroy_pool(pool);
	return T_PASS;
}

/* Many random sizes: unique patterns survive, no two objects overlap. */
static int t_no_overlap(void)
{
	enum { N = 6000 };
	struct xv_pool *pool = xv_create_pool();
	struct xv_obj *objs = calloc(N, sizeof(*objs));
	struct xv_rng rng;
	size_t i;
	int round, ret;

	CHECK(pool && objs, "out of memory");
	xv_rng_seed(&rng, seed ^ 1);
	for (round = 0; round < 4; round++) {
		for (i = 0; i < N; i++) {
			if (objs[i].page)
				continue;
			ret = obj_alloc(pool, &objs[i], random_size(&rng));
			CHECK(!ret, "xv_malloc returned %d", ret);
		}
		for (i = 0; i < N; i++)
			CHECK_OBJ(&objs[i]);
		ret = check_no_overlap(objs, N);
		if (ret != T_PASS)
			return ret;
		CHECK_POOL(pool, objs, N);
		/* Free a random half, and check again. */
		for (i = 0; i < N; i++)
			if (xv_rng_next(&rng) & 1)
				obj_free(pool, &objs[i]);
		for (i = 0; i < N; i++)
			if (objs[i].page)
				CHECK_OBJ(&objs[i]);
		CHECK_POOL(pool, objs, N);
	}
	free_all(pool, objs, N, &rng);
	CHECK_POOL(pool, NULL, 0);
	free(objs);
	xv_destroy_pool(pool);
	return T_PASS;
}

/*
 * Four objects of 1020 bytes (1024-byte blocks) fill one page exactly.
 * Freeing neighbours in each order must merge them so that a larger
 * object fits in the same page, at the first freed block's place.
 */
static int merge_case(const int *free_order, int nfree, u32 big,
		      u32 expect_off)
{
	struct xv_pool *pool = xv_create_pool();
	struct xv_obj o[5], b;
	int i, ret;

	CHECK(pool, "out of memory");
	for (i = 0; i < 4; i++) {
		ret = obj_alloc(pool, &o[i], 1020);
		CHECK(!ret, "xv_malloc returned %d", ret);
		CHECK(o[i].page == o[0].page, "object %d not in the first page",
		      i);
		CHECK(o[i].offset == XV_HDR_SIZE + 1024 * (u32)i,
		      "object %d at offset %u", i, o[i].offset);
	}
	CHECK(xv_get_total_size_bytes(pool) == PAGE_SIZE,
	      "4 x 1020 bytes take %" PRIu64 " bytes",
	      xv_get_total_size_bytes(pool));
	CHECK_POOL(pool, o, 4);
	for (i = 0; i < nfree; i++) {
		obj_free(pool, &o[free_order[i]]);
		CHECK_POOL(pool, o, 4);
	}
	ret = obj_alloc(pool, &b, big);
	CHECK(!ret, "xv_malloc(%u) returned %d", big, ret);
	CHECK(b.page == o[free_order[0]].page || b.page == o[3].page ||
	      b.page == o[0].page,
	      "merged space not reused");
	o[4] = b;
	CHECK(xv_get_total_size_bytes(pool) == PAGE_SIZE,
	      "a %u-byte object did not fit in the merged space", big);
	CHECK(b.offset == expect_off, "%u-byte object at %u, expected %u",
	      big, b.offset, expect_off);
	CHECK_POOL(pool, o, 5);
	for (i = 0; i < 5; i++)
		if (o[i].page)
			CHECK_OBJ(&o[i]);
	for (i = 0; i < 5; i++)
		if (o[i].page)
			obj_free(pool, &o[i]);
	CHECK_POOL(pool, NULL, 0);
	xv_destroy_pool(pool);
	return T_PASS;
}

static int t_merging(void)
{
	static const int b_then_c[] = { 1, 2 }, c_then_b[] = { 2, 1 };
	static const int a_c_b[] = { 0, 2, 1 }, b_c_d[] = { 3, 1, 2 };
	static const int b_d_c[] = { 1, 3, 2 }, a_b[] = { 1, 0 };
	int ret;

	/* Merge with the previous block, then with the next one. */
	ret = merge_case(b_then_c, 2, 2044, 1024 + 4);
	if (ret == T_PASS)
		ret = merge_case(c_then_b, 2, 2044, 1024 + 4);
	/* Both neighbours at once: A and C free, then B. */
	if (ret == T_PASS)
		ret = merge_case(a_c_b, 3, 3068, 4);
	/* Free tail block (up to the end of the page). */
	if (ret == T_PASS)
		ret = merge_case(b_c_d, 3, 3068, 1024 + 4);
	if (ret == T_PASS)
		ret = merge_case(b_d_c, 3, 3068, 1024 + 4);
	/* First block of the page. */
	if (ret == T_PASS)
		ret = merge_case(a_b, 2, 2044, 4);
	return ret;
}

/* Freeing everything gives every page back; the counters agree. */
static int t_pages_released(void)
{
	enum { N = 5000 };
	struct xv_pool *pool = xv_create_pool();
	struct xv_obj *objs = calloc(N, sizeof(*objs));
	struct xv_rng rng;
	size_t i;
	int ret, round;

	CHECK(pool && objs, "out of memory");
	xv_rng_seed(&rng, seed ^ 2);
	for (round = 0; round < 3; round++) {
		for (i = 0; i < N; i++) {
			ret = obj_alloc(pool, &objs[i], random_size(&rng));
			CHECK(!ret, "xv_malloc returned %d", ret);
		}
		CHECK(xv_get_total_size_bytes(pool) ==
		      (u64)xv_user_env.pages_outstanding * PAGE_SIZE,
		      "total size %" PRIu64 " but %ld pages outstanding",
		      xv_get_total_size_bytes(pool),
		      xv_user_env.pages_outstanding);
		CHECK_POOL(pool, objs, N);
		free_all(pool, objs, N, &rng);
		CHECK(xv_user_env.pages_outstanding == 0,
		      "round %d: %ld pages still outstanding after freeing all",
		      round, xv_user_env.pages_outstanding);
		CHECK(xv_get_total_size_bytes(pool) == 0,
		      "round %d: total size %" PRIu64 " after freeing all",
		      round, xv_get_total_size_bytes(pool));
		CHECK(pool->flbitmap == 0, "free lists not empty");
	}
	/* A page is released as soon as its last object goes. */
	{
		struct xv_obj a, b;

		CHECK(!obj_alloc(pool, &a, 100) && !obj_alloc(pool, &b, 100),
		      "xv_malloc failed");
		CHECK(a.page == b.page, "two small objects in two pages");
		obj_free(pool, &a);
		CHECK(xv_user_env.pages_outstanding == 1, "page freed early");
		obj_free(pool, &b);
		CHECK(xv_user_env.pages_outstanding == 0,
		      "page kept after its last object was freed");
	}
	free(objs);
	xv_destroy_pool(pool);
	return T_PASS;
}

/* A freed block is reused for the same size (exact-size free lists). */
static int t_reuse_best_fit(void)
{
	struct xv_pool *pool = xv_create_pool();
	struct xv_obj o[6], x;
	int i;

	CHECK(pool, "out of memory");
	/* 100 (104-byte block), 32, 196 (200), 32, 60 (64), 32 */
	CHECK(!obj_alloc(pool, &o[0], 100) && !obj_alloc(pool, &o[1], 32) &&
	      !obj_alloc(pool, &o[2], 196) && !obj_alloc(pool, &o[3], 32) &&
	      !obj_alloc(pool, &o[4], 60) && !obj_alloc(pool, &o[5], 32),
	      "xv_malloc failed");
	for (i = 1; i < 6; i++)
		CHECK(o[i].page == o[0].page, "objects spread over pages");
	obj_free(pool, &o[0]);
	obj_free(pool, &o[2]);
	obj_free(pool, &o[4]);
	CHECK_POOL(pool, o, 6);
	/* 190 bytes need a 200-byte block: exactly the freed one. */
	CHECK(!obj_alloc(pool, &x, 190), "xv_malloc failed");
	CHECK(x.offset == 4 + 104 + 40,
	      "190 bytes went to %u, not the 200-byte hole", x.offset);
	o[2] = x;
	/* 50 bytes need 56: the smallest hole that fits is the 64 one. */
	CHECK(!obj_alloc(pool, &x, 50), "xv_malloc failed");
	CHECK(x.offset == 4 + 104 + 40 + 200 + 40,
	      "50 bytes went to %u, not the 64-byte hole", x.offset);
	o[4] = x;
	/* 70 bytes (80) go to the 104 hole; 24 left is kept as slack. */
	CHECK(!obj_alloc(pool, &x, 70), "xv_malloc failed");
	CHECK(x.offset == 4, "70 bytes went to %u, not the 104-byte hole",
	      x.offset);
	o[0] = x;
	CHECK_POOL(pool, o, 6);
	for (i = 0; i < 6; i++)
		CHECK_OBJ(&o[i]);
	CHECK(xv_user_env.pages_outstanding == 1, "pool grew needlessly");
	for (i = 0; i < 6; i++)
		obj_free(pool, &o[i]);
	CHECK_POOL(pool, NULL, 0);
	xv_destroy_pool(pool);
	return T_PASS;
}

/* alloc_page() failure gives -ENOMEM and leaves the pool consistent. */
/* Store @size with xv_malloc_split() as one or two test objects in @o[]. */
static int obj_alloc_split(struct xv_pool *pool, struct xv_obj o[2], u32 size,
			   u32 min_head, u32 link)
{
	struct xv_part parts[2];
	int n, i;

	memset(o, 0, 2 * sizeof(*o));
	n = xv_malloc_split(pool, size, min_head, link, parts, GFP_DRIVER);
	for (i = 0; i < n; i++) {
		o[i].page = parts[i].page;
		o[i].offset = parts[i].offset;
		/* The object xvmalloc recorded: a split head holds the link. */
		o[i].size = parts[i].len + (n == 2 && i == 0 ? link : 0);
		o[i].seed = next_seed++;
		xv_obj_fill(&o[i]);
	}
	return n;
}

static int t_split(void)
{
	enum { N = 2000, LINK = 12 };
	struct xv_pool *pool = xv_create_pool();
	struct xv_obj *objs = calloc(2 * N, sizeof(*objs));
	struct xv_obj o[8], s[2];
	struct xv_part parts[2];
	struct xv_rng rng;
	long pages;
	size_t i, splits = 0;
	int n, k;

	CHECK(pool && objs, "out of memory");
	/* Empty pool: nothing to split into, one part on a new page. */
	n = obj_alloc_split(pool, s, 1100, 64, LINK);
	CHECK(n == 1 && s[0].size == 1100, "empty pool: %d parts", n);
	/* Three 1100-byte objects (1104-byte blocks) leave 784 bytes. */
	CHECK(!obj_alloc(pool, &o[0], 1100) && !obj_alloc(pool, &o[1], 1100),
	      "xv_malloc failed");
	CHECK(o[0].page == s[0].page && o[1].page == s[0].page,
	      "objects spread over pages");
	pages = xv_user_env.pages_outstanding;
	/* A fit is used whole. */
	n = obj_alloc_split(pool, o + 2, 700, 64, LINK);
	CHECK(n == 1 && o[2].page == s[0].page, "700 bytes: %d parts", n);
	obj_free(pool, &o[2]);
	/* No fit: the head fills the 784-byte gap (780 + header). */
	n = obj_alloc_split(pool, o + 2, 1100, 64, LINK);
	CHECK(n == 2, "1100 bytes with a 784-byte gap: %d parts", n);
	CHECK(o[2].page == s[0].page && o[2].size == 780,
	      "head: page %s, object %u bytes (want the gap, 780)",
	      o[2].page == s[0].page ? "same" : "other", o[2].size);
	CHECK(o[3].size == 1100 - (780 - LINK) && o[3].page != s[0].page,
	      "tail: %u bytes", o[3].size);
	CHECK(xv_user_env.pages_outstanding == pages + 1,
	      "the tail took %ld pages", xv_user_env.pages_outstanding - pages);
	o[4] = s[0];
	CHECK_POOL(pool, o, 5);
	/* The largest gap (3760 after the tail) is below link + min_head: whole. */
	n = obj_alloc_split(pool, o + 5, 4000, 3800, LINK);
	CHECK(n == 1 && o[5].size == 4000, "4000 bytes, min head 3800: %d parts", n);
	/* Bad sizes. */
	CHECK(xv_malloc_split(pool, 0, 64, LINK, parts, GFP_DRIVER) == -EINVAL,
	      "size 0 accepted");
	CHECK(xv_malloc_split(pool, xv_max_alloc_size() + 1, 64, LINK, parts,
			      GFP_DRIVER) == -EINVAL, "size max + 1 accepted");
	/* No page for the tail: -ENOMEM and the head is given back. */
	CHECK(!obj_alloc(pool, &o[6], 2000), "xv_malloc failed");
	CHECK_POOL(pool, o, 7);
	xv_user_env.fail_after = 0;
	pages = xv_user_env.pages_outstanding;
	n = xv_malloc_split(pool, 3000, 64, LINK, parts, GFP_DRIVER);
	CHECK(n == -ENOMEM, "tail without a page: %d", n);
	CHECK(xv_user_env.pages_outstanding == pages, "pages changed");
	CHECK_POOL(pool, o, 7);
	xv_user_env.fail_after = -1;
	for (k = 0; k < 7; k++) {
		CHECK_OBJ(&o[k]);
		obj_free(pool, &o[k]);
	}
	CHECK_POOL(pool, NULL, 0);

	/* Churn of compressed-page-like sizes: parts intact, pool sound. */
	xv_rng_seed(&rng, seed ^ 11);
	for (i = 0; i < 40000; i++) {
		struct xv_obj *p = &objs[2 * (xv_rng_next(&rng) % N)];

		if (p[0].page) {
			CHECK_OBJ(&p[0]);
			obj_free(pool, &p[0]);
			if (p[1].page) {
				CHECK_OBJ(&p[1]);
				obj_free(pool, &p[1]);
			}
			continue;
		}
		n = obj_alloc_split(pool, p, xv_rng_range(&rng, 40, 3000), 64,
				    LINK);
		CHECK(n == 1 || n == 2, "xv_malloc_split returned %d", n);
		splits += n == 2;
		if (i % 4096 == 0)
			CHECK_POOL(pool, objs, 2 * N);
	}
	CHECK(splits > 0, "no object was split in the churn");
	CHECK_POOL(pool, objs, 2 * N);
	fprintf(stderr, "split: %zu of the churn's stores split\n", splits);
	for (i = 0; i < 2 * N; i++)
		if (objs[i].page) {
			CHECK_OBJ(&objs[i]);
			obj_free(pool, &objs[i]);
		}
	CHECK_POOL(pool, NULL, 0);
	xv_destroy_pool(pool);
	free(objs);
	return T_PASS;
}

static int t_enomem(void)
{
	enum { N = 3000 };
	struct xv_pool *pool = xv_create_pool();
	struct xv_obj *objs = calloc(N, sizeof(*objs));
	struct xv_obj o;
	struct xv_rng rng;
	long pages, enomem = 0;
	size_t i;
	int ret;

	CHECK(pool && objs, "out of memory");
	xv_rng_seed(&rng, seed ^ 3);

	/* Empty pool, no page to be had. */
	xv_user_env.fail_after = 0;
	ret = obj_alloc(pool, &o, 100);
	CHECK(ret == -ENOMEM, "empty pool: xv_malloc returned %d", ret);
	CHECK(xv_get_total_size_bytes(pool) == 0, "failed malloc left pages");
	CHECK_POOL(pool, NULL, 0);

	/* Some objects, then failure: what fits still fits. */
	xv_user_env.fail_after = -1;
	CHECK(!obj_alloc(pool, &objs[0], 1000), "xv_malloc failed");
	xv_user_env.fail_after = 0;
	pages = xv_user_env.pages_outstanding;
	ret = obj_alloc(pool, &objs[1], 2000);
	CHECK(!ret, "xv_malloc that fits returned %d", ret);
	ret = obj_alloc(pool, &objs[2], 2000);
	CHECK(ret == -ENOMEM, "xv_malloc that needs a page returned %d", ret);
	ret = obj_alloc(pool, &objs[2], xv_max_alloc_size());
	CHECK(ret == -ENOMEM, "xv_malloc(max) returned %d", ret);
	CHECK(xv_user_env.pages_outstanding == pages, "pages changed");
	CHECK_POOL(pool, objs, N);

	/* Random churn with random failure injection. */
	for (i = 0; i < 60000; i++) {
		struct xv_obj *p = &objs[xv_rng_next(&rng) % N];

		if (xv_rng_next(&rng) % 64 == 0)
			xv_user_env.fail_after = xv_rng_next(&rng) % 3 ?
				(long)(xv_rng_next(&rng) % 4) : -1;
		if (p->page) {
			CHECK_OBJ(p);
			obj_free(pool, p);
			continue;
		}
		ret = obj_alloc(pool, p, random_size(&rng));
		CHECK(!ret || (ret == -ENOMEM && xv_user_env.fail_after == 0),
		      "xv_malloc returned %d (fail_after %ld)", ret,
		      xv_user_env.fail_after);
		if (ret)
			enomem++;
		if (i % 5000 == 0)
			CHECK_POOL(pool, objs, N);
	}
	CHECK(enomem > 0, "failure injection never hit");
	CHECK_POOL(pool, objs, N);
	xv_user_env.fail_after = -1;
	for (i = 0; i < N; i++)
		if (objs[i].page)
			CHECK_OBJ(&objs[i]);
	free_all(pool, objs, N, &rng);
	CHECK_POOL(pool, NULL, 0);
	fprintf(stderr, "# xvmalloc/enomem: %ld allocations failed on purpose\n",
		enomem);
	free(objs);
	xv_destroy_pool(pool);
	return T_PASS;
}

struct gfp_record {
	long calls;
	long bad;
	gfp_t bad_flags;
	int bad_locks;
};

static bool record_gfp(gfp_t flags, void *arg)
{
	struct gfp_record *r = arg;

	r->calls++;
	if (flags != GFP_DRIVER || xv_user_thread.locks_held) {
		r->bad++;
		r->bad_flags = flags;
		r->bad_locks = xv_user_thread.locks_held;
	}
	return false;
}

/*
 * The pool grows with exactly the caller's gfp flags, one order-0 page per
 * call, never with the pool lock held. (The shim also aborts on a
 * blocking allocation under a spinlock and on unbalanced kmaps.)
 */
static int t_gfp_and_locking(void)
{
	enum { N = 2000 };
	struct xv_pool *pool = xv_create_pool();
	struct xv_obj *objs = calloc(N, sizeof(*objs));
	struct gfp_record rec = { 0 };
	struct xv_rng rng;
	size_t i;

	CHECK(pool && objs, "out of memory");
	xv_rng_seed(&rng, seed ^ 4);
	xv_user_env.alloc_page_hook = record_gfp;
	xv_user_env.alloc_page_hook_arg = &rec;
	for (i = 0; i < N; i++) {
		long before = xv_user_env.pages_allocated;

		CHECK(!obj_alloc(pool, &objs[i], random_size(&rng)),
		      "xv_malloc failed");
		CHECK(xv_user_env.pages_allocated - before <= 1,
		      "one xv_malloc allocated %ld pages",
		      xv_user_env.pages_allocated - before);
		CHECK(!xv_user_thread.kmap_depth && !xv_user_thread.locks_held,
		      "kmap or lock held after xv_malloc");
	}
	CHECK(rec.calls > 0, "no page allocated");
	CHECK(!rec.bad, "alloc_page called with flags %#x and %d locks held",
	      rec.bad_flags, rec.bad_locks);
	free_all(pool, objs, N, &rng);
	CHECK(!xv_user_thread.kmap_depth && !xv_user_thread.locks_held,
	      "kmap or lock held after xv_free");
	CHECK_POOL(pool, NULL, 0);
	free(objs);
	xv_destroy_pool(pool);
	return T_PASS;
}

/* Double frees and bad arguments warn and change nothing. */
static int t_bad_free(void)
{
	struct xv_pool *pool = xv_create_pool();
	struct xv_obj o[4];
	struct xv_obj dead;
	int i;

	CHECK(pool, "out of memory");
	xv_user_env.quiet_warn = true;
	for (i = 0; i < 4; i++)
		CHECK(!obj_alloc(pool, &o[i], 500), "xv_malloc failed");
	/* o[1] freed alone, then o[2] merges into it: free both again. */
	dead = o[1];
	obj_free(pool, &o[1]);
	xv_free(pool, dead.page, dead.offset);
	CHECK(xv_user_env.warnings == 1, "double free not detected");
	CHECK_POOL(pool, o, 4);
	dead = o[2];
	obj_free(pool, &o[2]);
	xv_free(pool, dead.page, dead.offset);
	CHECK(xv_user_env.warnings == 2,
	      "double free of a block merged into its previous one not detected");
	CHECK_POOL(pool, o, 4);
	/* Nonsense offsets. */
	xv_free(pool, o[0].page, 0);
	xv_free(pool, o[0].page, o[0].offset + 1);
	xv_free(pool, o[0].page, PAGE_SIZE);
	xv_free(pool, NULL, o[0].offset);
	CHECK(xv_user_env.warnings == 6, "bad xv_free arguments not detected");
	CHECK_POOL(pool, o, 4);
	for (i = 0; i < 4; i++)
		if (o[i].page) {
			CHECK_OBJ(&o[i]);
			obj_free(pool, &o[i]);
		}
	CHECK_POOL(pool, NULL, 0);
	xv_destroy_pool(pool);
	xv_user_env.warnings = 0;
	return T_PASS;
}

/*
 * Fragmentation on a random workload with compressed-page-like sizes:
 * pages held versus the ideal (sum of object sizes). Printed as
 * information, not asserted.
 */
static int t_fragmentation(void)
{
	enum { N = 20000, OPS = 200000 };
	struct xv_pool *pool = xv_create_pool();
	struct xv_obj *objs = calloc(N, sizeof(*objs));
	struct xv_rng rng;
	u64 live_bytes = 0, worst_pages = 0;
	double sum_ratio = 0;
	long samples = 0;
	size_t i;

	CHECK(pool && objs, "out of memory");
	xv_rng_seed(&rng, seed ^ 5);
	for (i = 0; i < OPS; i++) {
		struct xv_obj *p = &objs[xv_rng_next(&rng) % N];

		if (p->page) {
			live_bytes -= p->size;
			obj_free(pool, p);
		} else {
			/* 100..2048: pages that compress to <= 50% */
			CHECK(!obj_alloc(pool, p, xv_rng_range(&rng, 100, 2048)),
			      "xv_malloc failed");
			live_bytes += p->size;
		}
		if (i >= OPS / 4 && i % 1000 == 0) {
			u64 held = xv_get_total_size_bytes(pool);

			sum_ratio += (double)held / (double)live_bytes;
			samples++;
			if (held / PAGE_SIZE > worst_pages)
				worst_pages = held / PAGE_SIZE;
		}
	}
	for (i = 0; i < N; i++)
		if (objs[i].page)
			CHECK_OBJ(&objs[i]);
	CHECK_POOL(pool, objs, N);
	fprintf(stderr,
		"# xvmalloc/fragmentation: random workload, sizes 100..2048: "
		"pages held / live bytes = %.3f on average (%.1f%% above ideal), "
		"final %" PRIu64 " pages for %" PRIu64 " bytes, peak %" PRIu64 " pages\n",
		sum_ratio / samples, (sum_ratio / samples - 1) * 100,
		xv_get_total_size_bytes(pool) / PAGE_SIZE, live_bytes,
		worst_pages);
	free_all(pool, objs, N, &rng);
	CHECK_POOL(pool, NULL, 0);
	free(objs);
	xv_destroy_pool(pool);
	return T_PASS;
}

/* Long random churn with the full checker run often. */
static int t_churn(void)
{
	enum { N = 700, OPS = 40000 };
	struct xv_pool *pool = xv_create_pool();
	struct xv_obj *objs = calloc(N, sizeof(*objs));
	struct xv_rng rng;
	size_t i;

	CHECK(pool && objs, "out of memory");
	xv_rng_seed(&rng, seed ^ 6);
	for (i = 0; i < OPS; i++) {
		struct xv_obj *p = &objs[xv_rng_next(&rng) % N];

		if (p->page) {
			CHECK_OBJ(p);
			obj_free(pool, p);
		} else {
			u32 size = (i / 5000) % 2 ? xv_rng_range(&rng, 1, 200)
						  : random_size(&rng);

			CHECK(!obj_alloc(pool, p, size), "xv_malloc failed");
		}
		if (i % 200 == 0)
			CHECK_POOL(pool, objs, N);
	}
	free_all(pool, objs, N, &rng);
	CHECK_POOL(pool, NULL, 0);
	free(objs);
	xv_destroy_pool(pool);
	return T_PASS;
}

/* Threads sharing one pool (the shim's spinlock is a mutex). */
struct thread_arg {
	struct xv_pool *pool;
	uint64_t seed;
	char err[512];
	int failed;
};

static void *thread_main(void *p)
{
	enum { N = 300, OPS = 30000 };
	struct thread_arg *a = p;
	struct xv_obj objs[N];
	struct xv_rng rng;
	size_t i;

	memset(objs, 0, sizeof(objs));
	xv_rng_seed(&rng, a->seed);
	for (i = 0; i < OPS && !a->failed; i++) {
		struct xv_obj *o = &objs[xv_rng_next(&rng) % N];

		if (o->page) {
			if (!xv_obj_verify(o, a->err, sizeof(a->err)))
				a->failed = 1;
			xv_free(a->pool, o->page, o->offset);
			o->page = NULL;
			continue;
		}
		o->size = random_size(&rng);
		o->seed = (u32)xv_rng_next(&rng);
		if (xv_malloc(a->pool, o->size, &o->page, &o->offset,
			      GFP_DRIVER)) {
			snprintf(a->err, sizeof(a->err), "xv_malloc failed");
			a->failed = 1;
			o->page = NULL;
			break;
		}
		xv_obj_fill(o);
	}
	for (i = 0; i < N; i++) {
		if (!objs[i].page)
			continue;
		if (!a->failed && !xv_obj_verify(&objs[i], a->err,
						 sizeof(a->err)))
			a->failed = 1;
		xv_free(a->pool, objs[i].page, objs[i].offset);
	}
	return NULL;
}

static int t_threads(void)
{
	enum { T = 4 };
	struct xv_pool *pool = xv_create_pool();
	struct thread_arg args[T];
	pthread_t tid[T];
	int i;

	CHECK(pool, "out of memory");
	for (i = 0; i < T; i++) {
		args[i].pool = pool;
		args[i].seed = seed + 100 + i;
		args[i].failed = 0;
		CHECK(!pthread_create(&tid[i], NULL, thread_main, &args[i]),
		      "pthread_create failed");
	}
	for (i = 0; i < T; i++)
		pthread_join(tid[i], NULL);
	for (i = 0; i < T; i++)
		CHECK(!args[i].failed, "thread %d: %s", i, args[i].err);
	CHECK_POOL(pool, NULL, 0);
	xv_destroy_pool(pool);
	return T_PASS;
}

struct test_case {
	const char *name;
	int (*fn)(void);
};

static const struct test_case cases[] = {
	{ "limits", t_limits },
	{ "all_sizes", t_all_sizes },
	{ "no_overlap", t_no_overlap },
	{ "merging", t_merging },
	{ "pages_released", t_pages_released },
	{ "reuse_best_fit", t_reuse_best_fit },
	{ "enomem", t_enomem },
	{ "gfp_and_locking", t_gfp_and_locking },
	{ "bad_free", t_bad_free },
	{ "churn", t_churn },
	{ "threads", t_threads },
	{ "fragmentation", t_fragmentation },
	{ "split", t_split },
};

static int run_case(const struct test_case *t)
{
	int ret;

	xv_env_reset();
	reason[0] = 0;
	ret = t->fn();
	/* Postconditions common to all cases. */
	if (ret == T_PASS && xv_user_env.pages_outstanding)
		ret = failf("%ld pages still outstanding at the end",
			    xv_user_env.pages_outstanding);
	if (ret == T_PASS && xv_user_env.warnings)
		ret = failf("%ld unexpected warnings", xv_user_env.warnings);
	if (ret == T_PASS &&
	    (xv_user_thread.locks_held || xv_user_thread.kmap_depth))
		ret = failf("lock or kmap left held");
	switch (ret) {
	case T_PASS:
		printf("PASS xvmalloc/%s\n", t->name);
		break;
	case T_SKIP:
		printf("SKIP xvmalloc/%s: %s\n", t->name, reason);
		break;
	default:
		printf("FAIL xvmalloc/%s: %s [XV_TEST_SEED=%" PRIu64 "]\n",
		       t->name, reason, seed);
		break;
	}
	fflush(stdout);
	return ret == T_FAIL;
}

int main(int argc, char **argv)
{
	const char *env = getenv("XV_TEST_SEED");
	size_t i;
	int failed = 0, a;

	if (argc > 1 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			printf("%s\n", cases[i].name);
		return 0;
	}
	if (env && *env)
		seed = strtoull(env, NULL, 0);

	if (argc == 1) {
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			failed |= run_case(&cases[i]);
		return failed;
	}
	for (a = 1; a < argc; a++) {
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			if (!strcmp(argv[a], cases[i].name))
				break;
		if (i == ARRAY_SIZE(cases)) {
			printf("FAIL xvmalloc/%s: no such test case\n", argv[a]);
			failed = 1;
			continue;
		}
		failed |= run_case(&cases[i]);
	}
	return failed;
}
