/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xvmalloc: a memory allocator for variable sized objects of up to one page,
 * built only from order-0 (possibly highmem) pages.
 *
 * Objects are addressed as <page, offset>. The caller maps the page with
 * kmap_local_page() to reach the object. The same source builds in the
 * kernel and in userspace (see xvmalloc_user.h).
 */
#ifndef _XVMALLOC_H_
#define _XVMALLOC_H_

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/gfp.h>
#include <linux/mm_types.h>
#else
#include "xvmalloc_user.h"
#endif

struct xv_pool;

/* Largest object that xv_malloc() accepts (PAGE_SIZE minus the header). */
u32 xv_max_alloc_size(void);

struct xv_pool *xv_create_pool(void);
void xv_destroy_pool(struct xv_pool *pool);

/*
 * Allocate @size bytes. On success returns 0 and stores the object's page in
 * *@page and its byte offset within that page in *@offset. Returns -ENOMEM
 * when no page can be had with @flags, -EINVAL for a size of 0 or above
 * xv_max_alloc_size(). Never allocates more than one order-0 page per call.
 */
int xv_malloc(struct xv_pool *pool, u32 size, struct page **page,
	      u32 *offset, gfp_t flags);
/* One part of an object xv_malloc_split() stored: as xv_malloc() gives. */
struct xv_part {
	struct page *page;
	u32 offset;
	u32 len;	/* bytes of data in this part */
};

/*
 * Allocate @size bytes in one object, or, when no free block holds them but
 * the largest free block holds @link_size + @min_head bytes, in two: the
 * head fills that block (its first @link_size bytes are the caller's), the
 * tail comes from xv_malloc(). Returns the number of parts (1 or 2) or a
 * negative errno as xv_malloc(). Each part is freed with xv_free().
 */
int xv_malloc_split(struct xv_pool *pool, u32 size, u32 min_head,
		    u32 link_size, struct xv_part parts[2], gfp_t flags);
void xv_free(struct xv_pool *pool, struct page *page, u32 offset);

/* Size the caller asked for, given a mapped pointer to the object. */
u32 xv_get_object_size(void *obj);

/* Bytes of pages the pool holds now (pages * PAGE_SIZE). */
u64 xv_get_total_size_bytes(struct xv_pool *pool);

#endif /* _XVMALLOC_H_ */
