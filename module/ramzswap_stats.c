// SPDX-License-Identifier: GPL-2.0-only
/*
 * ramzswap: statistics and latency histograms.
 *
 * Counters are atomic64_t in struct rzs_stats. Latency histograms are
 * per-CPU (no shared cache line is written on the I/O path) and summed when
 * read. Bucket i counts operations whose latency in nanoseconds lies in
 * [2^i, 2^(i+1)); bucket 0 also counts 0 ns and the last bucket is open
 * ended. The timed section covers the same-filled check, compression or
 * decompression and the allocator, i.e. the whole synchronous part of one
 * page's read or write (for pages forwarded to the backing device, only the
 * submission).
 */
#define pr_fmt(fmt) "ramzswap: " fmt

#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/sysfs.h>

#include "ramzswap_drv.h"
#include "xvmalloc.h"

int rzs_stats_alloc(struct ramzswap *rzs)
{
	rzs->hist = alloc_percpu(struct rzs_hist);
	return rzs->hist ? 0 : -ENOMEM;
}

void rzs_stats_free(struct ramzswap *rzs)
{
	free_percpu(rzs->hist);
	rzs->hist = NULL;
}

void rzs_stats_reset(struct ramzswap *rzs)
{
	int cpu;

	memset(&rzs->stats, 0, sizeof(rzs->stats));
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(rzs->hist, cpu), 0, sizeof(struct rzs_hist));
}

/*
 * Latency timestamps come from local_clock(), the scheduler clock: a TSC
 * read. ktime_get_ns() reads the clocksource, which is the HPET in TCG
 * guests (an emulated MMIO read per call) and would add measurable time to
 * every request. local_clock() is not synchronised across CPUs and a write
 * may sleep and migrate, so a negative delta counts as 0 ns.
 */
u64 rzs_hist_start(void)
{
	return local_clock();
}

void rzs_hist_record(struct ramzswap *rzs, enum rzs_hist_op op, u64 start)
{
	u64 now = local_clock();
	u64 ns = now > start ? now - start : 0;
	unsigned int bucket = ns ? ilog2(ns) : 0;

	if (bucket >= RZS_HIST_BUCKETS)
		bucket = RZS_HIST_BUCKETS - 1;
	this_cpu_inc(rzs->hist->count[op][bucket]);
}

ssize_t rzs_hist_show(struct ramzswap *rzs, char *buf)
{
	static const char * const names[RZS_HIST_NR_OPS] = {
		[RZS_HIST_READ] = "read",
		[RZS_HIST_WRITE] = "write",
	};
	ssize_t sz = 0;
	int op, b, cpu;

	for (op = 0; op < RZS_HIST_NR_OPS; op++) {
		for (b = 0; b < RZS_HIST_BUCKETS; b++) {
			u64 sum = 0;

			for_each_possible_cpu(cpu)
				sum += per_cpu_ptr(rzs->hist, cpu)->count[op][b];
			sz += sysfs_emit_at(buf, sz, "%s %d %llu\n", names[op], b,
					    sum);
		}
	}
	return sz;
}

/* Track the high watermark of used memory (pages). */
void rzs_update_max_used(struct ramzswap *rzs, u64 pages)
{
	s64 cur = atomic64_read(&rzs->stats.max_used_pages);

	while ((u64)cur < pages) {
		s64 old = atomic64_cmpxchg(&rzs->stats.max_used_pages, cur,
					   pages);
		if (old == cur)
			break;
		cur = old;
	}
}

#define rzs_stat(rzs, name)	((u64)atomic64_read(&(rzs)->stats.name))

static u64 rzs_percent(u64 part, u64 whole)
{
	return whole ? div64_u64(part * 100, whole) : 0;
}

/*
 * The original compcache statistics, one "Name: value" per line. Sizes are
 * in kB and carry a " kB" suffix, percentages are integers. PagesStored
 * counts pages held in memory (compressed or raw), not same-filled pages
 * (ZeroPages) nor pages on the backing device; GoodCompress% and
 * NoCompress% are relative to PagesStored. PagesUsed is the memory used for
 * them in pages (xvmalloc pool plus raw pages). SplitPages counts the
 * compressed pages stored in two parts (xv_malloc_split()).
 */
