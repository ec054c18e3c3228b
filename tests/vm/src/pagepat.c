// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagepat: write or verify deterministic page patterns on a block device
 * with O_DIRECT, one 4 KiB page per I/O.
 *
 *   pagepat write|verify DEV MODE SEED FIRST_PAGE NPAGES
 *
 * MODE is zero, same, text, random or mixed (see pattern.h). Exit status:
 * 0 all good, 1 data mismatch, 3 I/O errors (counted and reported), 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pattern.h"

int main(int argc, char **argv)
{
	unsigned long first, n, i, bad = 0, ioerr = 0;
	uint64_t *buf, *expect, seed;
	int fd, mode, write_mode;

	if (argc != 7)
		goto usage;
	if (!strcmp(argv[1], "write"))
		write_mode = 1;
	else if (!strcmp(argv[1], "verify"))
		write_mode = 0;
	else
		goto usage;
	mode = pat_parse(argv[3]);
	if (mode < 0)
		goto usage;
	seed = strtoull(argv[4], NULL, 0);
	first = strtoul(argv[5], NULL, 0);
	n = strtoul(argv[6], NULL, 0);

	fd = open(argv[2], (write_mode ? O_WRONLY : O_RDONLY) | O_DIRECT);
	if (fd < 0) {
		perror(argv[2]);
		return 2;
	}
	if (posix_memalign((void **)&buf, PG, PG) ||
	    posix_memalign((void **)&expect, PG, PG))
		return 2;

	for (i = first; i < first + n; i++) {
		ssize_t r;

		if (write_mode) {
			pat_fill(buf, mode, i, seed);
			r = pwrite(fd, buf, PG, (off_t)(i * PG));
		} else {
			r = pread(fd, buf, PG, (off_t)(i * PG));
		}
		if (r != (ssize_t)PG) {
			if (ioerr++ < 5)
				fprintf(stderr, "pagepat: %s page %lu: %s\n", argv[1], i,
					r < 0 ? strerror(errno) : "short I/O");
			continue;
		}
		if (!write_mode) {
			pat_fill(expect, mode, i, seed);
			if (memcmp(buf, expect, PG) && bad++ < 5)
				fprintf(stderr, "pagepat: page %lu mismatch (word0 %#llx)\n",
					i, (unsigned long long)buf[0]);
		}
	}
	if (write_mode && fsync(fd) && ioerr++ < 5)
		perror("pagepat: fsync");
	close(fd);
	printf("pagepat: %s %lu pages, %lu mismatches, %lu I/O errors\n",
	       argv[1], n, bad, ioerr);
	if (ioerr)
		return 3;
	return bad ? 1 : 0;

usage:
	fprintf(stderr, "usage: pagepat write|verify DEV zero|same|text|random|mixed SEED FIRST_PAGE NPAGES\n");
	return 2;
}
