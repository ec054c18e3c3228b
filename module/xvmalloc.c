// SPDX-License-Identifier: GPL-2.0-only
/*
 * xvmalloc: an O(1) allocator for objects of up to one page, built only
 * from order-0 pages, which may be highmem.
 *
 * Design (after compcache's xvmalloc, TLSF-like):
 *  - Each pool page is tiled by blocks. A block is a 4-byte header followed
 *    by the object; see xvmalloc_int.h for the header layout. Headers link
 *    every block to its neighbours in the same page (size to the next, a
 *    stored offset to the previous), so a freed block merges with free
 *    neighbours in O(1).
 *  - Free blocks sit on free lists, one per block size, XV_ALIGN (8) bytes
 *    apart. A two-level bitmap over the lists finds the smallest free
 *    block that fits with two find-first-bit operations: malloc and free
 *    are O(1).
 *  - Objects never span pages. Blocks are found as <struct page *, offset>
 *    and reached through short kmap_local_page() mappings, never kept
 *    across calls, so highmem pages work. So that the gaps this leaves at
 *    the ends of pages are used, xv_malloc_split() stores data that fits
 *    no free block as two objects, the first filling the largest free block.
 *  - The pool grows by one order-0 page at a time, allocated with the
 *    caller's gfp flags, and a page goes back to the page allocator as soon
 *    as it holds no object.
 *
 * Locking: one spinlock per pool (pool->lock) protects the free lists, the
 * bitmaps, the page count and every block header and free list link inside
 * the pool's pages. It is a plain spin_lock: the pool must not be used from
 * hard or soft interrupt context. It is never held across alloc_page(),
 * which may sleep with the GFP_NOIO the ramzswap driver passes from its I/O
 * path. kmap_local_page() mappings are taken and dropped inside the locked
 * sections, nested at most two deep, and released in reverse order.
 *
 * This file builds unchanged in the kernel and in userspace, where
 * xvmalloc_user.h emulates the kernel API, for the unit tests and fuzzer.
 */

#include "xvmalloc.h"
#include "xvmalloc_int.h"

/* Free list bitmaps (pool->lock held) */

static void xv_mark_list_nonempty(struct xv_pool *pool, u32 index)
{
	__set_bit(index, pool->slbitmap);
	__set_bit(index / BITS_PER_LONG, &pool->flbitmap);
}

static void xv_mark_list_empty(struct xv_pool *pool, u32 index)
{
	u32 word = index / BITS_PER_LONG;

	__clear_bit(index, pool->slbitmap);
	if (!pool->slbitmap[word])
		__clear_bit(word, &pool->flbitmap);
}

/*
 * Index of the first non-empty free list at or above @index, or -1 if there
 * is none. Constant time: one look at the second-level word of @index, then
 * one at the first-level bitmap. Called with pool->lock held.
 */
static int xv_find_list(struct xv_pool *pool, u32 index)
{
	u32 word = index / BITS_PER_LONG;
	unsigned long bits;

	bits = pool->slbitmap[word] & (~0UL << (index % BITS_PER_LONG));
	if (bits)
		return word * BITS_PER_LONG + __ffs(bits);

	if (word + 1 >= XV_SL_WORDS)
		return -1;
	/* word + 1 < XV_SL_WORDS <= BITS_PER_LONG: the shift is defined. */
	bits = pool->flbitmap & ~((2UL << word) - 1);
	if (!bits)
		return -1;
	word = __ffs(bits);
	return word * BITS_PER_LONG + __ffs(pool->slbitmap[word]);
}

/* Free list links (pool->lock held) */

static void xv_set_next(struct page *page, u32 off,
			struct page *next_page, u32 next_off)
{
	void *base = kmap_local_page(page);
	struct xv_link *link = xv_link_ptr(base, off);

	link->next_page = next_page;
	link->next_off = next_off;
	kunmap_local(base);
}

