// SPDX-License-Identifier: GPL-2.0-only
/*
 * xvmalloc unit test cases on failures and misuse: page allocation
 * failure (-ENOMEM), the gfp flags and locking of page allocation, and
 * double or bad frees.
 */
#include "xv_test_cases.h"

#include <stdio.h>
#include <stdlib.h>

/* alloc_page() failure gives -ENOMEM and leaves the pool consistent. */
int t_enomem(void)
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
int t_gfp_and_locking(void)
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
int t_bad_free(void)
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
