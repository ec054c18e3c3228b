/*
 * libc.c - the freestanding C library bits hog-winlike needs: mem*()
 * (also called by compiler-generated code), the 64-bit division helpers
 * GCC/clang emit calls to on i386 (__udivdi3 & co.), and string helpers.
 */
#include <stddef.h>
#include <stdint.h>

#include "winlike.h"

/* libgcc's helpers: only called by compiler-generated code */
uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);

void *memset(void *d, int c, size_t n)
{
	uint8_t *p = d;
	while (n--)
		*p++ = (uint8_t)c;
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	uint8_t *p = d;
	const uint8_t *q = s;
	while (n--)
		*p++ = *q++;
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	uint8_t *p = d;
	const uint8_t *q = s;
	if (p < q)
		while (n--)
			*p++ = *q++;
	else
		while (n--)
			p[n] = q[n];
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *p = a, *q = b;
	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

static uint64_t udivmod64(uint64_t n, uint64_t d, uint64_t *rem)
{
	uint64_t q = 0, r = 0;
	int i;

	if (d == 0) {
		*rem = 0;
		return ~0ull;
	}
	if ((n >> 32) == 0 && (d >> 32) == 0) {
		*rem = (uint32_t)n % (uint32_t)d;
		return (uint32_t)n / (uint32_t)d;
	}
	for (i = 63; i >= 0; i--) {
		r = (r << 1) | ((n >> i) & 1u);
		if (r >= d) {
			r -= d;
			q |= 1ull << i;
		}
	}
	*rem = r;
	return q;
}

uint64_t __udivdi3(uint64_t n, uint64_t d)
{
	uint64_t r;
	return udivmod64(n, d, &r);
}

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem)
{
	uint64_t r, q = udivmod64(n, d, &r);
	if (rem)
		*rem = r;
	return q;
}

uint64_t __umoddi3(uint64_t n, uint64_t d)
{
	uint64_t r;
	udivmod64(n, d, &r);
	return r;
}

size_t kstrlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

int kstreq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}
