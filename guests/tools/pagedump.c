/*
 * pagedump - host-side helper: write N pages of one pagegen kind to stdout
 * (used to check per-page compressibility, see guests/README.md).
 * usage: pagedump KIND N [SEED]
 *   KIND = zero|text|random|code|data, or linux-mixed|winlike-mixed (the
 *   page mix of the guests' default profiles)
 * Every page is also self-checked: pg_verify() must accept it and must
 * reject it after a one-byte flip (exit 1 otherwise).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/pagegen.h"

int main(int argc, char **argv)
{
	static uint8_t page[PG_SIZE] __attribute__((aligned(8)));
	unsigned kind, i, n, seed;
	int mix = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: pagedump KIND N [SEED]\n");
		return 2;
	}
	for (kind = 0; kind < PG_KIND_COUNT; kind++)
		if (strcmp(argv[1], pg_kind_name(kind)) == 0)
			break;
	if (strcmp(argv[1], "linux-mixed") == 0)
		mix = 1;
	else if (strcmp(argv[1], "winlike-mixed") == 0)
		mix = 2;
	if (kind == PG_KIND_COUNT && !mix) {
		fprintf(stderr, "pagedump: unknown kind '%s'\n", argv[1]);
		return 2;
	}
	n = (unsigned)strtoul(argv[2], NULL, 0);
	seed = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 1u;
	for (i = 0; i < n; i++) {
		if (mix == 1)
			kind = pg_kind_linux_mixed(i, seed);
		else if (mix == 2)
			kind = pg_kind_winlike_mixed(i, seed);
		pg_fill(page, kind, i, 1, seed);
		if (pg_verify(page, kind, i, 1, seed) != PG_OK) {
			fprintf(stderr, "pagedump: self-verify failed page %u\n", i);
			return 1;
		}
		page[100] ^= 1;
		if (kind != PG_KIND_ZERO && pg_verify(page, kind, i, 1, seed) == PG_OK) {
			fprintf(stderr, "pagedump: corruption not detected page %u\n", i);
			return 1;
		}
		page[100] ^= 1;
		if (fwrite(page, 1, PG_SIZE, stdout) != PG_SIZE)
			return 1;
	}
	return 0;
}
