// SPDX-License-Identifier: GPL-2.0-only
/*
 * ramzswap: per-CPU compression streams.
 *
 * "lzo" (the default and the original compcache compressor) calls
 * lzo1x_1_compress() directly with per-CPU work memory. The other
 * algorithms go through the synchronous crypto compression API with one
 * transform per CPU, because a crypto_comp transform may keep state.
 *
 * Streams exist for every possible CPU, so no CPU hotplug callback is needed;
 * they are allocated at device initialisation with GFP_KERNEL.
 *
 * Decompression is always the bounds-checked variant
 * (lzo1x_decompress_safe(), crypto_comp_decompress()), so a corrupt object
 * yields an error instead of a memory overrun.
 */
#define pr_fmt(fmt) "ramzswap: " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/lzo.h>
#include <linux/crypto.h>
#include <linux/string.h>
#include <linux/err.h>

#include "ramzswap_comp.h"

struct rzs_algo {
	const char *name;	/* name shown in comp_algorithm */
	const char *crypto;	/* crypto API name, NULL for direct LZO */
};

static const struct rzs_algo rzs_algos[] = {
	{ .name = "lzo", .crypto = NULL },
	{ .name = "lzo-rle", .crypto = "lzo-rle" },
	{ .name = "lz4", .crypto = "lz4" },
	{ .name = "zstd", .crypto = "zstd" },
};

static const struct rzs_algo *rzs_algo_find(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(rzs_algos); i++)
		if (sysfs_streq(name, rzs_algos[i].name))
			return &rzs_algos[i];
	return NULL;
}

/* The canonical (static) spelling of @name, or NULL if unknown. */
const char *rzs_comp_canonical(const char *name)
{
	const struct rzs_algo *algo = rzs_algo_find(name);

	return algo ? algo->name : NULL;
}

/*
 * 0 if @name is known and usable. crypto_has_comp() loads the algorithm's
 * module (lz4, zstd) on demand.
 */
int rzs_comp_check(const char *name)
{
	const struct rzs_algo *algo = rzs_algo_find(name);

	if (!algo)
		return -EINVAL;
	if (algo->crypto && !crypto_has_comp(algo->crypto, 0, 0)) {
		pr_err("compression algorithm %s is not available in this kernel (module missing?)\n",
		       algo->name);
		return -ENOENT;
	}
	return 0;
}

ssize_t rzs_comp_show(const char *cur, char *buf)
{
	ssize_t sz = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(rzs_algos); i++) {
		bool sel = !strcmp(cur, rzs_algos[i].name);

		sz += sysfs_emit_at(buf, sz, sel ? "[%s] " : "%s ",
				    rzs_algos[i].name);
	}
	sz += sysfs_emit_at(buf, sz, "\n");
	return sz;
}

static void rzs_strm_free(struct rzs_strm *strm)
{
	if (!IS_ERR_OR_NULL(strm->tfm))
		crypto_free_comp(strm->tfm);
	strm->tfm = NULL;
	kvfree(strm->buf);
	strm->buf = NULL;
	kvfree(strm->wrkmem);
	strm->wrkmem = NULL;
}

static int rzs_strm_init(const struct rzs_algo *algo, struct rzs_strm *strm)
{
	local_lock_init(&strm->lock);
	strm->buf = kvmalloc(RZS_COMP_BUF_SIZE, GFP_KERNEL);
	if (!strm->buf)
		return -ENOMEM;

	if (!algo->crypto) {
		strm->wrkmem = kvmalloc(LZO1X_1_MEM_COMPRESS, GFP_KERNEL);
		return strm->wrkmem ? 0 : -ENOMEM;
	}

	strm->tfm = crypto_alloc_comp(algo->crypto, 0, 0);
	if (IS_ERR(strm->tfm)) {
		int err = PTR_ERR(strm->tfm);

		strm->tfm = NULL;
		return err;
	}
	return 0;
}

struct rzs_comp *rzs_comp_create(const char *name)
{
	const struct rzs_algo *algo = rzs_algo_find(name);
	struct rzs_comp *comp;
	int cpu, err;

	if (!algo)
		return ERR_PTR(-EINVAL);

	comp = kzalloc(sizeof(*comp), GFP_KERNEL);
	if (!comp)
		return ERR_PTR(-ENOMEM);
	comp->algo = algo;

	comp->strm = alloc_percpu(struct rzs_strm);
	if (!comp->strm) {
		err = -ENOMEM;
		goto err_free_comp;
	}

	for_each_possible_cpu(cpu) {
		err = rzs_strm_init(algo, per_cpu_ptr(comp->strm, cpu));
		if (err)
			goto err_free_strm;
	}
	return comp;

err_free_strm:
	pr_err("cannot set up %s compression streams: %d\n", algo->name, err);
	for_each_possible_cpu(cpu)
		rzs_strm_free(per_cpu_ptr(comp->strm, cpu));
	free_percpu(comp->strm);
err_free_comp:
	kfree(comp);
	return ERR_PTR(err);
}

void rzs_comp_destroy(struct rzs_comp *comp)
{
	int cpu;

	if (!comp)
		return;
	for_each_possible_cpu(cpu)
		rzs_strm_free(per_cpu_ptr(comp->strm, cpu));
	free_percpu(comp->strm);
	kfree(comp);
}

/* Disables preemption until rzs_comp_put(). */
struct rzs_strm *rzs_comp_get(struct rzs_comp *comp)
{
	local_lock(&comp->strm->lock);
	return this_cpu_ptr(comp->strm);
}

void rzs_comp_put(struct rzs_comp *comp)
{
	local_unlock(&comp->strm->lock);
}

/*
 * Compress one page at @src into strm->buf. On success *@dlen holds the
 * compressed length (which may exceed PAGE_SIZE for incompressible data).
 */
int rzs_compress(struct rzs_comp *comp, struct rzs_strm *strm,
		 const void *src, unsigned int *dlen)
{
	size_t out_len = RZS_COMP_BUF_SIZE;
	int ret;

	if (!comp->algo->crypto) {
		ret = lzo1x_1_compress(src, PAGE_SIZE, strm->buf, &out_len,
				       strm->wrkmem);
		if (ret != LZO_E_OK)
			return -EIO;
		*dlen = out_len;
		return 0;
	}

	*dlen = RZS_COMP_BUF_SIZE;
	return crypto_comp_compress(strm->tfm, src, PAGE_SIZE, strm->buf,
				    dlen);
}

/* Decompress @slen bytes at @src into the page at @dst. */
int rzs_decompress(struct rzs_comp *comp, struct rzs_strm *strm,
		   const void *src, unsigned int slen, void *dst)
{
	unsigned int dlen = PAGE_SIZE;
	size_t out_len = PAGE_SIZE;
	int ret;

	if (!comp->algo->crypto) {
		ret = lzo1x_decompress_safe(src, slen, dst, &out_len);
		if (ret != LZO_E_OK || out_len != PAGE_SIZE)
			return -EIO;
		return 0;
	}

	ret = crypto_comp_decompress(strm->tfm, src, slen, dst, &dlen);
	if (ret || dlen != PAGE_SIZE)
		return -EIO;
	return 0;
}
