/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace emulation of the small part of the kernel API
 * that xvmalloc.c uses, so that the very same xvmalloc.c builds into the
 * unit tests, the fuzzer and the allocator simulator.
 *
 * Only included when __KERNEL__ is not defined (see xvmalloc.h).
 *
 * Besides emulating the API, the shim checks how xvmalloc uses it:
 *  - alloc_page() with flags that allow blocking, and might_sleep_if(), abort
 *    when called with a pool spinlock held (a sleep in atomic context in the
 *    kernel);
 *  - kmap_local_page()/kunmap_local() must nest and unmap in LIFO order;
 *  - pages outstanding are counted, and alloc_page() can be made to fail.
 *
 * Exactly one translation unit of a program must expand XV_USER_ENV_DEFINE at
 * file scope to define the shim's state.
 */
#ifndef _XVMALLOC_USER_H_
#define _XVMALLOC_USER_H_

#ifdef __KERNEL__
#error "this header is for userspace builds only"
#endif

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#define __bitwise
typedef unsigned int __bitwise gfp_t;

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#define BITS_PER_LONG	(__SIZEOF_LONG__ * 8)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define BITS_TO_LONGS(nr)	DIV_ROUND_UP(nr, BITS_PER_LONG)
#define BIT(nr)		(1UL << (nr))
#define ALIGN(x, a)	(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)	((t)(a) > (t)(b) ? (t)(a) : (t)(b))

/* gfp flags: the values only need to be distinct bits here. */
#define __GFP_DMA		0x01u
#define __GFP_HIGHMEM		0x02u
#define __GFP_IO		0x40u
#define __GFP_FS		0x80u
#define __GFP_ZERO		0x100u
#define __GFP_DIRECT_RECLAIM	0x400u
#define __GFP_KSWAPD_RECLAIM	0x800u
#define __GFP_NOWARN		0x2000u
#define __GFP_COMP		0x40000u
#define __GFP_HIGH		0x20u
#define __GFP_RECLAIM	(__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define GFP_ATOMIC	(__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_NOWAIT	(__GFP_KSWAPD_RECLAIM)
#define GFP_NOIO	(__GFP_RECLAIM)
#define GFP_NOFS	(__GFP_RECLAIM | __GFP_IO)
#define GFP_KERNEL	(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_HIGHUSER	(GFP_KERNEL | __GFP_HIGHMEM)

static inline bool gfpflags_allow_blocking(gfp_t flags)
{
	return !!(flags & __GFP_DIRECT_RECLAIM);
}

/* A page: a pointer to a PAGE_SIZE aligned, PAGE_SIZE long buffer. */
struct page {
	void *virt;
	unsigned long magic;
};

#define XV_USER_PAGE_MAGIC	0x5856504147450000UL	/* "XVPAGE" */
#define XV_USER_KMAP_DEPTH	16

/* Shim state, shared by all translation units of one program. */
struct xv_user_env {
	/* pages handed out by alloc_page() and not yet __free_page()d */
	long pages_outstanding;
	/* total alloc_page() calls that succeeded */
	long pages_allocated;
	/* alloc_page() calls that were failed on purpose */
	long pages_failed;
	/*
	 * Failure injection: if >= 0, that many more alloc_page() calls
	 * succeed, then every call fails until it is set back to -1.
	 */
	long fail_after;
	/* optional hook: return true to make this alloc_page() fail */
	bool (*alloc_page_hook)(gfp_t flags, void *arg);
	void *alloc_page_hook_arg;
	/* WARN_ON()/WARN_ON_ONCE() that fired */
	long warnings;
	/* abort() on the first warning (the fuzzer wants this) */
	bool abort_on_warn;
	/* do not print warnings to stderr (for tests that provoke them) */
	bool quiet_warn;
	/* flags passed to the last alloc_page() */
	gfp_t last_gfp;
};

/* Per-thread checks: spinlocks held and the kmap_local stack. */
struct xv_user_thread {
	int locks_held;
	int kmap_depth;
	void *kmap_stack[XV_USER_KMAP_DEPTH];
};

extern struct xv_user_env xv_user_env;
extern _Thread_local struct xv_user_thread xv_user_thread;

#define XV_USER_ENV_DEFINE						\
	struct xv_user_env xv_user_env = { .fail_after = -1 };		\
	_Thread_local struct xv_user_thread xv_user_thread

#define xv_user_die(...)						\
	do {								\
		fprintf(stderr, "xvmalloc shim: " __VA_ARGS__);		\
		fputc('\n', stderr);					\
		abort();						\
	} while (0)

static inline bool xv_user_warn(bool cond, const char *what,
				const char *file, int line)
{
	if (cond) {
		__atomic_add_fetch(&xv_user_env.warnings, 1, __ATOMIC_RELAXED);
		if (!xv_user_env.quiet_warn || xv_user_env.abort_on_warn)
			fprintf(stderr, "WARNING: %s:%d: %s\n", file, line,
				what);
		if (xv_user_env.abort_on_warn)
			abort();
	}
	return cond;
}

