// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-int: print the 32-bit integer at the start of kernel (or module)
 * variables, read through /proc/kallsyms and /proc/kcore. For a static key
 * that is its enable count (struct static_key starts with atomic_t
 * enabled). Runs as root in the lab host VM (tests/vm/lab checks that
 * kvm-apic-key-pin holds kvm's APIC keys with it).
 *
 * usage: kernel-int SYMBOL...   prints "SYMBOL VALUE" per symbol; exit 1
 *                               with a message when a symbol is missing or
 *                               unreadable, 2 on usage errors
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The address of SYM in /proc/kallsyms, or 0. */
static uint64_t symbol_address(const char *sym)
{
	char line[512], name[256], type;
	unsigned long long addr;
	uint64_t found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
		    strcmp(name, sym) == 0) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

/* Read LEN bytes of kernel virtual memory at ADDR from /proc/kcore. */
static int kcore_read(int fd, const Elf64_Ehdr *eh, uint64_t addr, void *buf,
		      size_t len)
{
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;
		off_t at = (off_t)(eh->e_phoff + (uint64_t)i * eh->e_phentsize);

		if (pread(fd, &ph, sizeof(ph), at) != (ssize_t)sizeof(ph))
			return -1;
		if (ph.p_type != PT_LOAD || addr < ph.p_vaddr ||
		    addr + len > ph.p_vaddr + ph.p_memsz)
			continue;
		at = (off_t)(ph.p_offset + (addr - ph.p_vaddr));
		return pread(fd, buf, len, at) == (ssize_t)len ? 0 : -1;
	}
	errno = EFAULT;
	return -1;
}

int main(int argc, char **argv)
{
	Elf64_Ehdr eh;
	int fd, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: kernel-int SYMBOL...\n");
		return 2;
	}
	fd = open("/proc/kcore", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64) {
		fprintf(stderr, "kernel-int: /proc/kcore: %s\n",
			fd < 0 ? strerror(errno) : "not a 64-bit ELF core");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		uint64_t addr = symbol_address(argv[i]);
		int32_t value;

		if (!addr) {
			fprintf(stderr, "kernel-int: %s: not in /proc/kallsyms (or addresses hidden)\n",
				argv[i]);
			rc = 1;
			continue;
		}
		if (kcore_read(fd, &eh, addr, &value, sizeof(value))) {
			fprintf(stderr, "kernel-int: %s at 0x%" PRIx64 ": %s\n",
				argv[i], addr, strerror(errno));
			rc = 1;
			continue;
		}
		printf("%s %" PRId32 "\n", argv[i], value);
	}
	close(fd);
	return rc;
}
