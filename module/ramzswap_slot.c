// SPDX-License-Identifier: GPL-2.0-only
/*
 * ramzswap: the slot table and the per-page read, write and free paths.
 *
 * One slot describes one PAGE_SIZE block of the device. A slot is empty,
 * same-filled (RZS_SAME: the repeated unsigned long is kept in the slot and
 * nothing is allocated), compressed in the xvmalloc pool (RZS_XV; in two
 * parts with RZS_SPLIT, see rzs_store_compressed()), stored
 * uncompressed in a page of its own (RZS_RAW), or forwarded to a block of the
 * backing device (RZS_BDEV; the block number is kept in the slot).
 *
 * Every slot access is done under the slot's bit spinlock (RZS_LOCK), which
 * disables preemption: only non-sleeping work happens under it. Slots are
 * never freed from the read path (swap may read a slot that it still needs,
 * e.g. SWP_SYNCHRONOUS_IO swap-in racing with fork); they are freed by an
 * overwrite, discard/write-zeroes, swap_slot_free_notify or reset.
 */
#define pr_fmt(fmt) "ramzswap: " fmt

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/highmem.h>
#include <linux/bit_spinlock.h>
#include <linux/vmalloc.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "ramzswap_drv.h"
#include "ramzswap_comp.h"
#include "xvmalloc.h"

/*
 * xvmalloc pages and raw pages may come from highmem. The first attempt
 * never sleeps: for xvmalloc because a compression stream is held
 * (preemption disabled), for raw pages because a sleeping allocation is a
 * voluntary preemption point (might_alloc()), and with Debian's
 * PREEMPT_VOLUNTARY a write that passes one while another task is waiting
 * for the CPU gives it a whole time slice (under global memory pressure
 * that made ramzswap's swap writes take 4-16 ms ten times as often as
 * zram's, which tries its huge pages without sleeping first too).
 * The retry may sleep, but must not start I/O since we may be writing out
 * swap on behalf of reclaim.
 */
#define RZS_GFP_ATOMIC	(GFP_NOWAIT | __GFP_NOWARN | __GFP_HIGHMEM)
#define RZS_GFP_SLEEP	(GFP_NOIO | __GFP_NOWARN | __GFP_HIGHMEM)

static inline void rzs_slot_lock(struct ramzswap *rzs, u32 index)
{
	bit_spin_lock(RZS_LOCK, &rzs->table[index].flags);
}

static inline bool rzs_slot_trylock(struct ramzswap *rzs, u32 index)
{
	return bit_spin_trylock(RZS_LOCK, &rzs->table[index].flags);
}

static inline void rzs_slot_unlock(struct ramzswap *rzs, u32 index)
{
	bit_spin_unlock(RZS_LOCK, &rzs->table[index].flags);
}

static inline bool rzs_test_flag(struct ramzswap *rzs, u32 index,
				 enum rzs_slot_flag flag)
{
	return rzs->table[index].flags & BIT(flag);
}

static inline u32 rzs_get_size(struct ramzswap *rzs, u32 index)
{
	return rzs->table[index].flags & RZS_SIZE_MASK;
}

static inline u32 rzs_get_offset(struct ramzswap *rzs, u32 index)
{
	return (rzs->table[index].flags >> RZS_OFFSET_SHIFT) & RZS_SIZE_MASK;
}

/*
 * Replace size, offset and state flags; keeps RZS_LOCK. Slot lock held.
 * RZS_SPLIT stands for a split object in the pool: RZS_XV and RZS_SPLIT.
 */
static inline void rzs_set_slot(struct ramzswap *rzs, u32 index,
				enum rzs_slot_flag flag, u32 size, u32 offset)
{
	unsigned long *flags = &rzs->table[index].flags;
	unsigned long state = BIT(flag);

	if (flag == RZS_SPLIT)
		state |= BIT(RZS_XV);
	*flags = (*flags & BIT(RZS_LOCK)) | state | size |
		 ((unsigned long)offset << RZS_OFFSET_SHIFT);
}

int rzs_meta_alloc(struct ramzswap *rzs, u64 disksize)
{
	BUILD_BUG_ON(RZS_FLAG_MAX > BITS_PER_LONG);

	rzs->nr_slots = disksize >> PAGE_SHIFT;
	rzs->table = vzalloc(array_size(rzs->nr_slots, sizeof(*rzs->table)));
	if (!rzs->table)
		return -ENOMEM;

	rzs->pool = xv_create_pool();
	if (!rzs->pool) {
		vfree(rzs->table);
		rzs->table = NULL;
		return -ENOMEM;
	}
	return 0;
}

