// SPDX-License-Identifier: GPL-2.0-only
/*
 * Standalone driver for LLVMFuzzerTestOneInput(), for compilers without
 * libFuzzer (gcc). Feeds random inputs from a seeded PRNG.
 *
 * usage: fuzz_xvmalloc_gcc [-s SEED] [-n ITERATIONS] [-t SECONDS] [-l MAXLEN]
 *        fuzz_xvmalloc_gcc FILE...     replay inputs (e.g. crash artifacts)
 *
 * Stops after ITERATIONS inputs or SECONDS seconds, whichever comes first
 * (time only bounds the run; nothing is asserted on it). A failing input
 * aborts the process; the seed and iteration are printed first so that it
 * can be reproduced, and the input is saved as crash-<seed>-<iteration>
 * in the current directory.
 */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static uint64_t rng_state;

static uint64_t rng(void)
{
	uint64_t x = rng_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint8_t *cur_buf;
static size_t cur_len;
static uint64_t cur_seed, cur_iter;

static void on_abort(int sig)
{
	char name[64];
	FILE *f;

	snprintf(name, sizeof(name), "crash-%llu-%llu",
		 (unsigned long long)cur_seed, (unsigned long long)cur_iter);
	f = fopen(name, "wb");
	if (f) {
		fwrite(cur_buf, 1, cur_len, f);
		fclose(f);
	}
	fprintf(stderr, "fuzz: failing input saved as %s\n", name);
	signal(sig, SIG_DFL);
	raise(sig);
}

static int replay(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		static uint8_t buf[1 << 20];
		size_t n;

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		fprintf(stderr, "fuzz: replaying %s (%zu bytes)\n", argv[i], n);
		LLVMFuzzerTestOneInput(buf, n);
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t seed = 1, iters = 100000, i;
	double seconds = 30, start;
	size_t maxlen = 4096;
	int opt;

	while ((opt = getopt(argc, argv, "s:n:t:l:")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			iters = strtoull(optarg, NULL, 0);
			break;
		case 't':
			seconds = atof(optarg);
			break;
		case 'l':
			maxlen = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr,
				"usage: %s [-s seed] [-n iterations] [-t seconds] [-l maxlen] [file...]\n",
				argv[0]);
			return 2;
		}
	}
	if (optind < argc)
		return replay(argc - optind, argv + optind);
	if (!maxlen)
		maxlen = 1;

	cur_buf = malloc(maxlen);
	if (!cur_buf)
		return 2;
	cur_seed = seed;
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	signal(SIGABRT, on_abort);
	start = now();
	for (i = 0; i < iters; i++) {
		size_t j;

		cur_iter = i;
		/* Mostly short programs, some long ones. */
		cur_len = rng() % 4 ? rng() % (maxlen / 8 + 1) :
				      rng() % (maxlen + 1);
		for (j = 0; j < cur_len; j++)
			cur_buf[j] = (uint8_t)rng();
		/* Bias some inputs towards allocation-heavy programs. */
		if (i % 3 == 0)
			for (j = 0; j < cur_len; j += 3)
				cur_buf[j] &= 0xf8 | (rng() % 3);
		LLVMFuzzerTestOneInput(cur_buf, cur_len);
		if ((i & 63) == 0 && now() - start > seconds)
			break;
	}
	fprintf(stderr, "fuzz: seed %llu: %llu inputs in %.1f s, all passed\n",
		(unsigned long long)seed, (unsigned long long)i,
		now() - start);
	free(cur_buf);
	return 0;
}
