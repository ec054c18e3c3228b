/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the xvmalloc unit test files: the case results, the CHECK
 * macros, the harness (xv_test_harness.c) and the test case functions
 * (xv_test_layout.c, xv_test_errors.c, xv_test_stress.c) that the case
 * table in test_xvmalloc.c runs.
 */
#ifndef XV_TEST_CASES_H
#define XV_TEST_CASES_H

#include "xv_testlib.h"

#include <stdint.h>

#define GFP_DRIVER	(GFP_NOIO | __GFP_HIGHMEM)

enum { T_PASS, T_FAIL, T_SKIP };

/* Why the current case failed or was skipped; set by failf(). */
extern char reason[1024];
/* XV_TEST_SEED, or a fixed default. */
extern uint64_t seed;
/* Pattern seed of the next object that obj_alloc() fills. */
extern u32 next_seed;

/* Describe the failure in reason[]; returns T_FAIL. */
__attribute__((format(printf, 1, 2)))
int failf(const char *fmt, ...);

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

/* Object helpers (xv_test_harness.c) */
int obj_alloc(struct xv_pool *pool, struct xv_obj *o, u32 size);
void obj_free(struct xv_pool *pool, struct xv_obj *o);
void free_all(struct xv_pool *pool, struct xv_obj *objs, size_t n,
	      struct xv_rng *rng);
int free_all_and_destroy(struct xv_pool *pool, struct xv_obj *objs, size_t n,
			 struct xv_rng *rng);
u32 random_size(struct xv_rng *rng);
int check_no_overlap(const struct xv_obj *objs, size_t n);

/* Test cases: each returns T_PASS, T_FAIL or T_SKIP. */
/* xv_test_layout.c */
int t_limits(void);
int t_all_sizes(void);
int t_no_overlap(void);
int t_merging(void);
int t_pages_released(void);
int t_reuse_best_fit(void);
int t_split(void);
/* xv_test_errors.c */
int t_enomem(void);
int t_gfp_and_locking(void);
int t_bad_free(void);
/* xv_test_stress.c */
int t_fragmentation(void);
int t_churn(void);
int t_threads(void);

#endif /* XV_TEST_CASES_H */