u64 rzs_mem_used_pages(struct ramzswap *rzs)
{
	if (!rzs->pool)
		return 0;
	return (xv_get_total_size_bytes(rzs->pool) >> PAGE_SHIFT) +
		atomic64_read(&rzs->stats.raw_pages);
}

/* Read the link at the start of the split head at @offset of @head. */
static void rzs_get_link(struct page *head, u32 offset,
			 struct rzs_split_link *link)
{
	void *base = kmap_local_page(head);

	memcpy(link, base + offset, sizeof(*link));
	kunmap_local(base);
}

/*
 * Release whatever @index holds; returns false if it was empty. Slot lock
 * held (or device quiesced). Never sleeps: xv_free() and __free_page() are
 * safe in atomic context.
 */
static bool rzs_free_slot(struct ramzswap *rzs, u32 index)
{
	struct rzs_slot *slot = &rzs->table[index];
	u32 size = rzs_get_size(rzs, index);

	if (rzs_test_flag(rzs, index, RZS_SAME)) {
		atomic64_dec(&rzs->stats.same_pages);
	} else if (rzs_test_flag(rzs, index, RZS_XV)) {
		if (rzs_test_flag(rzs, index, RZS_SPLIT)) {
			struct rzs_split_link link;

			rzs_get_link(slot->page, rzs_get_offset(rzs, index),
				     &link);
			xv_free(rzs->pool, link.tail_page, link.tail_offset);
			atomic64_dec(&rzs->stats.split_pages);
		}
		xv_free(rzs->pool, slot->page, rzs_get_offset(rzs, index));
		atomic64_dec(&rzs->stats.pages_stored);
		atomic64_sub(size, &rzs->stats.compr_data_size);
		if (size <= RZS_GOOD_COMPRESS)
			atomic64_dec(&rzs->stats.good_compress);
	} else if (rzs_test_flag(rzs, index, RZS_RAW)) {
		__free_page(slot->page);
		atomic64_dec(&rzs->stats.pages_stored);
		atomic64_dec(&rzs->stats.raw_pages);
		atomic64_sub(size, &rzs->stats.compr_data_size);
	} else if (rzs_test_flag(rzs, index, RZS_BDEV)) {
		rzs_backing_put_block(rzs, slot->block);
		atomic64_dec(&rzs->stats.bd_count);
	} else {
		return false;
	}

	slot->page = NULL;
	slot->flags &= BIT(RZS_LOCK);
	return true;
}

/* Device has no users any more (reset/remove): free every slot. */
void rzs_meta_free(struct ramzswap *rzs)
{
	unsigned long i;

	if (rzs->table) {
		for (i = 0; i < rzs->nr_slots; i++) {
			rzs_free_slot(rzs, i);
			if (!(i % 4096))
				cond_resched();
		}
	}
	if (rzs->pool)
		xv_destroy_pool(rzs->pool);
	rzs->pool = NULL;
	vfree(rzs->table);
	rzs->table = NULL;
	rzs->nr_slots = 0;
}

void rzs_free_range(struct ramzswap *rzs, u32 index, u32 count)
{
	bool freed;
	u32 i;

	for (i = 0; i < count; i++) {
		rzs_slot_lock(rzs, index + i);
		freed = rzs_free_slot(rzs, index + i);
		rzs_slot_unlock(rzs, index + i);
		if (freed)
			atomic64_inc(&rzs->stats.pages_discard);
		if (!(i % 4096))
			cond_resched();
	}
}

/*
 * Called by swap with its own locks held (atomic context): only a trylock.
 * If the slot is busy it is in use by I/O and will be freed by the next
 * overwrite or discard instead.
 */
void rzs_slot_free_notify(struct ramzswap *rzs, unsigned long index)
{
	atomic64_inc(&rzs->stats.notify_free);
	if (index >= rzs->nr_slots)
		return;
	if (!rzs_slot_trylock(rzs, index)) {
		atomic64_inc(&rzs->stats.miss_free);
		return;
	}
	rzs_free_slot(rzs, index);
	rzs_slot_unlock(rzs, index);
}

static bool rzs_page_same_filled(const void *ptr, unsigned long *element)
{
	const unsigned long *words = ptr;
	unsigned long val = words[0];
	unsigned int last = PAGE_SIZE / sizeof(*words) - 1;
	unsigned int i;

	/* Cheap early out: most pages differ at their ends. */
	if (words[last] != val)
		return false;
	for (i = 1; i < last; i++)
		if (words[i] != val)
			return false;
	*element = val;
	return true;
}

