// SPDX-License-Identifier: GPL-2.0-only
/*
 * ramzswap: /sys/block/ramzswapN/ attributes.
 *
 * Names follow zram where the meaning is the same:
 *   disksize        RW  bytes; K/M/G/T suffix accepted. Writing initialises
 *                       the device; -EBUSY once initialised.
 *   mem_limit       RW  bytes (0 = none); changeable at any time.
 *   max_zpage_size  RW  bytes; a page that compresses to more is not kept
 *                       compressed (backing device, else a raw copy).
 *                       Default PAGE_SIZE / 2, from 64 up to the largest
 *                       xvmalloc object; changeable at any time, applies to
 *                       later writes; reset restores the default.
 *   backing_dev     RW  block device path, or "none"; only before init.
 *   comp_algorithm  RW  lzo (default), lzo-rle, lz4, zstd; only before init.
 *   initstate       RO  0 or 1.
 *   reset           WO  a non-zero number; -EBUSY while the device is open.
 *   mm_stat, io_stat, bd_stat  RO  zram's formats (see ramzswap_stats.c).
 *   stats           RO  the original compcache statistics, "Name: value"
 *                       per line, sizes in kB with a " kB" suffix; then
 *                       the backing device's counters and Compressions
 *                       (pages given to the compressor).
 *   latency_hist    RW  latency histograms of the page read and write
 *                       paths. Format: 64 lines "<op> <bucket> <count>\n",
 *                       op is "read" then "write", bucket runs 0..31 and
 *                       counts operations whose latency in ns lies in
 *                       [2^bucket, 2^(bucket+1)) (bucket 0 includes 0 ns,
 *                       bucket 31 is open ended). Writing "0" clears it.
 *
 * Malformed values (empty, garbage, signs, overflowing) give -EINVAL.
 * Every handler takes init_lock: for writing when it changes configuration,
 * for reading when it only looks at it.
 */
#define pr_fmt(fmt) "ramzswap: " fmt

#include <linux/kernel.h>
#include <linux/device.h>
#include <linux/blkdev.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "ramzswap_drv.h"
#include "ramzswap_comp.h"
#include "xvmalloc.h"

static inline struct ramzswap *dev_to_rzs(struct device *dev)
{
	return dev_to_disk(dev)->private_data;
}

static ssize_t disksize_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	struct ramzswap *rzs = dev_to_rzs(dev);
	u64 val;

	down_read(&rzs->init_lock);
	val = rzs->disksize;
	up_read(&rzs->init_lock);
	return sysfs_emit(buf, "%llu\n", val);
}

static ssize_t disksize_store(struct device *dev,
			      struct device_attribute *attr,
			      const char *buf, size_t len)
{
	struct ramzswap *rzs = dev_to_rzs(dev);
	u64 size;
	int err;

	if (rzs_parse_size(buf, &size) || !size)
		return -EINVAL;

	down_write(&rzs->init_lock);
	if (rzs_init_done(rzs)) {
		pr_info("%s: cannot change disksize of an initialised device\n",
			rzs->disk->disk_name);
		err = -EBUSY;
	} else {
		err = rzs_configure(rzs, size);
	}
	up_write(&rzs->init_lock);
	return err ? err : len;
}

static ssize_t mem_limit_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct ramzswap *rzs = dev_to_rzs(dev);

	return sysfs_emit(buf, "%llu\n",
			  (u64)READ_ONCE(rzs->limit_pages) << PAGE_SHIFT);
}

static ssize_t mem_limit_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t len)
{
	struct ramzswap *rzs = dev_to_rzs(dev);
	u64 limit;

	if (rzs_parse_size(buf, &limit) || limit > rzs_max_disksize())
		return -EINVAL;

	down_read(&rzs->init_lock);
	WRITE_ONCE(rzs->limit_pages, PAGE_ALIGN(limit) >> PAGE_SHIFT);
	up_read(&rzs->init_lock);
	return len;
}

static ssize_t max_zpage_size_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(dev_to_rzs(dev)->max_zpage));
}

static ssize_t max_zpage_size_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t len)
{
	struct ramzswap *rzs = dev_to_rzs(dev);
	u64 size;

	if (rzs_parse_size(buf, &size) || size < RZS_MIN_ZPAGE ||
	    size > xv_max_alloc_size())
		return -EINVAL;

	/* A plain store: each write reads it once, under no lock. */
	WRITE_ONCE(rzs->max_zpage, size);
	return len;
}

static ssize_t backing_dev_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct ramzswap *rzs = dev_to_rzs(dev);
	ssize_t ret;

	down_read(&rzs->init_lock);
	ret = sysfs_emit(buf, "%s\n",
			 rzs->backing_path ? rzs->backing_path : "none");
	up_read(&rzs->init_lock);
	return ret;
}