static void xv_set_prev(struct page *page, u32 off,
			struct page *prev_page, u32 prev_off)
{
	void *base = kmap_local_page(page);
	struct xv_link *link = xv_link_ptr(base, off);

	link->prev_page = prev_page;
	link->prev_off = prev_off;
	kunmap_local(base);
}

/*
 * Push the free block at @off of @page (mapped at @base) on the free list
 * of its size @block_size. Its header must already be written.
 */
static void xv_insert_block(struct xv_pool *pool, struct page *page,
			    void *base, u32 off, u32 block_size)
{
	u32 index = xv_size_to_index(block_size);
	struct xv_link *link = xv_link_ptr(base, off);

	link->prev_page = NULL;
	link->prev_off = 0;
	link->next_page = pool->head_page[index];
	link->next_off = pool->head_off[index];
	if (pool->head_page[index])
		xv_set_prev(pool->head_page[index], pool->head_off[index],
			    page, off);
	else
		xv_mark_list_nonempty(pool, index);
	pool->head_page[index] = page;
	pool->head_off[index] = off;
}

/* Unlink the free block at @off of @page (mapped at @base) of @block_size. */
static void xv_remove_block(struct xv_pool *pool, struct page *page,
			    void *base, u32 off, u32 block_size)
{
	u32 index = xv_size_to_index(block_size);
	struct xv_link *link = xv_link_ptr(base, off);
	struct page *prev_page = link->prev_page;
	struct page *next_page = link->next_page;
	u32 prev_off = link->prev_off;
	u32 next_off = link->next_off;

	if (prev_page) {
		xv_set_next(prev_page, prev_off, next_page, next_off);
	} else {
		WARN_ON_ONCE(pool->head_page[index] != page ||
			     pool->head_off[index] != off);
		pool->head_page[index] = next_page;
		pool->head_off[index] = next_off;
		if (!next_page)
			xv_mark_list_empty(pool, index);
	}
	if (next_page)
		xv_set_prev(next_page, next_off, prev_page, prev_off);
}

/*
 * Record in the header of the block at @off (of the page mapped at @base)
 * where its previous block starts and whether that one is free.
 */
static void xv_set_prev_block(void *base, u32 off, u32 prev, bool prev_free)
{
	u32 *hdr = xv_hdr_ptr(base, off);

	*hdr = (*hdr & ~(XV_PREV_FREE |
			 (XV_FIELD_MASK(XV_PREV_BITS) << XV_PREV_SHIFT))) |
		xv_mkhdr(0, prev, 0, prev_free ? XV_PREV_FREE : 0);
}

/*
 * Turn the free block of @free_size at @off of @page (mapped at @base, not
 * on any free list) into a used block for an object of @size bytes. The
 * tail is split off as a new free block if it can hold one; otherwise the
 * object keeps it as slack. @prev is the offset of the previous block.
 * Called with pool->lock held.
 */
static void xv_carve(struct xv_pool *pool, struct page *page, void *base,
		     u32 off, u32 prev, u32 free_size, u32 size)
{
	u32 block_size = xv_block_size(size);
	u32 rest = free_size - block_size;
	u32 next = off + free_size;

	if (rest >= XV_MIN_BLOCK_SIZE) {
		u32 tail = off + block_size;

		*xv_hdr_ptr(base, tail) = xv_mkhdr(rest, off, 0, XV_FREE);
		xv_insert_block(pool, page, base, tail, rest);
		/* The block after the tail still follows a free block. */
		if (next < PAGE_SIZE)
			xv_set_prev_block(base, next, tail, true);
	} else {
		block_size = free_size;
		if (next < PAGE_SIZE)
			xv_set_prev_block(base, next, off, false);
	}
	/* The block before a free block is never free: no XV_PREV_FREE. */
	*xv_hdr_ptr(base, off) = xv_mkhdr(block_size, prev,
					  block_size - XV_HDR_SIZE - size, 0);
}

