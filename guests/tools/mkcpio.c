/*
 * mkcpio - write a minimal newc initramfs to stdout:
 *   /dev (dir), /dev/console (char 5:1), /proc, /sys (dirs), /init (file).
 * usage: mkcpio INIT_BINARY > initramfs.cpio
 * Needs no root (device nodes are only described in the archive) and is
 * deterministic (mtime 0, fixed inode numbers).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned ino = 1;

static void pad4(size_t n)
{
	while (n++ % 4)
		putchar(0);
}

static void entry(const char *name, unsigned mode, unsigned rmaj, unsigned rmin,
		  const unsigned char *data, size_t size)
{
	size_t namesz = strlen(name) + 1;

	printf("070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
	       ino++, mode, 0u, 0u, (mode & 0040000) ? 2u : 1u, 0u, size, 0u, 0u,
	       rmaj, rmin, namesz, 0u);
	fwrite(name, 1, namesz, stdout);
	pad4(110 + namesz);
	if (size) {
		fwrite(data, 1, size, stdout);
		pad4(size);
	}
}

int main(int argc, char **argv)
{
	unsigned char *buf = NULL;
	size_t size = 0, cap = 0, n;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: mkcpio INIT_BINARY > out.cpio\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	for (;;) {
		if (size == cap) {
			cap = cap ? cap * 2 : 1 << 20;
			buf = realloc(buf, cap);
			if (!buf) {
				fprintf(stderr, "mkcpio: out of memory\n");
				return 1;
			}
		}
		n = fread(buf + size, 1, cap - size, f);
		if (n == 0)
			break;
		size += n;
	}
	if (ferror(f)) {
		perror(argv[1]);
		return 1;
	}
	fclose(f);
	entry("dev", 0040755, 0, 0, NULL, 0);
	entry("dev/console", 0020600, 5, 1, NULL, 0);
	entry("proc", 0040555, 0, 0, NULL, 0);
	entry("sys", 0040555, 0, 0, NULL, 0);
	entry("init", 0100755, 0, 0, buf, size);
	entry("TRAILER!!!", 0, 0, 0, NULL, 0);
	free(buf);
	return fflush(stdout) ? 1 : 0;
}
