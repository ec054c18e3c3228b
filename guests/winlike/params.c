/*
 * params.c - the hog's parameters (P) and the parser of the multiboot
 * command line "key=val,key=val ..." into them.
 */
#include <stddef.h>
#include <stdint.h>

#include "../common/pagegen.h"
#include "winlike.h"

const char *const profile_names[] = {"mixed", "zero", "code", "data"};

struct params P;

static int parse_u64(const char *s, uint64_t *v)
{
	uint64_t n = 0;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		if (n > 100000000000000ull)
			return -1;
		n = n * 10 + (uint64_t)(*s++ - '0');
	}
	*v = n;
	return *s ? -1 : 0;
}

static int parse_size(const char *s, uint64_t *v)
{
	char num[24];
	size_t i = 0;
	uint64_t mul = 1;

	while (s[i] >= '0' && s[i] <= '9' && i < sizeof(num) - 1) {
		num[i] = s[i];
		i++;
	}
	num[i] = 0;
	s += i;
	switch (*s) {
	case 'k': case 'K': mul = 1ull << 10; s++; break;
	case 'm': case 'M': mul = 1ull << 20; s++; break;
	case 'g': case 'G': mul = 1ull << 30; s++; break;
	default: break;
	}
	if (*s == 'i')
		s++;
	if (*s == 'B' || *s == 'b')
		s++;
	if (*s || parse_u64(num, v) || *v > (16ull << 30) / mul)
		return -1;
	*v *= mul;
	return 0;
}

/* decimal "12.345" -> 12345 (milli units) */
static int parse_milli(const char *s, uint32_t *v)
{
	uint64_t ip = 0, frac = 0;
	unsigned fd = 0;

	if (!((*s >= '0' && *s <= '9') || *s == '.'))
		return -1;
	while (*s >= '0' && *s <= '9') {
		ip = ip * 10 + (uint64_t)(*s++ - '0');
		if (ip > 4000000u)
			return -1;
	}
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			if (fd < 3) {
				frac = frac * 10 + (uint64_t)(*s - '0');
				fd++;
			}
			s++;
		}
	}
	if (*s)
		return -1;
	while (fd < 3) {
		frac *= 10;
		fd++;
	}
	*v = (uint32_t)(ip * 1000u + frac);
	return 0;
}

static int bad_param(const char *key, const char *val, const char *why)
{
	out("HOG error param=%s value=%s reason=%s", key, val, why);
	return -1;
}

static int set_param(const char *key, const char *val)
{
	uint64_t u;
	unsigned i;

	if (kstreq(key, "mem")) {
		size_t l = kstrlen(val);
		P.mem = 0;
		P.mem_pct = 0;
		if (l > 1 && l < 8 && val[l - 1] == '%') {
			char num[8];
			memcpy(num, val, l - 1);
			num[l - 1] = 0;
			if (parse_u64(num, &u) || u < 1 || u > 100)
				return bad_param(key, val, "expected_size_like_200M_or_80%");
			P.mem_pct = (uint32_t)u;
		} else if (parse_size(val, &P.mem) || P.mem < PG_SIZE) {
			return bad_param(key, val, "expected_size_like_200M_or_80%");
		}
	} else if (kstreq(key, "profile")) {
		for (i = 0; i < 4; i++)
			if (kstreq(val, profile_names[i]))
				break;
		if (i == 4)
			return bad_param(key, val, "unknown_profile(mixed|zero|code|data)");
		P.profile = (int)i;
	} else if (kstreq(key, "ws")) {
		if (parse_milli(val, &P.ws_milli) || P.ws_milli > 1000)
			return bad_param(key, val, "expected_fraction_0..1");
	} else if (kstreq(key, "drift")) {
		if (parse_milli(val, &P.drift_milli) || P.drift_milli > 1000)
			return bad_param(key, val, "expected_fraction_0..1");
	} else if (kstreq(key, "pattern")) {
		if (kstreq(val, "seq"))
			P.pattern_random = 0;
		else if (kstreq(val, "random"))
			P.pattern_random = 1;
		else
			return bad_param(key, val, "unknown_pattern(seq|random)");
	} else if (kstreq(key, "period")) {
		if (parse_milli(val, &P.period_ms))
			return bad_param(key, val, "expected_seconds");
	} else if (kstreq(key, "periods")) {
		if (parse_u64(val, &u) || u > 0xffffffffu)
			return bad_param(key, val, "expected_count");
		P.periods = (uint32_t)u;
		P.periods_set = 1;
	} else if (kstreq(key, "duration")) {
		if (parse_milli(val, &P.duration_ms))
			return bad_param(key, val, "expected_seconds");
	} else if (kstreq(key, "seed")) {
		if (parse_u64(val, &u) || u > 0xffffffffu)
			return bad_param(key, val, "expected_uint");
		P.seed = (uint32_t)u;
	} else if (kstreq(key, "write")) {
		if (parse_u64(val, &u) || u > 1)
			return bad_param(key, val, "expected_0_or_1");
		P.write = (int)u;
	} else if (kstreq(key, "selftest_triple_fault")) {
		if (parse_u64(val, &u) || u > 1)
			return bad_param(key, val, "expected_0_or_1");
		P.triple_fault = (int)u;
	} else if (kstreq(key, "selftest_corrupt")) {
		if (parse_u64(val, &u) || u > 1000000u)
			return bad_param(key, val, "expected_count");
		P.corrupt = (uint32_t)u;
	} else {
		return bad_param(key, val, "unknown_parameter");
	}
	return 0;
}

/*
 * "IMAGE key=val,key=val key=val": the first word is the image name (QEMU
 * and GRUB put it there) and is skipped unless it contains '='; tokens are
 * separated by spaces or commas; an optional "hog." prefix is accepted.
 */
static int parse_token(char *tok)
{
	char *eq;

	for (eq = tok; *eq && *eq != '='; eq++)
		;
	if (!*eq)
		return bad_param(tok, "", "missing_value");
	*eq = 0;
	if (tok[0] == 'h' && tok[1] == 'o' && tok[2] == 'g' && tok[3] == '.')
		tok += 4;
	return set_param(tok, eq + 1);
}

int parse_cmdline(char *s)
{
	int errors = 0, word = 0;

	for (;;) {
		char *w, *t, *eq;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		w = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = 0;
		for (eq = w; *eq && *eq != '='; eq++)
			;
		if (word++ == 0 && !*eq)
			continue; /* image name */
		for (t = w;;) {
			char *c = t;
			int last;

			while (*c && *c != ',')
				c++;
			last = !*c;
			*c = 0;
			if (*t && parse_token(t))
				errors++;
			if (last)
				break;
			t = c + 1;
		}
	}
	return errors;
}