/*
 * Take the first block of free list @index off the list and carve an object
 * of @size bytes from it; its page and block offset go to @page and @off.
 * Called with pool->lock held.
 */
static void xv_take_block(struct xv_pool *pool, u32 index, u32 size,
			  struct page **page, u32 *off)
{
	struct page *pg = pool->head_page[index];
	u32 o = pool->head_off[index];
	void *base = kmap_local_page(pg);
	u32 hdr = *xv_hdr_ptr(base, o);

	xv_remove_block(pool, pg, base, o, xv_hdr_size(hdr));
	xv_carve(pool, pg, base, o, xv_hdr_prev(hdr), xv_hdr_size(hdr), size);
	kunmap_local(base);
	*page = pg;
	*off = o;
}

/**
 * xv_max_alloc_size() - largest object size xv_malloc() accepts
 *
 * Return: PAGE_SIZE minus the 4-byte block header.
 */
u32 xv_max_alloc_size(void)
{
	return XV_MAX_ALLOC_SIZE;
}

/**
 * xv_create_pool() - create an empty pool
 *
 * Context: process context, may sleep. The pool metadata (about 5 KiB
 * with 4 KiB pages) comes from kzalloc() with GFP_KERNEL: a pool is created
 * at device setup, not in the I/O path. The pool holds no page until the
 * first xv_malloc().
 *
 * Return: the new pool, or NULL if out of memory.
 */
struct xv_pool *xv_create_pool(void)
{
	struct xv_pool *pool;

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	spin_lock_init(&pool->lock);
	return pool;
}

/**
 * xv_destroy_pool() - free a pool
 * @pool: pool to free, or NULL
 *
 * The caller must have freed every object first: pages are only reachable
 * through the objects in them, so a non-empty pool leaks its pages (and
 * warns).
 */
void xv_destroy_pool(struct xv_pool *pool)
{
	if (!pool)
		return;
	WARN_ON_ONCE(pool->total_pages);
	kfree(pool);
}

/**
 * xv_malloc() - allocate an object
 * @pool: pool to allocate from
 * @size: object size in bytes, 1 to xv_max_alloc_size()
 * @page: set to the page holding the object
 * @offset: set to the object's byte offset within @page
 * @flags: gfp flags for growing the pool by one order-0 page, if needed
 *
 * Takes the smallest free block that fits, in O(1). If there is none, the
 * pool grows by one page from alloc_page(@flags), with pool->lock dropped:
 * @flags may allow sleeping (the ramzswap driver passes GFP_NOIO |
 * __GFP_HIGHMEM from its I/O path, so reclaim cannot recurse into block
 * I/O). The object never crosses a page boundary; map @page with
 * kmap_local_page() to reach it.
 *
 * Context: process context; may sleep if @flags allows it.
 * Return: 0 on success, -EINVAL if @size is 0 or too large, -ENOMEM if the
 * pool had no room and no page could be allocated.
 */
int xv_malloc(struct xv_pool *pool, u32 size, struct page **page,
	      u32 *offset, gfp_t flags)
{
	struct page *pg;
	void *base;
	u32 block_size, off;
	int index;

	if (unlikely(!size || size > XV_MAX_ALLOC_SIZE))
		return -EINVAL;
	might_sleep_if(gfpflags_allow_blocking(flags));
	block_size = xv_block_size(size);

	spin_lock(&pool->lock);
	index = xv_find_list(pool, xv_size_to_index(block_size));
	if (index >= 0) {
		xv_take_block(pool, index, size, &pg, &off);
	} else {
		/*
		 * Grow by one order-0 page. alloc_page() may sleep and
		 * reclaim, so drop the lock around it. The object is then
		 * carved from the new page even if another thread freed room
		 * meanwhile: the rest of the page joins the free lists.
		 */
		spin_unlock(&pool->lock);
		pg = alloc_page(flags);
		if (unlikely(!pg))
			return -ENOMEM;
		spin_lock(&pool->lock);
		pool->total_pages++;
		off = 0;
		base = kmap_local_page(pg);
		xv_carve(pool, pg, base, off, 0, PAGE_SIZE, size);
		kunmap_local(base);
	}
	spin_unlock(&pool->lock);

	*page = pg;
	*offset = off + XV_HDR_SIZE;
	return 0;
}

