// SPDX-License-Identifier: GPL-2.0-only
/*
 * ramzswap: compressed in-RAM swap block device (compcache revived).
 *
 * This file holds the module glue: parameters, the gendisks and their
 * block_device_operations, device initialisation and reset.
 *
 * The device is bio-based, with a ->rw_page that never declines a page
 * (rzs_rw_page()). 6.1's swapon gives a device SWP_SYNCHRONOUS_IO only if
 * it has ->rw_page, and with it a page mapped once is swapped in without
 * the swap cache and its slot is freed at once, so the compressed copy is
 * not kept beside the page in RAM and nothing is read ahead. But
 * bdev_write_page() sets writeback on the page before calling ->rw_page
 * and ends it when ->rw_page declines, which clears PG_reclaim: a page then
 * sent to the backing device by the bio that swap falls back to is not
 * rotated for reclaim when its write ends, and the swap fills with written
 * pages (bench/runs/diag-thp-swapcache-20261207). So ->rw_page takes every
 * page, THPs too: a write ends when its bio does, and a read returns only
 * when its bio has ended, as swap's synchronous swap-in needs
 * (bench/runs/full14-20261207, rzs_rw_page()).
 *
 * Only whole, page-aligned pages are accepted; anything else fails with
 * BLK_STS_IOERR and is counted as invalid I/O. Discard and write-zeroes free
 * the slots they cover.
 */
#define pr_fmt(fmt) "ramzswap: " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/part_stat.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/ctype.h>
#include <linux/overflow.h>
#include <linux/completion.h>

#include "ramzswap_drv.h"
#include "ramzswap_comp.h"

static unsigned int num_devices = 1;
module_param(num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "Number of ramzswap devices (1-64, default 1)");

static char *disksize;
module_param(disksize, charp, 0444);
MODULE_PARM_DESC(disksize,
		 "Size of ramzswap0 in bytes, K/M/G suffix allowed (default 25% of RAM, or the backing device size)");

static char *memlimit;
module_param(memlimit, charp, 0444);
MODULE_PARM_DESC(memlimit,
		 "Memory limit of ramzswap0, K/M/G suffix allowed (default 15% of RAM with a backing device, else none)");

static char *backing_swap;
module_param(backing_swap, charp, 0444);
MODULE_PARM_DESC(backing_swap,
		 "Block device that receives ramzswap0's incompressible pages");

static int rzs_major;
static struct ramzswap *rzs_devices;

/* Disks larger than this are refused: their metadata alone would not fit. */
u64 rzs_max_disksize(void)
{
	return ((u64)totalram_pages() << PAGE_SHIFT) * 64;
}

/*
 * Parse a size: decimal digits with an optional K, M, G or T suffix and an
 * optional trailing newline. Anything else (empty, signs, garbage, overflow)
 * is -EINVAL.
 */
int rzs_parse_size(const char *buf, u64 *val)
{
	char tmp[32];
	unsigned int shift = 0;
	size_t len;
	u64 v;

	len = strscpy(tmp, buf, sizeof(tmp)) < 0 ? sizeof(tmp) : strlen(tmp);
	if (len >= sizeof(tmp) - 1)
		return -EINVAL;
	if (len && tmp[len - 1] == '\n')
		tmp[--len] = '\0';
	if (!len)
		return -EINVAL;

	switch (tolower(tmp[len - 1])) {
	case 't':
		shift += 10;
		fallthrough;
	case 'g':
		shift += 10;
		fallthrough;
	case 'm':
		shift += 10;
		fallthrough;
	case 'k':
		shift += 10;
		tmp[--len] = '\0';
		break;
	default:
		break;
	}
	if (!len || !isdigit(tmp[0]))
		return -EINVAL;
	if (kstrtou64(tmp, 10, &v))
		return -EINVAL;
	if (check_shl_overflow(v, shift, val))
		return -EINVAL;
	return 0;
}

static bool rzs_valid_io(struct ramzswap *rzs, sector_t sector,
			 unsigned int size)
{
	u64 end;

	if (sector & (RZS_SECTORS_PER_PAGE - 1))
		return false;
	if (size & (PAGE_SIZE - 1))
		return false;
	end = ((u64)sector << SECTOR_SHIFT) + size;
	return end <= READ_ONCE(rzs->disksize);
}

