/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ramzswap: compressed in-RAM swap block device.
 *
 * Shared definitions of the driver. Each .c file owns one concern:
 *   ramzswap_drv.c     module init/exit, gendisk, block_device_operations
 *   ramzswap_slot.c    slot table, per-page read/write/free paths
 *   ramzswap_comp.c    per-CPU compression streams
 *   ramzswap_backing.c backing swap device, asynchronous forwarding
 *   ramzswap_sysfs.c   /sys/block/ramzswapN/ attributes
 *   ramzswap_stats.c   statistics formatting, latency histograms
 *
 * Locking rules (see also the comments at each lock user):
 *
 * - rzs->init_lock (rw_semaphore) serialises configuration (disksize,
 *   backing_dev, comp_algorithm, reset) against each other and against the
 *   sysfs readers. It is NOT taken on the I/O path. I/O can only reach a
 *   device that is open and whose capacity is non-zero; the table, pool,
 *   compressor and backing device are set up before the capacity is
 *   published and torn down only by reset, which refuses to run while the
 *   device has openers and claims the device so that nobody can open it
 *   during teardown.
 * - Each slot has a bit spinlock (RZS_LOCK in slot->flags). It protects the
 *   slot's contents (object handle, size, flags). It is held only across
 *   non-sleeping work: freeing the old object, installing a new one,
 *   copying or decompressing an object into the destination page.
 * - The per-CPU compression streams are protected by a local_lock; the
 *   holder runs with preemption disabled and must not sleep. The lock order
 *   is slot lock -> stream lock (read path). The write path never holds both.
 * - No device-wide lock exists on the I/O path; statistics are atomic64_t
 *   and histograms are per-CPU.
 *
 * Memory allocation rules:
 * - Anything allocated on the I/O path uses GFP_NOIO (we are called from
 *   swap-out, possibly in direct reclaim) and may use highmem; data memory is
 *   only ever order-0 pages (xvmalloc pages or raw pages).
 * - While holding a compression stream only non-sleeping allocations
 *   (GFP_NOWAIT) are attempted; on failure the stream is released, the
 *   allocation is retried with GFP_NOIO, and the page is compressed again.
 */
#ifndef _RAMZSWAP_DRV_H_
#define _RAMZSWAP_DRV_H_

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/blkdev.h>
#include <linux/rwsem.h>
#include <linux/wait.h>
#include <linux/percpu.h>

#define RZS_SECTORS_PER_PAGE_SHIFT	(PAGE_SHIFT - SECTOR_SHIFT)
#define RZS_SECTORS_PER_PAGE		(1 << RZS_SECTORS_PER_PAGE_SHIFT)

#define RZS_MAX_DEVICES		64
#define RZS_ALGO_NAME_LEN	16

/*
 * By default a page that compresses to more than this goes to the backing
 * device when one is configured, else it is stored uncompressed in a page of
 * its own (the article's policy). xvmalloc objects cannot span pages, so a
 * larger object leaves less of its page for others. The sysfs attribute
 * max_zpage_size changes it per device, up to xv_max_alloc_size().
 */
#define RZS_MAX_ZPAGE		(PAGE_SIZE / 2)
/* The smallest max_zpage_size accepted through sysfs. */
#define RZS_MIN_ZPAGE		64
/* "Good" compression: at most half a page. */
#define RZS_GOOD_COMPRESS	(PAGE_SIZE / 2)

/*
 * slot->flags layout:
 *   [0, RZS_SIZE_BITS)                 stored object size in bytes
 *   [RZS_SIZE_BITS, 2 * RZS_SIZE_BITS) object offset inside its xvmalloc page
 *   then the flag bits below.
 */
#define RZS_SIZE_BITS		(PAGE_SHIFT + 1)
#define RZS_SIZE_MASK		((1UL << RZS_SIZE_BITS) - 1)
#define RZS_OFFSET_SHIFT	RZS_SIZE_BITS

enum rzs_slot_flag {
	RZS_LOCK = 2 * RZS_SIZE_BITS,	/* bit spinlock of the slot */
	RZS_SAME,			/* same-filled page, value in element */
	RZS_XV,				/* compressed object in the xv pool */
	/*
	 * With RZS_XV: the object is in two parts (xv_malloc_split()); the
	 * slot has the head, which starts with a struct rzs_split_link.
	 */
	RZS_SPLIT,
	RZS_RAW,			/* uncompressed copy in a page of its own */
	RZS_BDEV,			/* data lives on the backing device */
	RZS_FLAG_MAX,
};

/*
 * Where the tail of a split object is: kept at the start of its head part
 * (4-byte aligned only, so copied with memcpy()).
 */
struct rzs_split_link {
	struct page *tail_page;
	u16 tail_offset;
	u16 tail_len;
} __packed;

struct rzs_slot {
	union {
		struct page *page;	/* RZS_XV or RZS_RAW */
		unsigned long element;	/* RZS_SAME */
		unsigned long block;	/* RZS_BDEV: page-sized block on bdev */
	};
	unsigned long flags;
};

