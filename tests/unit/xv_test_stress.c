// SPDX-License-Identifier: GPL-2.0-only
/*
 * xvmalloc unit test cases under load: fragmentation of a random
 * workload (printed, not asserted), long random churn, and threads
 * sharing one pool.
 */
#include "xv_test_cases.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Fragmentation on a random workload with compressed-page-like sizes:
 * pages held versus the ideal (sum of object sizes). Printed as
 * information, not asserted.
 */
int t_fragmentation(void)
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
	return free_all_and_destroy(pool, objs, N, &rng);
}

/* Long random churn with the full checker run often. */
int t_churn(void)
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
	return free_all_and_destroy(pool, objs, N, &rng);
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

int t_threads(void)
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