static void rzs_bio_discard(struct ramzswap *rzs, struct bio *bio)
{
	u32 index = bio->bi_iter.bi_sector >> RZS_SECTORS_PER_PAGE_SHIFT;

	rzs_free_range(rzs, index, bio->bi_iter.bi_size >> PAGE_SHIFT);
}

static void rzs_bio_rw(struct ramzswap *rzs, struct bio *bio)
{
	u32 index = bio->bi_iter.bi_sector >> RZS_SECTORS_PER_PAGE_SHIFT;
	bool write = op_is_write(bio_op(bio));
	unsigned long start_time;
	struct bvec_iter iter;
	struct bio_vec bv;
	int ret;

	start_time = bio_start_io_acct(bio);
	bio_for_each_segment(bv, bio, iter) {
		/* dma_alignment makes this hold for every sane submitter */
		if (bv.bv_offset || bv.bv_len != PAGE_SIZE) {
			atomic64_inc(&rzs->stats.invalid_io);
			bio->bi_status = BLK_STS_IOERR;
			break;
		}
		if (write)
			ret = rzs_bvec_write(rzs, bv.bv_page, index, bio);
		else
			ret = rzs_bvec_read(rzs, bv.bv_page, index, bio);
		if (ret < 0) {
			bio->bi_status = ret == -ENOMEM ? BLK_STS_RESOURCE :
							  BLK_STS_IOERR;
			break;
		}
		index++;
	}
	bio_end_io_acct(bio, start_time);
}

static void rzs_submit_bio(struct bio *bio)
{
	struct ramzswap *rzs = bio->bi_bdev->bd_disk->private_data;

	if (!rzs_valid_io(rzs, bio->bi_iter.bi_sector, bio->bi_iter.bi_size)) {
		atomic64_inc(&rzs->stats.invalid_io);
		bio_io_error(bio);
		return;
	}

	switch (bio_op(bio)) {
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		rzs_bio_discard(rzs, bio);
		break;
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		rzs_bio_rw(rzs, bio);
		break;
	case REQ_OP_FLUSH:
		/* Nothing is cached: every write is complete when it ends. */
		break;
	default:
		bio->bi_status = BLK_STS_NOTSUPP;
		break;
	}
	/* Completes now, or when the last chained backing I/O does. */
	bio_endio(bio);
}

/*
 * The bios of rzs_rw_page(), from a pool of their own: such a bio is held
 * until the backing I/O it forwards ends, so it must not take the pool's
 * reserve from the forwarded bios it waits for (rzs_backing_submit()).
 */
static struct bio_set rzs_page_bio_set;

/* As swap's end_swap_bio_write(); interrupt context. */
static void rzs_page_write_endio(struct bio *bio)
{
	struct page *page = bio_first_page_all(bio);

	if (bio->bi_status) {
		/* Keep the page dirty: it is written again, never dropped. */
		set_page_dirty(page);
		ClearPageReclaim(page);
	}
	end_page_writeback(page);
	bio_put(bio);
}

/* Wakes the rzs_rw_page() that waits for this read; interrupt context. */
static void rzs_page_read_endio(struct bio *bio)
{
	complete(bio->bi_private);
}

/*
 * Swap's synchronous page I/O (bdev_read_page(), bdev_write_page()): the
 * page, locked, and for a write under writeback, possibly a THP. It is
 * wrapped in a bio that goes down rzs_submit_bio()'s path.
 *
 * A write returns at once; the bio's end ends the page's writeback, at once
 * for a page kept in RAM, when the backing I/O ends for a forwarded one
 * (PG_reclaim intact, so reclaim rotates the page then). The page is in the
 * swap cache, which holds it until then.
 *
 * A read waits for its bio to end, backing I/O included, and only then
 * unlocks the page. Swap's synchronous swap-in holds nothing but its own
 * reference to a page outside the swap cache: a fault that stops waiting
 * for the page lock (KVM's FOLL_NOWAIT, a fatal signal) drops that
 * reference, and a read still in flight would then fill a freed page.
 *
 * Never declines: see the top of the file. Process context, may sleep:
 * called outside any submit_bio, with the queue entered by the caller; the
 * forwarded bios are submitted, not held, so the wait cannot deadlock.
 */