struct rzs_stats {
	atomic64_t num_reads;
	atomic64_t num_writes;
	atomic64_t failed_reads;
	atomic64_t failed_writes;
	atomic64_t invalid_io;
	atomic64_t notify_free;
	atomic64_t miss_free;		/* free-notify lost a trylock race */
	atomic64_t pages_discard;
	atomic64_t same_pages;		/* slots holding a same-filled page */
	atomic64_t pages_stored;	/* objects in memory (xv + raw) */
	atomic64_t good_compress;	/* of those, size <= PAGE_SIZE / 2 */
	atomic64_t raw_pages;		/* of those, stored uncompressed */
	atomic64_t raw_pages_since;	/* raw pages ever stored */
	atomic64_t split_pages;		/* of the xv objects, in two parts */
	atomic64_t compr_data_size;	/* bytes of stored objects */
	atomic64_t max_used_pages;
	atomic64_t bd_count;		/* slots on the backing device */
	atomic64_t bd_reads;
	atomic64_t bd_writes;
	atomic64_t bd_failed_writes;	/* backing writes that failed */
	atomic64_t bd_bypass;		/* pages kept in memory meanwhile */
	atomic64_t compressions;	/* store attempts (retries not counted) */
};

#define RZS_HIST_BUCKETS	32
enum rzs_hist_op {
	RZS_HIST_READ,
	RZS_HIST_WRITE,
	RZS_HIST_NR_OPS,
};

struct rzs_hist {
	u64 count[RZS_HIST_NR_OPS][RZS_HIST_BUCKETS];
};

struct xv_pool;
struct rzs_comp;

struct ramzswap {
	/* I/O state, valid while disksize != 0 */
	struct rzs_slot *table;
	unsigned long nr_slots;
	struct xv_pool *pool;
	struct rzs_comp *comp;
	unsigned long limit_pages;	/* 0: no limit; READ/WRITE_ONCE */
	/* larger compressed pages are not kept in the pool; READ/WRITE_ONCE */
	unsigned int max_zpage;

	/* backing device, valid while disksize != 0 or before init */
	struct block_device *bdev;
	char *backing_path;
	atomic_t bd_inflight;
	wait_queue_head_t bd_wait;
	/*
	 * 0 while the backing device works. After a write error, the jiffies
	 * until which new pages stay in memory instead; READ/WRITE_ONCE.
	 */
	unsigned long bd_retry_at;
	/*
	 * Blocks of the backing device, valid while disksize != 0 and a
	 * backing device is set: one bit per page-sized block, set while a
	 * slot holds it (atomic bitops, no lock). New blocks are taken next
	 * fit from bd_cursor (READ/WRITE_ONCE), so pages forwarded one after
	 * another land in adjacent blocks and the block layer merges their
	 * writes, whatever slots they belong to.
	 */
	unsigned long *bd_map;
	unsigned long bd_blocks;
	unsigned long bd_cursor;

	struct rw_semaphore init_lock;
	u64 disksize;			/* bytes, 0 while not initialised */
	char compressor[RZS_ALGO_NAME_LEN];
	bool claim;			/* reset/remove in progress, under open_mutex */

	struct gendisk *disk;
	int id;
	struct rzs_stats stats;
	struct rzs_hist __percpu *hist;
};

static inline bool rzs_init_done(struct ramzswap *rzs)
{
	return rzs->disksize != 0;
}

/* ramzswap_slot.c */
int rzs_meta_alloc(struct ramzswap *rzs, u64 disksize);
void rzs_meta_free(struct ramzswap *rzs);
int rzs_bvec_read(struct ramzswap *rzs, struct page *page, u32 index,
		  struct bio *parent);
int rzs_bvec_write(struct ramzswap *rzs, struct page *page, u32 index,
		   struct bio *parent);
void rzs_free_range(struct ramzswap *rzs, u32 index, u32 count);
void rzs_slot_free_notify(struct ramzswap *rzs, unsigned long index);
u64 rzs_mem_used_pages(struct ramzswap *rzs);

/* ramzswap_backing.c */
int rzs_backing_open(struct ramzswap *rzs, const char *path);
void rzs_backing_close(struct ramzswap *rzs);
u64 rzs_backing_size(struct ramzswap *rzs);
bool rzs_backing_usable(struct ramzswap *rzs);
int rzs_backing_map_alloc(struct ramzswap *rzs);
void rzs_backing_map_free(struct ramzswap *rzs);
bool rzs_backing_get_block(struct ramzswap *rzs, unsigned long *block);
void rzs_backing_put_block(struct ramzswap *rzs, unsigned long block);
int rzs_backing_submit(struct ramzswap *rzs, struct page *page,
		       unsigned long block, struct bio *parent);
int rzs_backing_init(void);
void rzs_backing_exit(void);

/* ramzswap_stats.c */
int rzs_stats_alloc(struct ramzswap *rzs);
void rzs_stats_free(struct ramzswap *rzs);
void rzs_stats_reset(struct ramzswap *rzs);
u64 rzs_hist_start(void);
void rzs_hist_record(struct ramzswap *rzs, enum rzs_hist_op op, u64 start);
ssize_t rzs_hist_show(struct ramzswap *rzs, char *buf);
ssize_t rzs_stats_show(struct ramzswap *rzs, char *buf);
ssize_t rzs_mm_stat_show(struct ramzswap *rzs, char *buf);
ssize_t rzs_io_stat_show(struct ramzswap *rzs, char *buf);
ssize_t rzs_bd_stat_show(struct ramzswap *rzs, char *buf);
void rzs_update_max_used(struct ramzswap *rzs, u64 pages);

/* ramzswap_drv.c */
int rzs_configure(struct ramzswap *rzs, u64 disksize);
int rzs_reset(struct ramzswap *rzs);
u64 rzs_max_disksize(void);
int rzs_parse_size(const char *buf, u64 *val);

/* ramzswap_sysfs.c */
extern const struct attribute_group *rzs_disk_groups[];

#endif /* _RAMZSWAP_DRV_H_ */