/*
 * Copy the @size bytes of a split object, whose head is mapped at @head,
 * into @buf (RZS_COMP_BUF_SIZE). Slot lock held, so neither part can be
 * freed meanwhile. Returns -EIO if the link does not add up to @size.
 */
static int rzs_gather_split(const void *head, u32 size, u8 *buf)
{
	struct rzs_split_link link;
	u32 head_len;
	void *tail;

	memcpy(&link, head, sizeof(link));
	if (unlikely(!link.tail_page || link.tail_len >= size))
		return -EIO;
	head_len = size - link.tail_len;
	memcpy(buf, head + sizeof(link), head_len);
	tail = kmap_local_page(link.tail_page);
	memcpy(buf + head_len, tail + link.tail_offset, link.tail_len);
	kunmap_local(tail);
	return 0;
}

static int __rzs_read(struct ramzswap *rzs, struct page *page, u32 index,
		      struct bio *parent)
{
	struct rzs_slot *slot = &rzs->table[index];
	struct rzs_strm *strm;
	void *src, *dst;
	u32 size;
	int ret;

	rzs_slot_lock(rzs, index);

	if (rzs_test_flag(rzs, index, RZS_BDEV)) {
		unsigned long block = slot->block;

		rzs_slot_unlock(rzs, index);
		return rzs_backing_submit(rzs, page, block, parent);
	}

	if (rzs_test_flag(rzs, index, RZS_SAME)) {
		unsigned long element = slot->element;

		rzs_slot_unlock(rzs, index);
		dst = kmap_local_page(page);
		memset_l(dst, element, PAGE_SIZE / sizeof(unsigned long));
		kunmap_local(dst);
		return 0;
	}

	if (rzs_test_flag(rzs, index, RZS_RAW)) {
		copy_highpage(page, slot->page);
		rzs_slot_unlock(rzs, index);
		return 0;
	}

	if (!rzs_test_flag(rzs, index, RZS_XV)) {
		/* Never written (or freed): reads as zeros. */
		rzs_slot_unlock(rzs, index);
		clear_highpage(page);
		return 0;
	}

	size = rzs_get_size(rzs, index);
	src = kmap_local_page(slot->page);
	dst = kmap_local_page(page);
	strm = rzs_comp_get(rzs->comp);
	if (rzs_test_flag(rzs, index, RZS_SPLIT)) {
		/* Gather both parts in the stream's buffer, then decompress. */
		ret = rzs_gather_split(src + rzs_get_offset(rzs, index), size,
				       strm->buf);
		if (!ret)
			ret = rzs_decompress(rzs->comp, strm, strm->buf, size,
					     dst);
	} else {
		ret = rzs_decompress(rzs->comp, strm,
				     src + rzs_get_offset(rzs, index), size,
				     dst);
	}
	rzs_comp_put(rzs->comp);
	kunmap_local(dst);
	kunmap_local(src);
	rzs_slot_unlock(rzs, index);

	if (ret)
		pr_err_ratelimited("%s: decompression of page %u failed (corrupt object, %u bytes)\n",
				   rzs->disk->disk_name, index, size);
	return ret;
}

/*
 * Returns 0 when the page was filled, 1 when a chained read from the backing
 * device was submitted, or a negative error.
 */
int rzs_bvec_read(struct ramzswap *rzs, struct page *page, u32 index,
		  struct bio *parent)
{
	u64 start = rzs_hist_start();
	int ret;

	ret = __rzs_read(rzs, page, index, parent);
	atomic64_inc(&rzs->stats.num_reads);
	if (ret < 0)
		atomic64_inc(&rzs->stats.failed_reads);
	else
		flush_dcache_page(page);
	rzs_hist_record(rzs, RZS_HIST_READ, start);
	return ret;
}

/*
 * Install a new state for @index, freeing what it held. @element is the
 * repeated value of RZS_SAME or the block of RZS_BDEV.
 */
static void rzs_install(struct ramzswap *rzs, u32 index,
			enum rzs_slot_flag flag, struct page *opage,
			unsigned long element, u32 size, u32 offset)
{
	struct rzs_slot *slot = &rzs->table[index];

	rzs_slot_lock(rzs, index);
	rzs_free_slot(rzs, index);
	if (flag == RZS_SAME)
		slot->element = element;
	else if (flag == RZS_BDEV)
		slot->block = element;
	else
		slot->page = opage;
	rzs_set_slot(rzs, index, flag, size, offset);
	rzs_slot_unlock(rzs, index);
}

static bool rzs_over_limit(struct ramzswap *rzs)
{
	unsigned long limit = READ_ONCE(rzs->limit_pages);
	u64 used = rzs_mem_used_pages(rzs);

	rzs_update_max_used(rzs, used);
	return limit && used > limit;
}

