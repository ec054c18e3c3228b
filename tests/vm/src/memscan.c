// SPDX-License-Identifier: GPL-2.0-only
/*
 * memscan: a verifying anonymous-memory scanner for swap tests.
 *
 * Maps SIZE MB of anonymous memory and scans it PASSES times, cyclically
 * (every page touched once per pass, in order, like the "scan" benchmark of
 * linux-mm.org's PageReplacementTesting). Pass 1 writes generation 1 into
 * every page; pass n checks every page still holds generation n-1 and writes
 * generation n. A last pass checks the final generation. Any mismatch is
 * reported and makes the exit status 1.
 *
 *   memscan -m MB [-p PASSES] [-t zero|same|text|random|mixed] [-H]
 *           [-s STOPFILE] [-w WAITFILE] [-r READYFILE]
 *           [-d DONEFILE -e ENDFILE]
 *
 *   -H  ask for transparent huge pages (MADV_HUGEPAGE), as a VM's RAM gets
 *       them: reclaim can then swap 2 MiB at a time in one bio; without
 *       it the map is MADV_NOHUGEPAGE and swap traffic is 4 KiB pages
 *
 *   -s  stop early (then verify) once STOPFILE exists, checked per pass
 *   -w  after the passes, create READYFILE (-r) and wait for WAITFILE
 *       before the final check (for swapoff/exit tests)
 *   -d  after the final check, create DONEFILE and wait for ENDFILE (-e)
 *       before exiting, so that the pages stay mapped while a test looks
 *       at what swapping them in left behind
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "pattern.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int exists(const char *path)
{
	return path && access(path, F_OK) == 0;
}

/* Create @mark (if any), then wait until @wait exists. */
static void mark_and_wait(const char *mark, const char *what,
			  const char *wait)
{
	if (mark) {
		FILE *f = fopen(mark, "w");

		if (f)
			fclose(f);
	}
	printf("memscan: %s %s\n", what, wait);
	fflush(stdout);
	while (!exists(wait))
		usleep(200000);
}

static unsigned long check_page(uint64_t *page, uint64_t *expect, int mode,
				uint64_t index, uint64_t gen)
{
	pat_fill(expect, mode, index, gen);
	if (!memcmp(page, expect, PG))
		return 0;
	return 1;
}

int main(int argc, char **argv)
{
	unsigned long mb = 0, passes = 1, npages, i, bad = 0, pass;
	const char *stopfile = NULL, *waitfile = NULL, *readyfile = NULL;
	const char *donefile = NULL, *endfile = NULL;
	uint64_t expect[PG_WORDS];
	int mode = PAT_MIXED, huge = 0, c;
	unsigned char *mem;
	double t;

	while ((c = getopt(argc, argv, "m:p:t:Hs:w:r:d:e:")) != -1) {
		switch (c) {
		case 'm':
			mb = strtoul(optarg, NULL, 10);
			break;
		case 'p':
			passes = strtoul(optarg, NULL, 10);
			break;
		case 't':
			mode = pat_parse(optarg);
			break;
		case 'H':
			huge = 1;
			break;
		case 's':
			stopfile = optarg;
			break;
		case 'w':
			waitfile = optarg;
			break;
		case 'r':
			readyfile = optarg;
			break;
		case 'd':
			donefile = optarg;
			break;
		case 'e':
			endfile = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (!mb || !passes || mode < 0 ||
	    (donefile == NULL) != (endfile == NULL))
		goto usage;

	npages = mb * (1024 * 1024 / PG);
	mem = mmap(NULL, npages * PG, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	if (madvise(mem, npages * PG, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE))
		perror("madvise");	/* only the swap traffic's shape changes */

	for (pass = 1; pass <= passes; pass++) {
		unsigned long pbad = 0;

		if (pass > 1 && exists(stopfile)) {
			printf("memscan: stop file seen before pass %lu\n", pass);
			break;
		}
		t = now();
		for (i = 0; i < npages; i++) {
			uint64_t *page = (uint64_t *)(mem + i * PG);

			if (pass > 1 && check_page(page, expect, mode, i, pass - 1)) {
				if (pbad++ < 5)
					fprintf(stderr, "memscan: pass %lu page %lu corrupt (word0 %#llx word1 %#llx)\n",
						pass, i, (unsigned long long)page[0],
						(unsigned long long)page[1]);
			}
			pat_fill(page, mode, i, pass);
		}
		bad += pbad;
		printf("memscan: pass %lu/%lu %lu MB %.1f s, %lu bad pages\n",
		       pass, passes, mb, now() - t, pbad);
		fflush(stdout);
	}
	pass--;

	if (waitfile)
		mark_and_wait(readyfile, "waiting for", waitfile);

	t = now();
	for (i = 0; i < npages; i++) {
		uint64_t *page = (uint64_t *)(mem + i * PG);

		if (check_page(page, expect, mode, i, pass)) {
			if (bad++ < 10)
				fprintf(stderr, "memscan: final check page %lu corrupt\n", i);
		}
	}
	printf("memscan: final check %.1f s, total %lu bad pages\n", now() - t, bad);
	fflush(stdout);
	if (donefile)
		mark_and_wait(donefile, "holding the pages until", endfile);
	return bad ? 1 : 0;

usage:
	fprintf(stderr, "usage: memscan -m MB [-p PASSES] [-t zero|same|text|random|mixed] [-H] [-s STOPFILE] [-w WAITFILE [-r READYFILE]] [-d DONEFILE -e ENDFILE]\n");
	return 2;
}