static int rzs_rw_page(struct block_device *bdev, sector_t sector,
		       struct page *page, enum req_op op)
{
	DECLARE_COMPLETION_ONSTACK(done);
	struct bio *bio;
	int err;

	/* GFP_NOIO from a mempool: waits rather than fails. */
	bio = bio_alloc_bioset(bdev, 1, op, GFP_NOIO, &rzs_page_bio_set);
	if (WARN_ON_ONCE(!bio))
		return -ENOMEM;
	bio->bi_iter.bi_sector = sector;
	__bio_add_page(bio, page, thp_size(page), 0);
	if (op_is_write(op)) {
		bio->bi_end_io = rzs_page_write_endio;
		rzs_submit_bio(bio);
		return 0;
	}
	bio->bi_private = &done;
	bio->bi_end_io = rzs_page_read_endio;
	rzs_submit_bio(bio);
	wait_for_completion_io(&done);
	err = blk_status_to_errno(bio->bi_status);
	bio_put(bio);
	/* As swap's end_swap_bio_read(): uptodate or error, then unlocked. */
	page_endio(page, false, err);
	return 0;
}

static void rzs_swap_slot_free_notify(struct block_device *bdev,
				      unsigned long index)
{
	rzs_slot_free_notify(bdev->bd_disk->private_data, index);
}

/* Called with disk->open_mutex held. */
static int rzs_open(struct block_device *bdev, fmode_t mode)
{
	struct ramzswap *rzs = bdev->bd_disk->private_data;

	return rzs->claim ? -EBUSY : 0;
}

static const struct block_device_operations rzs_fops = {
	.owner = THIS_MODULE,
	.open = rzs_open,
	.submit_bio = rzs_submit_bio,
	.rw_page = rzs_rw_page,
	.swap_slot_free_notify = rzs_swap_slot_free_notify,
};

/*
 * Initialise @rzs with @size bytes. Caller holds init_lock for writing and
 * has checked that the device is not initialised.
 */
int rzs_configure(struct ramzswap *rzs, u64 size)
{
	const char *name = rzs->disk->disk_name;
	u64 ram = (u64)totalram_pages() << PAGE_SHIFT;
	struct rzs_comp *comp;
	int err;

	size = PAGE_ALIGN(size);
	if (!size || size > rzs_max_disksize() || size >> PAGE_SHIFT > U32_MAX) {
		pr_err("%s: invalid disksize %llu (max %llu)\n", name, size,
		       min_t(u64, rzs_max_disksize(),
			     (u64)U32_MAX << PAGE_SHIFT));
		return -EINVAL;
	}
	if (rzs->bdev && rzs_backing_size(rzs) < size) {
		pr_err("%s: backing device %s (%llu kB) is smaller than disksize (%llu kB)\n",
		       name, rzs->backing_path, rzs_backing_size(rzs) >> 10,
		       size >> 10);
		return -EINVAL;
	}
	if (size > 2 * ram)
		pr_warn("%s: disksize %llu kB is more than twice the RAM (%llu kB); most of it cannot be used\n",
			name, size >> 10, ram >> 10);

	err = rzs_meta_alloc(rzs, size);
	if (err)
		goto err_out;

	if (rzs->bdev) {
		err = rzs_backing_map_alloc(rzs);
		if (err)
			goto err_free_meta;
	}

	comp = rzs_comp_create(rzs->compressor);
	if (IS_ERR(comp)) {
		err = PTR_ERR(comp);
		pr_err("%s: cannot initialise %s compressor: %d\n", name,
		       rzs->compressor, err);
		goto err_free_map;
	}
	rzs->comp = comp;
	rzs_stats_reset(rzs);

	WRITE_ONCE(rzs->disksize, size);
	set_capacity_and_notify(rzs->disk, size >> SECTOR_SHIFT);
	pr_info("%s: initialised, disksize %llu kB, %s, mem_limit %lu kB%s%s\n",
		name, size >> 10, rzs->compressor,
		rzs->limit_pages << (PAGE_SHIFT - 10),
		rzs->bdev ? ", backing " : "",
		rzs->bdev ? rzs->backing_path : "");
	return 0;

err_free_map:
	rzs_backing_map_free(rzs);
err_free_meta:
	rzs_meta_free(rzs);
err_out:
	return err;
}