/*
 * Overwrite a slot that already holds a raw page with another raw page: copy
 * in place under the slot lock (readers copy out under the same lock), so
 * the page allocator, the memory limit and the counters are not touched.
 * Returns false if the slot holds something else.
 */
static bool rzs_overwrite_raw(struct ramzswap *rzs, struct page *page,
			      u32 index)
{
	bool done = false;

	rzs_slot_lock(rzs, index);
	if (rzs_test_flag(rzs, index, RZS_RAW)) {
		copy_highpage(rzs->table[index].page, page);
		done = true;
	}
	rzs_slot_unlock(rzs, index);
	return done;
}

/* Store an incompressible page as a raw copy in a page of its own. */
static int rzs_store_raw(struct ramzswap *rzs, struct page *page, u32 index)
{
	struct page *opage;

	if (rzs_overwrite_raw(rzs, page, index)) {
		atomic64_inc(&rzs->stats.raw_pages_since);
		return 0;
	}

	opage = alloc_page(RZS_GFP_ATOMIC);
	if (!opage)
		opage = alloc_page(RZS_GFP_SLEEP);
	if (!opage)
		return -ENOMEM;
	copy_highpage(opage, page);

	atomic64_inc(&rzs->stats.raw_pages);
	if (rzs_over_limit(rzs)) {
		atomic64_dec(&rzs->stats.raw_pages);
		__free_page(opage);
		return -ENOMEM;
	}

	rzs_install(rzs, index, RZS_RAW, opage, 0, PAGE_SIZE, 0);
	atomic64_inc(&rzs->stats.pages_stored);
	atomic64_inc(&rzs->stats.raw_pages_since);
	atomic64_add(PAGE_SIZE, &rzs->stats.compr_data_size);
	return 0;
}

/*
 * Objects that fit no free block are split (xv_malloc_split()) when the
 * largest free block takes a head of at least this many bytes of data: a
 * gap at the end of a pool page that no whole object of the common sizes
 * fits then holds part of one. Smaller heads are not worth a second part.
 */
#define RZS_SPLIT_MIN_HEAD	64

static void rzs_free_parts(struct ramzswap *rzs, struct xv_part *parts,
			   int nparts)
{
	while (nparts-- > 0)
		xv_free(rzs->pool, parts[nparts].page, parts[nparts].offset);
}

/*
 * Copy the @clen compressed bytes in @buf into the @nparts parts; a split
 * object's head starts with the link to its tail.
 */
static void rzs_fill_parts(const struct xv_part *parts, int nparts,
			   const u8 *buf, u32 clen)
{
	struct rzs_split_link link;
	void *dst;

	dst = kmap_local_page(parts[0].page);
	if (nparts == 1) {
		memcpy(dst + parts[0].offset, buf, clen);
		kunmap_local(dst);
		return;
	}
	link.tail_page = parts[1].page;
	link.tail_offset = parts[1].offset;
	link.tail_len = parts[1].len;
	memcpy(dst + parts[0].offset, &link, sizeof(link));
	memcpy(dst + parts[0].offset + sizeof(link), buf, parts[0].len);
	kunmap_local(dst);
	dst = kmap_local_page(parts[1].page);
	memcpy(dst + parts[1].offset, buf + parts[0].len, parts[1].len);
	kunmap_local(dst);
}

/*
 * Compress @page and store it in the pool. Returns 0 when stored, 1 when the
 * page should go elsewhere (raw, or backing device), or a negative error.
 */
