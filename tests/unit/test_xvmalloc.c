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
 *
 * This file holds the case table, run_case() and main(); the harness is
 * in xv_test_harness.c and the cases in xv_test_layout.c,
 * xv_test_errors.c and xv_test_stress.c (declared in xv_test_cases.h).
 */
#include "xv_test_cases.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
