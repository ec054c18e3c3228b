// SPDX-License-Identifier: GPL-2.0-only
/*
 * ramzswap: backing swap device.
 *
 * Pages that compress poorly (more than PAGE_SIZE / 2), or that cannot be
 * stored because of mem_limit or allocation failure, are written to a free
 * page-sized block of the backing block device, and read back from there.
 *
 * Blocks are handed out next fit from a cursor (rzs_backing_get_block()),
 * not at the slot's own sector. Swap writes out pages in the order reclaim
 * picks them, and only some of them are forwarded (the incompressible
 * ones), so at their own sectors the forwarded writes would be scattered
 * 4 KiB writes: a disk that does a fixed number of I/Os per second would
 * then take a few hundred pages per second. Given adjacent blocks instead,
 * the writes of one reclaim batch merge in the submitter's plug into a few
 * large requests, as plain disk swap's do.
 *
 * Forwarding is asynchronous: for each page a child bio is allocated from
 * our own bio_set (GFP_NOIO, so it cannot fail and cannot recurse into I/O),
 * the parent bio's remaining count is raised, and the parent completes when
 * the last child does. Child completions run in interrupt context: they only
 * touch atomic counters and the parent bio, never a slot.
 *
 * The bio_set has a rescuer (BIOSET_NEED_RESCUER). The children of one
 * parent wait on current->bio_list, not yet submitted, until our
 * submit_bio returns, and a parent can hold many pages: swap writes a
 * transparent huge page out as one 512-page bio. Without the rescuer, once
 * the bio slab fails under memory pressure (kswapd writing out an
 * incompressible THP), the next child waits in mempool_alloc() for a bio
 * that only the unsubmitted children can give back, and reclaim, then
 * every task that needs memory, stops for good. With it, bio_alloc_bioset()
 * first tries without direct reclaim and on failure hands our queued
 * children to the rescuer workqueue, which submits them.
 *
 * The backing device is opened exclusively (FMODE_EXCL, holder = device) so
 * nobody can swapon or mount it underneath us.
 *
 * A failing backing device must not take the swap path down with it: swap
 * re-dirties a page whose write failed and writes it again, forever, if
 * every retry fails. So after a write error the device is bypassed for
 * RZS_BD_RETRY_SECS: new pages are kept in memory, as when there is no
 * backing device (mem_limit still applies), then it is tried again.
 */
#define pr_fmt(fmt) "ramzswap: " fmt

#include <linux/kernel.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ramzswap_drv.h"

#define RZS_BDEV_MODE	(FMODE_READ | FMODE_WRITE | FMODE_EXCL)
#define RZS_BD_RETRY_SECS	10

static struct bio_set rzs_bio_set;

int rzs_backing_init(void)
{
	return bioset_init(&rzs_bio_set, BIO_POOL_SIZE, 0,
			   BIOSET_NEED_BVECS | BIOSET_NEED_RESCUER);
}

void rzs_backing_exit(void)
{
	bioset_exit(&rzs_bio_set);
}