static int rzs_store_compressed(struct ramzswap *rzs, struct page *page,
				u32 index, bool *raw)
{
	struct xv_part parts[2];
	struct rzs_strm *strm;
	unsigned int clen;
	u32 alloc_size = 0;
	void *src;
	int ret, nparts = 0, tries = 0;

	atomic64_inc(&rzs->stats.compressions);
again:
	strm = rzs_comp_get(rzs->comp);
	src = kmap_local_page(page);
	ret = rzs_compress(rzs->comp, strm, src, &clen);
	kunmap_local(src);
	if (ret) {
		rzs_comp_put(rzs->comp);
		pr_err_ratelimited("%s: compression failed: %d\n",
				   rzs->disk->disk_name, ret);
		goto err_free;
	}

	if (clen > READ_ONCE(rzs->max_zpage) || clen > xv_max_alloc_size()) {
		rzs_comp_put(rzs->comp);
		*raw = true;
		ret = 1;
		goto err_free;
	}

	/*
	 * The page changed under a retry: the object is too small, or split
	 * for another length (the parts must add up to it), start over.
	 */
	if (nparts && (clen > alloc_size || (nparts == 2 && clen != alloc_size))) {
		rzs_comp_put(rzs->comp);
		rzs_free_parts(rzs, parts, nparts);
		nparts = 0;
		if (++tries > 3) {
			ret = -EIO;
			goto err_free;
		}
		goto again;
	}

	if (!nparts) {
		ret = xv_malloc_split(rzs->pool, clen, RZS_SPLIT_MIN_HEAD,
				      sizeof(struct rzs_split_link), parts,
				      RZS_GFP_ATOMIC);
		if (ret < 0) {
			/* Retry without the stream, allowed to sleep. */
			rzs_comp_put(rzs->comp);
			ret = xv_malloc_split(rzs->pool, clen,
					      RZS_SPLIT_MIN_HEAD,
					      sizeof(struct rzs_split_link),
					      parts, RZS_GFP_SLEEP);
			if (ret < 0) {
				ret = -ENOMEM;
				goto err_free;
			}
			nparts = ret;
			alloc_size = clen;
			goto again;
		}
		nparts = ret;
		alloc_size = clen;
	}

	rzs_fill_parts(parts, nparts, strm->buf, clen);
	rzs_comp_put(rzs->comp);

	if (rzs_over_limit(rzs)) {
		ret = -ENOMEM;
		goto err_free;
	}

	rzs_install(rzs, index, nparts == 2 ? RZS_SPLIT : RZS_XV, parts[0].page,
		    0, clen, parts[0].offset);
	atomic64_inc(&rzs->stats.pages_stored);
	atomic64_add(clen, &rzs->stats.compr_data_size);
	if (clen <= RZS_GOOD_COMPRESS)
		atomic64_inc(&rzs->stats.good_compress);
	if (nparts == 2)
		atomic64_inc(&rzs->stats.split_pages);
	return 0;

err_free:
	rzs_free_parts(rzs, parts, nparts);
	return ret;
}

/*
 * Store @page in memory if it is same-filled or compresses well. Returns 0
 * when stored, 1 when it is incompressible (*raw set) or -ENOMEM over the
 * limit (it should go to the backing device or be kept raw), or another
 * negative error.
 */
static int rzs_store_small(struct ramzswap *rzs, struct page *page,
			   u32 index, bool *raw)
{
	unsigned long element;
	bool same;
	void *src;

	src = kmap_local_page(page);
	same = rzs_page_same_filled(src, &element);
	kunmap_local(src);
	if (same) {
		rzs_install(rzs, index, RZS_SAME, NULL, element, 0, 0);
		atomic64_inc(&rzs->stats.same_pages);
		return 0;
	}
	return rzs_store_compressed(rzs, page, index, raw);
}

static int __rzs_write(struct ramzswap *rzs, struct page *page, u32 index,
		       struct bio *parent)
{
	bool raw = false;
	int ret;

	ret = rzs_store_small(rzs, page, index, &raw);
	if (ret <= 0 && ret != -ENOMEM)
		return ret;

	/*
	 * Poorly compressible, over the limit or out of memory. A page whose
	 * slot already has a block gets a new one anyway: the old block may
	 * be far from the blocks of its neighbours in this write-out.
	 */
	if (rzs_backing_usable(rzs)) {
		unsigned long block;

		if (rzs_backing_get_block(rzs, &block)) {
			ret = rzs_backing_submit(rzs, page, block, parent);
			if (ret < 0) {
				rzs_backing_put_block(rzs, block);
				return ret;
			}
			rzs_install(rzs, index, RZS_BDEV, NULL, block, 0, 0);
			atomic64_inc(&rzs->stats.bd_count);
			return ret;
		}
		/* Every block is taken: keep the page in memory. */
	}
	if (rzs->bdev)
		atomic64_inc(&rzs->stats.bd_bypass);
	if (raw)
		return rzs_store_raw(rzs, page, index);
	return ret;
}

/*
 * Returns 0 when the page was stored, 1 when a chained write to the backing
 * device was submitted, or a negative error (-ENOMEM when over the limit
 * without a backing device).
 */
int rzs_bvec_write(struct ramzswap *rzs, struct page *page, u32 index,
		   struct bio *parent)
{
	u64 start = rzs_hist_start();
	int ret;

	ret = __rzs_write(rzs, page, index, parent);
	atomic64_inc(&rzs->stats.num_writes);
	if (ret < 0) {
		atomic64_inc(&rzs->stats.failed_writes);
		pr_debug_ratelimited("%s: write of page %u failed: %d\n",
				     rzs->disk->disk_name, index, ret);
	}
	rzs_hist_record(rzs, RZS_HIST_WRITE, start);
	return ret;
}
