/*
 * console.c - COM1 serial console and out(), the minimal printf that
 * writes one "HOG ..." line per call.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "winlike.h"

#define COM1 0x3f8

void serial_init(void)
{
	outb(COM1 + 1, 0x00); /* no interrupts */
	outb(COM1 + 3, 0x80); /* DLAB */
	outb(COM1 + 0, 0x01); /* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03); /* 8N1 */
	outb(COM1 + 2, 0xc7); /* FIFO on, cleared */
	outb(COM1 + 4, 0x03); /* DTR, RTS */
}

static void serial_putc(char c)
{
	unsigned spin = 0;
	while (!(inb(COM1 + 5) & 0x20) && ++spin < 1000000u)
		;
	outb(COM1, (uint8_t)c);
}

void serial_drain(void)
{
	unsigned spin = 0;
	while (!(inb(COM1 + 5) & 0x40) && ++spin < 1000000u)
		;
}

/* minimal printf: %s %c %d %u %x %lu %llu %llx %zu %% ; width/0 for numbers */
struct obuf {
	char b[256];
	size_t n;
};

static void ob_putc(struct obuf *o, char c)
{
	if (o->n < sizeof(o->b) - 2)
		o->b[o->n++] = c;
}

static void ob_num(struct obuf *o, uint64_t v, unsigned base, unsigned width,
		   char padc)
{
	char tmp[24];
	unsigned n = 0;

	do {
		unsigned dgt = (unsigned)(v % base);
		tmp[n++] = (char)(dgt < 10 ? '0' + dgt : 'a' + dgt - 10);
		v /= base;
	} while (v && n < sizeof(tmp));
	while (n < width && n < sizeof(tmp))
		tmp[n++] = padc;
	while (n)
		ob_putc(o, tmp[--n]);
}

static void kvprintf(const char *fmt, va_list ap)
{
	struct obuf o;
	size_t i;

	o.n = 0;
	for (; *fmt; fmt++) {
		unsigned width = 0, lng = 0;
		char padc = ' ';
		uint64_t v;
		const char *s;

		if (*fmt != '%') {
			ob_putc(&o, *fmt);
			continue;
		}
		fmt++;
		if (*fmt == '0')
			padc = '0';
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (unsigned)(*fmt++ - '0');
		while (*fmt == 'l' || *fmt == 'z')
			lng += (*fmt++ == 'l') ? 1 : 0;
		switch (*fmt) {
		case 's':
			for (s = va_arg(ap, const char *); *s; s++)
				ob_putc(&o, *s);
			break;
		case 'c':
			ob_putc(&o, (char)va_arg(ap, int));
			break;
		case 'd': {
			int x = va_arg(ap, int);
			if (x < 0) {
				ob_putc(&o, '-');
				x = -x;
			}
			ob_num(&o, (uint32_t)x, 10, width, padc);
			break;
		}
		case 'u':
		case 'x':
			v = lng >= 2 ? va_arg(ap, unsigned long long)
			    : lng == 1 ? va_arg(ap, unsigned long)
				       : va_arg(ap, unsigned);
			ob_num(&o, v, *fmt == 'x' ? 16 : 10, width, padc);
			break;
		case '%':
			ob_putc(&o, '%');
			break;
		default:
			ob_putc(&o, '?');
			break;
		}
	}
	ob_putc(&o, '\n');
	for (i = 0; i < o.n; i++) {
		if (o.b[i] == '\n')
			serial_putc('\r');
		serial_putc(o.b[i]);
	}
}

void out(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
}