/* Tear everything down. Caller ensures nobody can submit I/O. */
static void rzs_reset_device(struct ramzswap *rzs)
{
	down_write(&rzs->init_lock);
	WRITE_ONCE(rzs->limit_pages, 0);
	WRITE_ONCE(rzs->max_zpage, RZS_MAX_ZPAGE);
	set_capacity_and_notify(rzs->disk, 0);
	part_stat_set_all(rzs->disk->part0, 0);

	/* Backing I/O must have finished before slots and bdev go away. */
	if (rzs->bdev)
		wait_event(rzs->bd_wait, !atomic_read(&rzs->bd_inflight));
	rzs_meta_free(rzs);
	/* Every slot, and so every block, is free now. */
	rzs_backing_map_free(rzs);
	rzs_comp_destroy(rzs->comp);
	rzs->comp = NULL;
	rzs_backing_close(rzs);
	WRITE_ONCE(rzs->disksize, 0);
	rzs_stats_reset(rzs);
	up_write(&rzs->init_lock);
}

/* reset attribute: refused with -EBUSY while anybody has the device open. */
int rzs_reset(struct ramzswap *rzs)
{
	struct gendisk *disk = rzs->disk;

	mutex_lock(&disk->open_mutex);
	if (disk_openers(disk) || rzs->claim) {
		mutex_unlock(&disk->open_mutex);
		return -EBUSY;
	}
	/* From now on nobody can open the device until we are done. */
	rzs->claim = true;
	mutex_unlock(&disk->open_mutex);

	sync_blockdev(disk->part0);
	rzs_reset_device(rzs);

	mutex_lock(&disk->open_mutex);
	rzs->claim = false;
	mutex_unlock(&disk->open_mutex);
	return 0;
}

static int rzs_add(struct ramzswap *rzs, int id)
{
	struct gendisk *disk;
	int err;

	rzs->id = id;
	rzs->max_zpage = RZS_MAX_ZPAGE;
	init_rwsem(&rzs->init_lock);
	init_waitqueue_head(&rzs->bd_wait);
	atomic_set(&rzs->bd_inflight, 0);
	strscpy(rzs->compressor, "lzo", sizeof(rzs->compressor));

	err = rzs_stats_alloc(rzs);
	if (err)
		return err;

	disk = blk_alloc_disk(NUMA_NO_NODE);
	if (!disk) {
		err = -ENOMEM;
		goto err_free_stats;
	}
	rzs->disk = disk;
	disk->major = rzs_major;
	disk->first_minor = id;
	disk->minors = 1;
	disk->flags |= GENHD_FL_NO_PART;
	disk->fops = &rzs_fops;
	disk->private_data = rzs;
	snprintf(disk->disk_name, DISK_NAME_LEN, "ramzswap%d", id);
	set_capacity(disk, 0);

	blk_queue_flag_set(QUEUE_FLAG_NONROT, disk->queue);
	blk_queue_flag_clear(QUEUE_FLAG_ADD_RANDOM, disk->queue);
	blk_queue_flag_set(QUEUE_FLAG_STABLE_WRITES, disk->queue);
	blk_queue_logical_block_size(disk->queue, PAGE_SIZE);
	blk_queue_physical_block_size(disk->queue, PAGE_SIZE);
	blk_queue_io_min(disk->queue, PAGE_SIZE);
	blk_queue_io_opt(disk->queue, PAGE_SIZE);
	/* Direct I/O buffers must be whole pages too. */
	blk_queue_dma_alignment(disk->queue, PAGE_SIZE - 1);
	disk->queue->limits.discard_granularity = PAGE_SIZE;
	blk_queue_max_discard_sectors(disk->queue, UINT_MAX);
	blk_queue_max_write_zeroes_sectors(disk->queue, UINT_MAX);

	err = device_add_disk(NULL, disk, rzs_disk_groups);
	if (err)
		goto err_put_disk;
	return 0;

err_put_disk:
	put_disk(disk);
	rzs->disk = NULL;
err_free_stats:
	rzs_stats_free(rzs);
	return err;
}