/*
 * Index of the last (largest) non-empty free list, or -1 if there is none.
 * Constant time, like xv_find_list(). Called with pool->lock held.
 */
static int xv_last_list(struct xv_pool *pool)
{
	u32 word;

	if (!pool->flbitmap)
		return -1;
	word = __fls(pool->flbitmap);
	return word * BITS_PER_LONG + __fls(pool->slbitmap[word]);
}

/**
 * xv_malloc_split() - allocate @size bytes whole, or in two parts rather
 * than grow the pool
 * @pool: pool to allocate from
 * @size: bytes to store, 1 to xv_max_alloc_size()
 * @min_head: smallest head part worth splitting off (bytes of data)
 * @link_size: bytes at the start of a split head kept for the caller (to
 *	record where the tail is); not part of either part's data
 * @parts: on success parts[0] (and parts[1] for a split) get the page and
 *	offset to pass to xv_free() and the bytes of data in the part; a split
 *	head's data starts @link_size bytes after its offset
 * @flags: gfp flags for a new page, as for xv_malloc()
 *
 * When a free block holds @size, that is used, as xv_malloc() would. When
 * none does, objects of one page can leave a gap at the end of every page
 * that no object of the common sizes fits (three 1 KiB objects leave about
 * 900 bytes); so when the largest free block holds @link_size + @min_head
 * bytes, the head of the data goes there, filling that block exactly, and
 * the rest is allocated by xv_malloc() (from a free block or a new page).
 * Otherwise the object is allocated whole by xv_malloc().
 *
 * Context: as xv_malloc(); the head is carved under pool->lock, the lock is
 * dropped before the tail is allocated (which may sleep).
 * Return: the number of parts (1 or 2), -EINVAL for a bad @size, or
 * -ENOMEM as xv_malloc() (no part is left allocated then).
 */
int xv_malloc_split(struct xv_pool *pool, u32 size, u32 min_head,
		    u32 link_size, struct xv_part parts[2], gfp_t flags)
{
	struct page *pg;
	u32 block_size, off, head;
	int index, ret;

	if (unlikely(!size || size > XV_MAX_ALLOC_SIZE))
		return -EINVAL;
	might_sleep_if(gfpflags_allow_blocking(flags));
	block_size = xv_block_size(size);

	spin_lock(&pool->lock);
	index = xv_find_list(pool, xv_size_to_index(block_size));
	if (index >= 0) {
		/* A free block holds it whole: take it under this lock. */
		xv_take_block(pool, index, size, &pg, &off);
		spin_unlock(&pool->lock);
		parts[0].page = pg;
		parts[0].offset = off + XV_HDR_SIZE;
		parts[0].len = size;
		return 1;
	}
	index = xv_last_list(pool);
	if (index < 0)
		goto whole;
	/* The largest free block, used whole: no slack, no remainder. */
	head = xv_index_to_size(index) - XV_HDR_SIZE;
	if (head < link_size + min_head || head - link_size >= size)
		goto whole;
	xv_take_block(pool, index, head, &pg, &off);
	spin_unlock(&pool->lock);

	parts[0].page = pg;
	parts[0].offset = off + XV_HDR_SIZE;
	parts[0].len = head - link_size;
	parts[1].len = size - parts[0].len;
	ret = xv_malloc(pool, parts[1].len, &parts[1].page, &parts[1].offset,
			flags);
	if (unlikely(ret)) {
		xv_free(pool, parts[0].page, parts[0].offset);
		return ret;
	}
	return 2;

whole:
	/* No free block fits and none is worth splitting: grow the pool. */
	spin_unlock(&pool->lock);
	ret = xv_malloc(pool, size, &parts[0].page, &parts[0].offset, flags);
	if (unlikely(ret))
		return ret;
	parts[0].len = size;
	return 1;
}