ssize_t rzs_stats_show(struct ramzswap *rzs, char *buf)
{
	u64 stored = rzs_stat(rzs, pages_stored);
	u64 used = rzs_mem_used_pages(rzs);
	ssize_t sz = 0;

	sz += sysfs_emit_at(buf, sz, "DiskSize: %llu kB\n", rzs->disksize >> 10);
	sz += sysfs_emit_at(buf, sz, "NumReads: %llu\n", rzs_stat(rzs, num_reads));
	sz += sysfs_emit_at(buf, sz, "NumWrites: %llu\n",
			    rzs_stat(rzs, num_writes));
	sz += sysfs_emit_at(buf, sz, "FailedReads: %llu\n",
			    rzs_stat(rzs, failed_reads));
	sz += sysfs_emit_at(buf, sz, "FailedWrites: %llu\n",
			    rzs_stat(rzs, failed_writes));
	sz += sysfs_emit_at(buf, sz, "InvalidIO: %llu\n",
			    rzs_stat(rzs, invalid_io));
	sz += sysfs_emit_at(buf, sz, "NotifyFree: %llu\n",
			    rzs_stat(rzs, notify_free));
	sz += sysfs_emit_at(buf, sz, "PagesDiscard: %llu\n",
			    rzs_stat(rzs, pages_discard));
	sz += sysfs_emit_at(buf, sz, "ZeroPages: %llu\n",
			    rzs_stat(rzs, same_pages));
	sz += sysfs_emit_at(buf, sz, "GoodCompress%%: %llu\n",
			    rzs_percent(rzs_stat(rzs, good_compress), stored));
	sz += sysfs_emit_at(buf, sz, "NoCompress%%: %llu\n",
			    rzs_percent(rzs_stat(rzs, raw_pages), stored));
	sz += sysfs_emit_at(buf, sz, "PagesStored: %llu\n", stored);
	sz += sysfs_emit_at(buf, sz, "PagesUsed: %llu\n", used);
	sz += sysfs_emit_at(buf, sz, "OrigDataSize: %llu kB\n",
			    stored << (PAGE_SHIFT - 10));
	sz += sysfs_emit_at(buf, sz, "ComprDataSize: %llu kB\n",
			    rzs_stat(rzs, compr_data_size) >> 10);
	sz += sysfs_emit_at(buf, sz, "MemUsedTotal: %llu kB\n",
			    used << (PAGE_SHIFT - 10));
	sz += sysfs_emit_at(buf, sz, "BDevNumReads: %llu\n",
			    rzs_stat(rzs, bd_reads));
	sz += sysfs_emit_at(buf, sz, "BDevNumWrites: %llu\n",
			    rzs_stat(rzs, bd_writes));
	sz += sysfs_emit_at(buf, sz, "BDevFailedWrites: %llu\n",
			    rzs_stat(rzs, bd_failed_writes));
	sz += sysfs_emit_at(buf, sz, "BDevBypassed: %llu\n",
			    rzs_stat(rzs, bd_bypass));
	sz += sysfs_emit_at(buf, sz, "Compressions: %llu\n",
			    rzs_stat(rzs, compressions));
	sz += sysfs_emit_at(buf, sz, "SplitPages: %llu\n",
			    rzs_stat(rzs, split_pages));
	return sz;
}

/*
 * zram's mm_stat columns, in bytes unless noted: orig_data_size (pages in
 * memory including same-filled ones), compr_data_size, mem_used_total
 * (xvmalloc pool pages plus raw pages), mem_limit, mem_used_max, same_pages
 * (count), pages_compacted (always 0: xvmalloc does not compact),
 * huge_pages (raw pages now), huge_pages_since (raw pages ever).
 */
ssize_t rzs_mm_stat_show(struct ramzswap *rzs, char *buf)
{
	u64 orig = rzs_stat(rzs, pages_stored) + rzs_stat(rzs, same_pages);

	return sysfs_emit(buf, "%8llu %8llu %8llu %8llu %8llu %8llu %8llu %8llu %8llu\n",
			  orig << PAGE_SHIFT,
			  rzs_stat(rzs, compr_data_size),
			  rzs_mem_used_pages(rzs) << PAGE_SHIFT,
			  (u64)READ_ONCE(rzs->limit_pages) << PAGE_SHIFT,
			  rzs_stat(rzs, max_used_pages) << PAGE_SHIFT,
			  rzs_stat(rzs, same_pages),
			  0ULL,
			  rzs_stat(rzs, raw_pages),
			  rzs_stat(rzs, raw_pages_since));
}

/* zram's io_stat: failed_reads failed_writes invalid_io notify_free */
ssize_t rzs_io_stat_show(struct ramzswap *rzs, char *buf)
{
	return sysfs_emit(buf, "%8llu %8llu %8llu %8llu\n",
			  rzs_stat(rzs, failed_reads),
			  rzs_stat(rzs, failed_writes),
			  rzs_stat(rzs, invalid_io),
			  rzs_stat(rzs, notify_free));
}

/* zram's bd_stat, in pages: bd_count bd_reads bd_writes */
ssize_t rzs_bd_stat_show(struct ramzswap *rzs, char *buf)
{
	return sysfs_emit(buf, "%8llu %8llu %8llu\n",
			  rzs_stat(rzs, bd_count),
			  rzs_stat(rzs, bd_reads),
			  rzs_stat(rzs, bd_writes));
}
