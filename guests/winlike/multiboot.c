/*
 * multiboot.c - reads the multiboot (v1) info: the command line, and the
 * usable RAM regions above the kernel (from the memory map).
 */
#include <stddef.h>
#include <stdint.h>

#include "../common/pagegen.h"
#include "winlike.h"

extern char _kernel_start[], _kernel_end[]; /* linker.ld */

struct mb_info {
	uint32_t flags, mem_lower, mem_upper, boot_device, cmdline;
	uint32_t mods_count, mods_addr, syms[4], mmap_length, mmap_addr;
};

char cmdline[1024];

#define MAX_REGIONS 16
struct region regions[MAX_REGIONS];
unsigned nregions;

static void add_region(uint64_t base, uint64_t len)
{
	uint64_t end = base + len;
	uint32_t kend = (uint32_t)(uintptr_t)_kernel_end;

	if (end > 0xfffff000ull)
		end = 0xfffff000ull;
	if (base < kend)
		base = kend;
	base = (base + PG_SIZE - 1) & ~(uint64_t)(PG_SIZE - 1);
	end &= ~(uint64_t)(PG_SIZE - 1);
	if (end <= base + PG_SIZE || nregions == MAX_REGIONS)
		return;
	regions[nregions].base = (uint32_t)base;
	regions[nregions].end = (uint32_t)end;
	nregions++;
}

int read_multiboot(uint32_t magic, const struct mb_info *mbi)
{
	if (magic != 0x2badb002u) {
		out("HOG error setup reason=not_multiboot magic=0x%x", magic);
		return -1;
	}
	if (mbi->flags & (1u << 2)) {
		const char *c = (const char *)(uintptr_t)mbi->cmdline;
		size_t n = kstrlen(c);
		if (n >= sizeof(cmdline))
			n = sizeof(cmdline) - 1;
		memcpy(cmdline, c, n);
		cmdline[n] = 0;
	}
	if (mbi->flags & (1u << 6)) {
		uint32_t p = mbi->mmap_addr, end = mbi->mmap_addr + mbi->mmap_length;
		while (p + 24 <= end) {
			uint32_t size = *(const uint32_t *)(uintptr_t)p;
			uint64_t base = *(const uint64_t *)(uintptr_t)(p + 4);
			uint64_t len = *(const uint64_t *)(uintptr_t)(p + 12);
			uint32_t type = *(const uint32_t *)(uintptr_t)(p + 20);
			if (type == 1 && base >= 0x100000u && base < 0x100000000ull)
				add_region(base, len);
			p += size + 4;
		}
	} else if (mbi->flags & 1u) {
		add_region(0x100000u, (uint64_t)mbi->mem_upper * 1024u);
	}
	if (!nregions) {
		out("HOG error setup reason=no_memory_map");
		return -1;
	}
	return 0;
}