static ssize_t backing_dev_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t len)
{
	struct ramzswap *rzs = dev_to_rzs(dev);
	char *path;
	int err;

	path = kmemdup_nul(buf, len, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	strim(path);

	down_write(&rzs->init_lock);
	if (rzs_init_done(rzs)) {
		pr_info("%s: cannot change backing device of an initialised device\n",
			rzs->disk->disk_name);
		err = -EBUSY;
	} else if (!strcmp(path, "none")) {
		rzs_backing_close(rzs);
		err = 0;
	} else {
		err = rzs_backing_open(rzs, path);
	}
	up_write(&rzs->init_lock);

	kfree(path);
	return err ? err : len;
}

static ssize_t comp_algorithm_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct ramzswap *rzs = dev_to_rzs(dev);
	ssize_t ret;

	down_read(&rzs->init_lock);
	ret = rzs_comp_show(rzs->compressor, buf);
	up_read(&rzs->init_lock);
	return ret;
}

static ssize_t comp_algorithm_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t len)
{
	struct ramzswap *rzs = dev_to_rzs(dev);
	const char *name = rzs_comp_canonical(buf);
	int err;

	if (!name)
		return -EINVAL;
	/* May load a module: do it before taking init_lock. */
	err = rzs_comp_check(name);
	if (err)
		return err;

	down_write(&rzs->init_lock);
	if (rzs_init_done(rzs)) {
		pr_info("%s: cannot change algorithm of an initialised device\n",
			rzs->disk->disk_name);
		err = -EBUSY;
	} else {
		strscpy(rzs->compressor, name, sizeof(rzs->compressor));
	}
	up_write(&rzs->init_lock);
	return err ? err : len;
}

static ssize_t initstate_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct ramzswap *rzs = dev_to_rzs(dev);
	bool init;

	down_read(&rzs->init_lock);
	init = rzs_init_done(rzs);
	up_read(&rzs->init_lock);
	return sysfs_emit(buf, "%u\n", init);
}

static ssize_t reset_store(struct device *dev,
			   struct device_attribute *attr,
			   const char *buf, size_t len)
{
	struct ramzswap *rzs = dev_to_rzs(dev);
	unsigned short val;
	int err;

	if (kstrtou16(buf, 10, &val) || !val)
		return -EINVAL;
	err = rzs_reset(rzs);
	return err ? err : len;
}

#define RZS_STAT_ATTR(_name, _fn)					\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct ramzswap *rzs = dev_to_rzs(dev);				\
	ssize_t ret;							\
									\
	down_read(&rzs->init_lock);					\
	ret = _fn(rzs, buf);						\
	up_read(&rzs->init_lock);					\
	return ret;							\
}									\
static DEVICE_ATTR_RO(_name)

RZS_STAT_ATTR(mm_stat, rzs_mm_stat_show);
RZS_STAT_ATTR(io_stat, rzs_io_stat_show);
RZS_STAT_ATTR(bd_stat, rzs_bd_stat_show);
RZS_STAT_ATTR(stats, rzs_stats_show);

static ssize_t latency_hist_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return rzs_hist_show(dev_to_rzs(dev), buf);
}

static ssize_t latency_hist_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t len)
{
	struct ramzswap *rzs = dev_to_rzs(dev);
	int cpu;

	if (!sysfs_streq(buf, "0"))
		return -EINVAL;
	/* Racy against concurrent I/O by design: counts may be lost. */
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(rzs->hist, cpu), 0, sizeof(struct rzs_hist));
	return len;
}

static DEVICE_ATTR_RW(disksize);
static DEVICE_ATTR_RW(mem_limit);
static DEVICE_ATTR_RW(max_zpage_size);
static DEVICE_ATTR_RW(backing_dev);
static DEVICE_ATTR_RW(comp_algorithm);
static DEVICE_ATTR_RO(initstate);
static DEVICE_ATTR_WO(reset);
static DEVICE_ATTR_RW(latency_hist);

static struct attribute *rzs_disk_attrs[] = {
	&dev_attr_disksize.attr,
	&dev_attr_mem_limit.attr,
	&dev_attr_max_zpage_size.attr,
	&dev_attr_backing_dev.attr,
	&dev_attr_comp_algorithm.attr,
	&dev_attr_initstate.attr,
	&dev_attr_reset.attr,
	&dev_attr_mm_stat.attr,
	&dev_attr_io_stat.attr,
	&dev_attr_bd_stat.attr,
	&dev_attr_stats.attr,
	&dev_attr_latency_hist.attr,
	NULL,
};

static const struct attribute_group rzs_disk_group = {
	.attrs = rzs_disk_attrs,
};

const struct attribute_group *rzs_disk_groups[] = {
	&rzs_disk_group,
	NULL,
};
