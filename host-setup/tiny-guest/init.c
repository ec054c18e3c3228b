// SPDX-License-Identifier: GPL-2.0-only
/*
 * A tiny guest: the /init of an initramfs that prints one line on the
 * console and powers the machine off. The lab uses it to probe whether
 * /dev/kvm runs a stock kernel, and to check that nested guests start
 * through libvirt and go away by themselves.
 *
 * The line printed is "KIT-TINY-GUEST-OK <text>", where <text> is the value
 * of the kernel parameter kit.say= (or "hello").
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

static void find_say(char *out, size_t len)
{
	char cmdline[4096];
	ssize_t n;
	int fd;
	char *p;

	snprintf(out, len, "hello");
	mkdir("/proc", 0555);
	if (mount("proc", "/proc", "proc", 0, NULL) != 0)
		return;
	fd = open("/proc/cmdline", O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, cmdline, sizeof(cmdline) - 1);
	close(fd);
	if (n <= 0)
		return;
	cmdline[n] = '\0';
	p = strstr(cmdline, "kit.say=");
	if (!p)
		return;
	p += strlen("kit.say=");
	snprintf(out, len, "%.*s", (int)strcspn(p, " \n"), p);
}

int main(void)
{
	char say[256];
	int fd;

	fd = open("/dev/console", O_WRONLY);
	if (fd < 0) {
		mkdir("/dev", 0755);
		mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
		fd = open("/dev/console", O_WRONLY);
	}
	find_say(say, sizeof(say));
	if (fd >= 0)
		dprintf(fd, "\nKIT-TINY-GUEST-OK %s\n", say);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
