// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for module/xvmalloc.c (userspace build).
 *
 * The input is read as a program of operations on one pool and a table of
 * live objects: allocate (three size ranges, including invalid sizes),
 * free, rewrite an object with a new pattern, verify an object, make the
 * next few page allocations fail, and run the full pool checker. Every
 * object's pattern is verified before it is freed, every result code is
 * checked, and at the end everything is freed and every page must be back.
 *
 * Any failure abort()s, which libFuzzer (or the standalone driver)
 * reports as a crash. Build with clang -fsanitize=fuzzer,... or link with
 * standalone_main.c.
 */
#include "../unit/xv_testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OBJS	512
#define GFP_DRIVER	(GFP_NOIO | __GFP_HIGHMEM)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

struct input {
	const uint8_t *p;
	size_t len;
};

static bool take(struct input *in, uint8_t *b)
{
	if (!in->len)
		return false;
	*b = *in->p++;
	in->len--;
	return true;
}

static uint16_t take16(struct input *in)
{
	uint8_t lo = 0, hi = 0;

	take(in, &lo);
	take(in, &hi);
	return lo | (uint16_t)hi << 8;
}

#define die(...)							\
	do {								\
		fprintf(stderr, "fuzz_xvmalloc: " __VA_ARGS__);		\
		fputc('\n', stderr);					\
		abort();						\
	} while (0)

static void verify(const struct xv_obj *o)
{
	char err[512];

	if (!xv_obj_verify(o, err, sizeof(err)))
		die("data corrupted: %s", err);
}

static void check(struct xv_pool *pool, const struct xv_obj *objs, size_t n)
{
	char err[512];

	if (xv_check_pool(pool, objs, n, true, err, sizeof(err)))
		die("pool check: %s", err);
}

/*
 * Store @size with xv_malloc_split() (a 12-byte link, heads of 16 bytes or
 * more) as the object @o and, when split, a second free table entry for
 * the tail; each part is then an object of its own. Returns the objects
 * added.
 */
static size_t alloc_split(struct xv_pool *pool, struct xv_obj *objs,
			  struct xv_obj *o, u32 size, u32 *next_seed)
{
	struct xv_obj *t = NULL;
	struct xv_part parts[2];
	size_t i;
	int n;

	for (i = 1; i < MAX_OBJS && !t; i++) {
		t = &objs[(size_t)(o - objs + i) % MAX_OBJS];
		if (t->page)
			t = NULL;
	}
	if (!t)
		return 0;	/* no room for a tail in the table */
	n = xv_malloc_split(pool, size, 16, 12, parts, GFP_DRIVER);
	if (n == -ENOMEM && xv_user_env.fail_after == 0)
		return 0;
	if (n != 1 && n != 2)
		die("xv_malloc_split(%u) returned %d", size, n);
	if (parts[0].len + (n == 2 ? parts[1].len : 0) != size)
		die("xv_malloc_split(%u): parts of %u and %u bytes", size,
		    parts[0].len, n == 2 ? parts[1].len : 0);
	for (i = 0; i < (size_t)n; i++) {
		struct xv_obj *p = i ? t : o;

		p->page = parts[i].page;
		p->offset = parts[i].offset;
		p->size = parts[i].len + (n == 2 && !i ? 12 : 0);
		if (p->offset < XV_HDR_SIZE ||
		    (u64)p->offset + p->size > PAGE_SIZE)
			die("part <%u,%u> crosses its page", p->offset,
			    p->size);
		p->seed = (*next_seed)++;
		xv_obj_fill(p);
	}
	return (size_t)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static struct xv_obj objs[MAX_OBJS];
	struct input in = { data, len };
	struct xv_pool *pool;
	u32 max = xv_max_alloc_size();
	u32 next_seed = 1;
	size_t nlive = 0, i;
	uint8_t op, b;
	bool split;

	xv_env_reset();
	xv_user_env.abort_on_warn = true;
	memset(objs, 0, sizeof(objs));
	pool = xv_create_pool();
	if (!pool)
		die("xv_create_pool failed");

	while (take(&in, &op)) {
		struct xv_obj *o;
		u32 size;
		int ret;

		switch (op % 8) {
		case 0:		/* allocate, any size incl. 0 and max + 1 */
		case 1:		/* allocate a small object */
		case 2:		/* allocate a compressed-page-like object */
			size = take16(&in);
			split = op % 8 == 2 && (size & 0x8000);
			if (op % 8 == 0)
				size %= max + 2;
			else if (op % 8 == 1)
				size = 1 + size % 128;
			else
				size = 1 + size % 2560;
			o = &objs[(op >> 3) % MAX_OBJS];
			for (i = 0; o->page && i < MAX_OBJS; i++)
				o = &objs[((op >> 3) + i) % MAX_OBJS];
			if (o->page)
				break;	/* table full */
			if (split) {
				nlive += alloc_split(pool, objs, o, size,
						     &next_seed);
				break;
			}
			ret = xv_malloc(pool, size, &o->page, &o->offset,
					GFP_DRIVER);
			if (!size || size > max) {
				if (ret != -EINVAL)
					die("xv_malloc(%u) returned %d, not -EINVAL",
					    size, ret);
				o->page = NULL;
				break;
			}
			if (ret == -ENOMEM && xv_user_env.fail_after == 0) {
				o->page = NULL;
				break;
			}
			if (ret)
				die("xv_malloc(%u) returned %d", size, ret);
			if (o->offset < XV_HDR_SIZE ||
			    (u64)o->offset + size > PAGE_SIZE)
				die("object <%u,%u> crosses its page",
				    o->offset, size);
			o->size = size;
			o->seed = next_seed++;
			xv_obj_fill(o);
			nlive++;
			break;
		case 3:		/* free */
		case 4:
			if (!take(&in, &b))
				break;
			o = &objs[b % MAX_OBJS];
			if (!o->page)
				break;
			verify(o);
			xv_free(pool, o->page, o->offset);
			o->page = NULL;
			nlive--;
			break;
		case 5:		/* rewrite with a new pattern, verify another */
			if (!take(&in, &b))
				break;
			o = &objs[b % MAX_OBJS];
			if (o->page) {
				verify(o);
				o->seed = next_seed++;
				xv_obj_fill(o);
			}
			o = &objs[(b * 7u + 3) % MAX_OBJS];
			if (o->page)
				verify(o);
			break;
		case 6:		/* failure injection */
			if (!take(&in, &b))
				break;
			xv_user_env.fail_after = (b & 0x80) ? -1 : b % 4;
			break;
		case 7:		/* full check (1 in 4), else verify one */
			if (op % 32 != 7) {
				o = &objs[(op >> 5) * 61 % MAX_OBJS];
				if (o->page)
					verify(o);
				break;
			}
			check(pool, objs, MAX_OBJS);
			break;
		}
	}

	check(pool, objs, MAX_OBJS);
	for (i = 0; i < MAX_OBJS; i++) {
		if (!objs[i].page)
			continue;
		verify(&objs[i]);
		xv_free(pool, objs[i].page, objs[i].offset);
		objs[i].page = NULL;
		nlive--;
	}
	if (nlive)
		die("live object count off by %zu", nlive);
	check(pool, NULL, 0);
	if (xv_user_env.pages_outstanding || xv_get_total_size_bytes(pool))
		die("%ld pages not returned after freeing everything",
		    xv_user_env.pages_outstanding);
	if (xv_user_env.warnings)
		die("%ld warnings", xv_user_env.warnings);
	xv_destroy_pool(pool);
	return 0;
}