/* Called with init_lock held for writing, device not initialised. */
int rzs_backing_open(struct ramzswap *rzs, const char *path)
{
	const char *name = rzs->disk->disk_name;
	struct block_device *bdev;
	char *copy;
	int err;

	if (!*path) {
		pr_err("%s: empty backing device path\n", name);
		return -EINVAL;
	}

	copy = kstrdup(path, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;

	bdev = blkdev_get_by_path(path, RZS_BDEV_MODE, rzs);
	if (IS_ERR(bdev)) {
		err = PTR_ERR(bdev);
		if (err == -ENOTBLK)
			pr_err("%s: backing device %s is not a block device\n",
			       name, path);
		else if (err == -EBUSY)
			pr_err("%s: backing device %s is in use\n", name, path);
		else
			pr_err("%s: cannot open backing device %s: %d\n",
			       name, path, err);
		if (err != -ENOTBLK && err != -EBUSY && err != -ENOMEM)
			err = -EINVAL;
		goto err_free_copy;
	}

	if (bdev->bd_disk == rzs->disk) {
		pr_err("%s: a device cannot be its own backing device\n", name);
		err = -EINVAL;
		goto err_put;
	}

	if (bdev_nr_bytes(bdev) < PAGE_SIZE) {
		pr_err("%s: backing device %s is empty\n", name, path);
		err = -EINVAL;
		goto err_put;
	}

	rzs_backing_close(rzs);
	rzs->bdev = bdev;
	rzs->backing_path = copy;
	WRITE_ONCE(rzs->bd_retry_at, 0);
	pr_info("%s: backing device %s, %llu kB\n", name, path,
		(u64)bdev_nr_bytes(bdev) >> 10);
	return 0;

err_put:
	blkdev_put(bdev, RZS_BDEV_MODE);
err_free_copy:
	kfree(copy);
	return err;
}

u64 rzs_backing_size(struct ramzswap *rzs)
{
	return rzs->bdev ? bdev_nr_bytes(rzs->bdev) : 0;
}

/* Called with init_lock held for writing and no I/O being submitted. */
void rzs_backing_close(struct ramzswap *rzs)
{
	if (!rzs->bdev)
		return;

	/* Children may still be completing after their parents did. */
	wait_event(rzs->bd_wait, !atomic_read(&rzs->bd_inflight));
	blkdev_put(rzs->bdev, RZS_BDEV_MODE);
	rzs->bdev = NULL;
	kfree(rzs->backing_path);
	rzs->backing_path = NULL;
}

/*
 * The block map of an initialised device with a backing device: one bit per
 * page-sized block of the backing device (at least one per slot, since the
 * backing device is at least disksize). Called from rzs_configure() with
 * init_lock held for writing; GFP_KERNEL, it may be large.
 */
int rzs_backing_map_alloc(struct ramzswap *rzs)
{
	unsigned long blocks = rzs_backing_size(rzs) >> PAGE_SHIFT;

	rzs->bd_map = kvcalloc(BITS_TO_LONGS(blocks), sizeof(unsigned long),
			       GFP_KERNEL);
	if (!rzs->bd_map)
		return -ENOMEM;
	rzs->bd_blocks = blocks;
	WRITE_ONCE(rzs->bd_cursor, 0);
	return 0;
}

/* After every slot was freed (rzs_meta_free()), init_lock held for writing. */
void rzs_backing_map_free(struct ramzswap *rzs)
{
	kvfree(rzs->bd_map);
	rzs->bd_map = NULL;
	rzs->bd_blocks = 0;
}

/* Take the first free block in [@from, @to); false if there is none. */
static bool rzs_take_block(unsigned long *map, unsigned long from,
			   unsigned long to, unsigned long *block)
{
	unsigned long b = from;

	/* A lost test_and_set_bit() race just looks further on. */
	while ((b = find_next_zero_bit(map, to, b)) < to) {
		if (!test_and_set_bit(b, map)) {
			*block = b;
			return true;
		}
	}
	return false;
}

/*
 * Take a free block, next fit: from the cursor to the end, then from the
 * start. Returns false when every block is taken (the page then stays in
 * memory). Any context, no lock. Two CPUs forwarding at once interleave
 * their blocks, which still leaves runs of adjacent ones.
 */
bool rzs_backing_get_block(struct ramzswap *rzs, unsigned long *block)
{
	unsigned long n = rzs->bd_blocks, start = READ_ONCE(rzs->bd_cursor);

	if (start >= n)
		start = 0;
	if (!rzs_take_block(rzs->bd_map, start, n, block) &&
	    !rzs_take_block(rzs->bd_map, 0, start, block))
		return false;
	WRITE_ONCE(rzs->bd_cursor, *block + 1);
	return true;
}

/* Give a block back when its slot is freed. Any context, no lock. */
void rzs_backing_put_block(struct ramzswap *rzs, unsigned long block)
{
	if (WARN_ON_ONCE(block >= rzs->bd_blocks))
		return;
	WARN_ON_ONCE(!test_and_clear_bit(block, rzs->bd_map));
}

/* May new pages go to the backing device? Any context, no lock. */
bool rzs_backing_usable(struct ramzswap *rzs)
{
	unsigned long retry_at = READ_ONCE(rzs->bd_retry_at);

	if (!rzs->bdev)
		return false;
	return !retry_at || time_after_eq(jiffies, retry_at);
}

/* A backing write failed: bypass the device for a while (interrupt context). */
static void rzs_backing_write_failed(struct ramzswap *rzs)
{
	unsigned long old = READ_ONCE(rzs->bd_retry_at);
	unsigned long next = (jiffies + RZS_BD_RETRY_SECS * HZ) | 1;

	atomic64_inc(&rzs->stats.bd_failed_writes);
	if (old && time_before(jiffies, old))
		return;
	if (cmpxchg(&rzs->bd_retry_at, old, next) == old)
		pr_warn("%s: backing device %s failed a write; keeping new pages in memory for %d s\n",
			rzs->disk->disk_name, rzs->backing_path,
			RZS_BD_RETRY_SECS);
}

static void rzs_backing_endio(struct bio *bio)
{
	struct bio *parent = bio->bi_private;
	struct ramzswap *rzs = parent->bi_bdev->bd_disk->private_data;

	if (bio->bi_status) {
		bool write = op_is_write(bio_op(bio));

		atomic64_inc(write ? &rzs->stats.failed_writes :
				     &rzs->stats.failed_reads);
		if (write)
			rzs_backing_write_failed(rzs);
		pr_err_ratelimited("%s: backing device %s error at sector %llu: %d\n",
				   rzs->disk->disk_name, write ? "write" : "read",
				   (unsigned long long)bio->bi_iter.bi_sector,
				   blk_status_to_errno(bio->bi_status));
		if (!parent->bi_status)
			parent->bi_status = bio->bi_status;
	}
	bio_put(bio);

	/*
	 * Drop our in-flight count before completing the parent: once the
	 * parent completes, its submitter may close and reset the device.
	 */
	if (atomic_dec_and_test(&rzs->bd_inflight))
		wake_up(&rzs->bd_wait);
	bio_endio(parent);
}

/*
 * Forward one page of @parent to the backing device, at @block. Returns 1:
 * the I/O was submitted and @parent completes after it. The bio_set has a
 * bvec pool (BIOSET_NEED_BVECS) for the one-page bio. Submitted from inside
 * our submit_bio, the bio is queued on current->bio_list and reaches the
 * backing device's queue under the submitter's plug, where writes to
 * adjacent blocks merge.
 */
int rzs_backing_submit(struct ramzswap *rzs, struct page *page,
		       unsigned long block, struct bio *parent)
{
	blk_opf_t opf = bio_op(parent) | (parent->bi_opf & REQ_SYNC);
	struct bio *bio;

	/* GFP_NOIO from a mempool: waits rather than fails. */
	bio = bio_alloc_bioset(rzs->bdev, 1, opf, GFP_NOIO, &rzs_bio_set);
	if (WARN_ON_ONCE(!bio))
		return -ENOMEM;
	bio->bi_iter.bi_sector = (sector_t)block << RZS_SECTORS_PER_PAGE_SHIFT;
	__bio_add_page(bio, page, PAGE_SIZE, 0);
	bio->bi_private = parent;
	bio->bi_end_io = rzs_backing_endio;

	bio_inc_remaining(parent);
	atomic_inc(&rzs->bd_inflight);
	if (op_is_write(bio_op(bio)))
		atomic64_inc(&rzs->stats.bd_writes);
	else
		atomic64_inc(&rzs->stats.bd_reads);
	submit_bio(bio);
	return 1;
}
