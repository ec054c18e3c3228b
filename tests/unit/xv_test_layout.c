// SPDX-License-Identifier: GPL-2.0-only
/*
 * xvmalloc unit test cases on where objects go: size limits, every size,
 * no overlap, merging of free neighbours, pages released, best-fit reuse
 * and xv_malloc_split().
 */
#include "xv_test_cases.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int t_limits(void)
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
int t_all_sizes(void)
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
	return free_all_and_destroy(pool, objs, max + 1, &rng);
}

/* Many random sizes: unique patterns survive, no two objects overlap. */
int t_no_overlap(void)
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
	return free_all_and_destroy(pool, objs, N, &rng);
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

int t_merging(void)
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
int t_pages_released(void)
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
int t_reuse_best_fit(void)
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

int t_split(void)
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
