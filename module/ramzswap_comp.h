/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ramzswap: per-CPU compression streams.
 *
 * A stream is taken with rzs_comp_get() and released with rzs_comp_put().
 * In between, preemption is disabled (local_lock): the holder must not
 * sleep and must not take a slot lock (lock order is slot -> stream).
 */
#ifndef _RAMZSWAP_COMP_H_
#define _RAMZSWAP_COMP_H_

#include <linux/types.h>
#include <linux/local_lock.h>

struct crypto_comp;

struct rzs_strm {
	local_lock_t lock;
	void *wrkmem;			/* LZO work memory */
	u8 *buf;			/* compressed output, RZS_COMP_BUF_SIZE */
	struct crypto_comp *tfm;	/* crypto API algorithms */
};

/* Large enough for the worst case of every supported algorithm. */
#define RZS_COMP_BUF_SIZE	(2 * PAGE_SIZE)

struct rzs_algo;

struct rzs_comp {
	struct rzs_strm __percpu *strm;
	const struct rzs_algo *algo;
};

const char *rzs_comp_canonical(const char *name);
int rzs_comp_check(const char *name);
ssize_t rzs_comp_show(const char *cur, char *buf);
struct rzs_comp *rzs_comp_create(const char *name);
void rzs_comp_destroy(struct rzs_comp *comp);
struct rzs_strm *rzs_comp_get(struct rzs_comp *comp);
void rzs_comp_put(struct rzs_comp *comp);
int rzs_compress(struct rzs_comp *comp, struct rzs_strm *strm,
		 const void *src, unsigned int *dlen);
int rzs_decompress(struct rzs_comp *comp, struct rzs_strm *strm,
		   const void *src, unsigned int slen, void *dst);

#endif /* _RAMZSWAP_COMP_H_ */
