/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xvmalloc private definitions: block header layout, free list geometry and
 * the pool structure.
 *
 * Used by xvmalloc.c and by the userspace tests, which walk a pool to check
 * its invariants. Users of the allocator (the ramzswap driver) must only use
 * xvmalloc.h.
 */
#ifndef _XVMALLOC_INT_H_
#define _XVMALLOC_INT_H_

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/bug.h>
#include <linux/highmem.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#endif

#include "xvmalloc.h"

/*
 * Geometry.
 *
 * A pool page is cut into blocks that tile it from offset 0 to PAGE_SIZE.
 * Blocks start at multiples of XV_ALIGN and their sizes are multiples of
 * XV_ALIGN. Each block begins with a 4-byte header; the object handed out
 * by xv_malloc() starts right after it, so an object offset is always
 * 4 mod 8 and the largest object is PAGE_SIZE - 4.
 *
 * A free block keeps its free list links at XV_LINK_OFFSET from its start
 * (8-byte aligned, as the links hold page pointers).
 */
#define XV_ALIGN_SHIFT		3
#define XV_ALIGN		(1U << XV_ALIGN_SHIFT)
#define XV_HDR_SIZE		((u32)sizeof(u32))
#define XV_MIN_ALLOC_SIZE	32U
#define XV_MAX_ALLOC_SIZE	((u32)PAGE_SIZE - XV_HDR_SIZE)
#define XV_MIN_BLOCK_SIZE	ALIGN(XV_MIN_ALLOC_SIZE + XV_HDR_SIZE, XV_ALIGN)
#define XV_LINK_OFFSET		XV_ALIGN

/*
 * One free list per block size, XV_ALIGN bytes apart, from XV_MIN_BLOCK_SIZE
 * to PAGE_SIZE. A list holds blocks of exactly its size, so the first
 * non-empty list at or above the wanted size is a best fit.
 *
 * Two-level bitmap: bit i of slbitmap is set iff free list i is non-empty;
 * bit w of flbitmap is set iff slbitmap[w] is non-zero.
 */
#define XV_NUM_FREELISTS \
	((((u32)PAGE_SIZE - XV_MIN_BLOCK_SIZE) >> XV_ALIGN_SHIFT) + 1)
#define XV_SL_WORDS		BITS_TO_LONGS(XV_NUM_FREELISTS)

/*
 * Block header, one u32:
 *   size   block size / XV_ALIGN, header included (1 .. PAGE_SIZE/XV_ALIGN)
 *   prev   offset of the previous block in the page / XV_ALIGN (0 for the
 *          first block)
 *   slack  for a used block, block size - XV_HDR_SIZE - size asked for;
 *          0 for a free block
 *   XV_FREE       the block is free
 *   XV_PREV_FREE  the previous block is free (never set on the first block)
 * With 4 KiB pages: size bits 0-9, prev bits 10-18, slack bits 19-25,
 * flags bits 30 and 31.
 */
#define XV_SIZE_BITS		(PAGE_SHIFT - XV_ALIGN_SHIFT + 1)
#define XV_PREV_BITS		(PAGE_SHIFT - XV_ALIGN_SHIFT)
#define XV_SLACK_BITS		7
#define XV_SIZE_SHIFT		0
#define XV_PREV_SHIFT		(XV_SIZE_SHIFT + XV_SIZE_BITS)
#define XV_SLACK_SHIFT		(XV_PREV_SHIFT + XV_PREV_BITS)
#define XV_FIELD_MASK(bits)	((1U << (bits)) - 1)
#define XV_FREE			(1U << 30)
#define XV_PREV_FREE		(1U << 31)
/* Largest slack: padding of a 1-byte object plus an unsplit remainder. */
#define XV_MAX_SLACK \
	((XV_MIN_BLOCK_SIZE - XV_HDR_SIZE - 1) + (XV_MIN_BLOCK_SIZE - XV_ALIGN))

/* Links of a free block, at XV_LINK_OFFSET into the block. */
struct xv_link {
	struct page *prev_page;
	struct page *next_page;
	u16 prev_off;
	u16 next_off;
};

/*
 * struct xv_pool - an xvmalloc pool
 * @lock: protects every other field and the headers and links inside the
 *	pool's pages (the block layout of pages is only changed under it).
 *	Object contents are the caller's business. Never held across a page
 *	allocation, which may sleep.
 * @flbitmap: first-level bitmap, one bit per word of @slbitmap
 * @slbitmap: second-level bitmap, one bit per free list
 * @head_page: page of the first block of each free list (NULL: empty),
 *	indexed by xv_size_to_index() of the block size
 * @head_off: offset of the first block of each free list
 * @total_pages: pages currently held by the pool
 */
struct xv_pool {
	spinlock_t lock;
	unsigned long flbitmap;
	unsigned long slbitmap[XV_SL_WORDS];
	struct page *head_page[XV_NUM_FREELISTS];
	u16 head_off[XV_NUM_FREELISTS];
	u64 total_pages;
};

static_assert(XV_SL_WORDS <= BITS_PER_LONG, "first-level bitmap too small");
static_assert(XV_SLACK_SHIFT + XV_SLACK_BITS <= 30, "block header overflow");
static_assert(XV_FIELD_MASK(XV_SLACK_BITS) >= XV_MAX_SLACK, "slack field");
static_assert(PAGE_SIZE <= 65536, "free list links use 16-bit offsets");
static_assert(XV_LINK_OFFSET + sizeof(struct xv_link) <= XV_MIN_BLOCK_SIZE,
	      "free block links do not fit in the smallest block");

static inline u32 xv_hdr_size(u32 hdr)
{
	return ((hdr >> XV_SIZE_SHIFT) & XV_FIELD_MASK(XV_SIZE_BITS)) <<
		XV_ALIGN_SHIFT;
}

static inline u32 xv_hdr_prev(u32 hdr)
{
	return ((hdr >> XV_PREV_SHIFT) & XV_FIELD_MASK(XV_PREV_BITS)) <<
		XV_ALIGN_SHIFT;
}

static inline u32 xv_hdr_slack(u32 hdr)
{
	return (hdr >> XV_SLACK_SHIFT) & XV_FIELD_MASK(XV_SLACK_BITS);
}

static inline u32 xv_mkhdr(u32 size, u32 prev, u32 slack, u32 flags)
{
	return ((size >> XV_ALIGN_SHIFT) << XV_SIZE_SHIFT) |
		((prev >> XV_ALIGN_SHIFT) << XV_PREV_SHIFT) |
		(slack << XV_SLACK_SHIFT) | flags;
}

/* Header of the block at byte @off of the mapped page @base. */
static inline u32 *xv_hdr_ptr(void *base, u32 off)
{
	return (u32 *)((u8 *)base + off);
}

static inline struct xv_link *xv_link_ptr(void *base, u32 off)
{
	return (struct xv_link *)((u8 *)base + off + XV_LINK_OFFSET);
}

/* Free list index of a block size, and back. */
static inline u32 xv_size_to_index(u32 block_size)
{
	return (block_size - XV_MIN_BLOCK_SIZE) >> XV_ALIGN_SHIFT;
}

static inline u32 xv_index_to_size(u32 index)
{
	return XV_MIN_BLOCK_SIZE + (index << XV_ALIGN_SHIFT);
}

/* Block size needed for an object of @size bytes (1..XV_MAX_ALLOC_SIZE). */
static inline u32 xv_block_size(u32 size)
{
	return ALIGN(max_t(u32, size, XV_MIN_ALLOC_SIZE) + XV_HDR_SIZE,
		     XV_ALIGN);
}

#endif /* _XVMALLOC_INT_H_ */