/**
 * xv_free() - free an object
 * @pool: pool the object was allocated from
 * @page: page of the object, as returned by xv_malloc()
 * @offset: offset of the object, as returned by xv_malloc()
 *
 * Merges the block with free neighbours in its page and gives the page
 * back to the page allocator once no object is left in it. O(1). Obviously
 * bad arguments and double frees are detected as far as cheaply possible:
 * they warn and are ignored.
 *
 * Context: any context where the pool may be used; never sleeps.
 */
void xv_free(struct xv_pool *pool, struct page *page, u32 offset)
{
	void *base;
	u32 off, prev, block_size, next, hdr;
	bool page_empty = false;

	if (WARN_ON_ONCE(!page || offset < XV_HDR_SIZE ||
			 offset >= PAGE_SIZE ||
			 !IS_ALIGNED(offset - XV_HDR_SIZE, XV_ALIGN)))
		return;
	off = offset - XV_HDR_SIZE;

	spin_lock(&pool->lock);
	base = kmap_local_page(page);
	hdr = *xv_hdr_ptr(base, off);
	block_size = xv_hdr_size(hdr);
	prev = xv_hdr_prev(hdr);
	if (WARN_ON_ONCE((hdr & XV_FREE) || !block_size ||
			 block_size > PAGE_SIZE - off))
		goto out;

	/* Merge with the next block. */
	next = off + block_size;
	if (next < PAGE_SIZE) {
		u32 next_hdr = *xv_hdr_ptr(base, next);

		if (next_hdr & XV_FREE) {
			xv_remove_block(pool, page, base, next,
					xv_hdr_size(next_hdr));
			block_size += xv_hdr_size(next_hdr);
		}
	}

	/* Merge with the previous block. */
	if (hdr & XV_PREV_FREE) {
		u32 prev_hdr = *xv_hdr_ptr(base, prev);

		xv_remove_block(pool, page, base, prev, xv_hdr_size(prev_hdr));
		block_size += xv_hdr_size(prev_hdr);
		/* Stale header: make a second xv_free() of it warn. */
		*xv_hdr_ptr(base, off) = XV_FREE;
		off = prev;
		prev = xv_hdr_prev(prev_hdr);
	}

	if (block_size == PAGE_SIZE) {
		/* No object left: the page goes back to the kernel. */
		pool->total_pages--;
		page_empty = true;
		goto out;
	}

	*xv_hdr_ptr(base, off) = xv_mkhdr(block_size, prev, 0, XV_FREE);
	xv_insert_block(pool, page, base, off, block_size);
	next = off + block_size;
	if (next < PAGE_SIZE)
		xv_set_prev_block(base, next, off, true);
out:
	kunmap_local(base);
	spin_unlock(&pool->lock);
	if (page_empty)
		__free_page(page);
}

/**
 * xv_get_object_size() - size asked for when an object was allocated
 * @obj: mapped pointer to the object (page mapping + offset)
 *
 * Context: the caller owns the object; no lock is needed, as the header of
 * a used block only changes when the object is freed.
 * Return: the @size that was passed to xv_malloc().
 */
u32 xv_get_object_size(void *obj)
{
	u32 hdr = *(u32 *)((u8 *)obj - XV_HDR_SIZE);

	return xv_hdr_size(hdr) - XV_HDR_SIZE - xv_hdr_slack(hdr);
}

/**
 * xv_get_total_size_bytes() - memory held by a pool
 * @pool: the pool
 *
 * Return: the number of pages the pool holds, times PAGE_SIZE.
 */
u64 xv_get_total_size_bytes(struct xv_pool *pool)
{
	u64 pages;

	spin_lock(&pool->lock);
	pages = pool->total_pages;
	spin_unlock(&pool->lock);
	return pages * PAGE_SIZE;
}