static void rzs_remove(struct ramzswap *rzs)
{
	if (!rzs->disk)
		return;
	/* Module refcount (fops.owner) guarantees there are no openers. */
	del_gendisk(rzs->disk);
	rzs_reset_device(rzs);
	put_disk(rzs->disk);
	rzs->disk = NULL;
	rzs_stats_free(rzs);
}

/* Configure ramzswap0 from the module parameters, like the original. */
static int rzs_setup_param_device(struct ramzswap *rzs)
{
	u64 ram = (u64)totalram_pages() << PAGE_SHIFT;
	u64 size = ram / 4, limit = 0;
	int err;

	down_write(&rzs->init_lock);
	if (backing_swap && *backing_swap) {
		err = rzs_backing_open(rzs, backing_swap);
		if (err)
			goto out;
		size = rzs_backing_size(rzs) & PAGE_MASK;
		limit = div_u64(ram * 15, 100);
	}
	if (memlimit && rzs_parse_size(memlimit, &limit)) {
		pr_err("invalid memlimit parameter \"%s\"\n", memlimit);
		err = -EINVAL;
		goto out;
	}
	if (disksize && (rzs_parse_size(disksize, &size) || !size)) {
		pr_err("invalid disksize parameter \"%s\"\n", disksize);
		err = -EINVAL;
		goto out;
	}
	WRITE_ONCE(rzs->limit_pages, PAGE_ALIGN(limit) >> PAGE_SHIFT);
	err = rzs_configure(rzs, size);
out:
	if (err) {
		rzs_backing_close(rzs);
		WRITE_ONCE(rzs->limit_pages, 0);
	}
	up_write(&rzs->init_lock);
	return err;
}

static int __init ramzswap_init(void)
{
	int err, i;

	if (!num_devices || num_devices > RZS_MAX_DEVICES) {
		pr_err("num_devices must be 1..%d, not %u\n", RZS_MAX_DEVICES,
		       num_devices);
		return -EINVAL;
	}

	err = rzs_backing_init();
	if (err)
		return err;

	err = bioset_init(&rzs_page_bio_set, BIO_POOL_SIZE, 0,
			  BIOSET_NEED_BVECS);
	if (err)
		goto err_backing;

	rzs_major = register_blkdev(0, "ramzswap");
	if (rzs_major <= 0) {
		pr_err("unable to get major number\n");
		err = -EBUSY;
		goto err_page_bio_set;
	}

	rzs_devices = kcalloc(num_devices, sizeof(*rzs_devices), GFP_KERNEL);
	if (!rzs_devices) {
		err = -ENOMEM;
		goto err_unregister;
	}

	for (i = 0; i < num_devices; i++) {
		err = rzs_add(&rzs_devices[i], i);
		if (err)
			goto err_remove;
	}

	err = rzs_setup_param_device(&rzs_devices[0]);
	if (err)
		goto err_remove;

	pr_info("created %u device(s)\n", num_devices);
	return 0;

err_remove:
	while (--i >= 0)
		rzs_remove(&rzs_devices[i]);
	kfree(rzs_devices);
err_unregister:
	unregister_blkdev(rzs_major, "ramzswap");
err_page_bio_set:
	bioset_exit(&rzs_page_bio_set);
err_backing:
	rzs_backing_exit();
	return err;
}

static void __exit ramzswap_exit(void)
{
	int i;

	for (i = 0; i < num_devices; i++)
		rzs_remove(&rzs_devices[i]);
	kfree(rzs_devices);
	unregister_blkdev(rzs_major, "ramzswap");
	bioset_exit(&rzs_page_bio_set);
	rzs_backing_exit();
	pr_info("unloaded\n");
}

module_init(ramzswap_init);
module_exit(ramzswap_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("ramzswap kit");
MODULE_DESCRIPTION("Compressed in-RAM swap block device (compcache ramzswap)");
/* lzo-rle is built in; lz4 and zstd are modules in Debian's kernel. */
MODULE_SOFTDEP("pre: lz4 zstd");