/* Every WARN is reported: tests count warnings, so "once" is not needed. */
#define WARN_ON(cond)	xv_user_warn(!!(cond), #cond, __FILE__, __LINE__)
#define WARN_ON_ONCE(cond)	WARN_ON(cond)
#define BUG_ON(cond)							\
	do {								\
		if (unlikely(cond))					\
			xv_user_die("BUG at %s:%d: %s", __FILE__,	\
				    __LINE__, #cond);			\
	} while (0)
#define BUG()		BUG_ON(1)
#define BUILD_BUG_ON(cond)	static_assert(!(cond), #cond)

#define might_sleep()							\
	do {								\
		if (xv_user_thread.locks_held)				\
			xv_user_die("%s:%d: might sleep with %d spinlock(s) held", \
				    __FILE__, __LINE__,			\
				    xv_user_thread.locks_held);		\
	} while (0)
#define might_sleep_if(cond)						\
	do {								\
		if (cond)						\
			might_sleep();					\
	} while (0)

/*
 * Spinlocks: mutexes plus a per-thread count of locks held. xvmalloc never
 * nests its lock, so taking a second one is reported as recursion.
 */
struct xv_user_spinlock {
	pthread_mutex_t m;
};

#define spinlock_t struct xv_user_spinlock

static inline void spin_lock_init(spinlock_t *lock)
{
	if (pthread_mutex_init(&lock->m, NULL))
		xv_user_die("pthread_mutex_init failed");
}

static inline void spin_lock(spinlock_t *lock)
{
	if (xv_user_thread.locks_held)
		xv_user_die("%s: a spinlock is already held", __func__);
	if (pthread_mutex_lock(&lock->m))
		xv_user_die("%s: pthread_mutex_lock failed", __func__);
	xv_user_thread.locks_held++;
}

static inline void spin_unlock(spinlock_t *lock)
{
	if (xv_user_thread.locks_held <= 0)
		xv_user_die("%s: no spinlock held", __func__);
	xv_user_thread.locks_held--;
	if (pthread_mutex_unlock(&lock->m))
		xv_user_die("%s: pthread_mutex_unlock failed", __func__);
}

/* Not part of the kernel API: release the mutex (before freeing it). */
static inline void xv_user_spin_lock_destroy(spinlock_t *lock)
{
	pthread_mutex_destroy(&lock->m);
}

/* Slab */
static inline void *kzalloc(size_t size, gfp_t flags)
{
	might_sleep_if(gfpflags_allow_blocking(flags));
	return calloc(1, size);
}

static inline void *kmalloc(size_t size, gfp_t flags)
{
	might_sleep_if(gfpflags_allow_blocking(flags));
	return malloc(size);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

/* Page allocator: order-0 pages only, like xvmalloc itself. */
static inline bool xv_user_should_fail(gfp_t flags)
{
	if (xv_user_env.alloc_page_hook &&
	    xv_user_env.alloc_page_hook(flags, xv_user_env.alloc_page_hook_arg))
		return true;
	if (xv_user_env.fail_after == 0)
		return true;
	if (xv_user_env.fail_after > 0)
		xv_user_env.fail_after--;
	return false;
}

static inline struct page *alloc_page(gfp_t flags)
{
	struct page *page;

	might_sleep_if(gfpflags_allow_blocking(flags));
	if (flags & __GFP_COMP)
		xv_user_die("%s: __GFP_COMP makes no sense for order 0", __func__);
	xv_user_env.last_gfp = flags;
	if (xv_user_should_fail(flags)) {
		__atomic_add_fetch(&xv_user_env.pages_failed, 1,
				   __ATOMIC_RELAXED);
		return NULL;
	}
	page = malloc(sizeof(*page));
	if (!page)
		return NULL;
	page->virt = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	if (!page->virt) {
		free(page);
		return NULL;
	}
	/* Fresh pages hold garbage, as in the kernel without __GFP_ZERO. */
	memset(page->virt, (flags & __GFP_ZERO) ? 0 : 0xa5, PAGE_SIZE);
	page->magic = XV_USER_PAGE_MAGIC;
	__atomic_add_fetch(&xv_user_env.pages_outstanding, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&xv_user_env.pages_allocated, 1, __ATOMIC_RELAXED);
	return page;
}

static inline void __free_page(struct page *page)
{
	if (!page || page->magic != XV_USER_PAGE_MAGIC)
		xv_user_die("%s: not a page from alloc_page()", __func__);
	page->magic = 0;
	free(page->virt);
	free(page);
	__atomic_sub_fetch(&xv_user_env.pages_outstanding, 1, __ATOMIC_RELAXED);
}

static inline void *kmap_local_page(struct page *page)
{
	struct xv_user_thread *t = &xv_user_thread;

	if (!page || page->magic != XV_USER_PAGE_MAGIC)
		xv_user_die("%s: bad page %p", __func__, (void *)page);
	if (t->kmap_depth >= XV_USER_KMAP_DEPTH)
		xv_user_die("%s: too deeply nested", __func__);
	t->kmap_stack[t->kmap_depth++] = page->virt;
	return page->virt;
}

static inline void kunmap_local(const void *addr)
{
	struct xv_user_thread *t = &xv_user_thread;
	uintptr_t base = (uintptr_t)addr & PAGE_MASK;

	if (t->kmap_depth <= 0)
		xv_user_die("%s: nothing mapped", __func__);
	if ((uintptr_t)t->kmap_stack[t->kmap_depth - 1] != base)
		xv_user_die("%s: not the last mapping (not LIFO)", __func__);
	t->kmap_depth--;
}

/* Bit operations (the atomic ones need not be atomic here). */
static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] &= ~(1UL << (nr % BITS_PER_LONG));
}

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return (addr[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1;
}

#define set_bit(nr, addr)	__set_bit(nr, addr)
#define clear_bit(nr, addr)	__clear_bit(nr, addr)

/* Index of the lowest set bit; undefined for 0, as in the kernel. */
static inline unsigned long __ffs(unsigned long word)
{
	if (!word)
		xv_user_die("%s(0) is undefined", __func__);
	return __builtin_ctzl(word);
}

/* 1-based index of the highest set bit, 0 for 0. */
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline unsigned long __fls(unsigned long word)
{
	if (!word)
		xv_user_die("%s(0) is undefined", __func__);
	return BITS_PER_LONG - 1 - __builtin_clzl(word);
}

#endif /* _XVMALLOC_USER_H_ */
