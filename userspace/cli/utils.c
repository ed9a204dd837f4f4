// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the kstat CLI; see utils.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "utils.h"

bool grow_array(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * size);
	if (!p)
		return false;
	memset((char *)p + *cap * size, 0, (n - *cap) * size);
	*arr = p;
	*cap = n;
	return true;
}

bool is_prefix(const char *word, const char *name)
{
	size_t len = strlen(word);

	return len && strncmp(word, name, len) == 0;
}

int cmd_match(const struct cmd *tab, const char *word)
{
	int i, found = MATCH_NONE;

	/* An exact name wins even when it prefixes another ("softirq"). */
	for (i = 0; tab[i].name; i++)
		if (strcmp(word, tab[i].name) == 0)
			return i;

	for (i = 0; tab[i].name; i++) {
		if (!is_prefix(word, tab[i].name))
			continue;
		if (found != MATCH_NONE)
			return MATCH_AMBIGUOUS;
		found = i;
	}
	return found;
}

int word_match(const char *const *names, const char *word)
{
	int i, found = MATCH_NONE;

	for (i = 0; names[i]; i++)
		if (strcmp(word, names[i]) == 0)
			return i;
	for (i = 0; names[i]; i++) {
		if (!is_prefix(word, names[i]))
			continue;
		if (found != MATCH_NONE)
			return MATCH_AMBIGUOUS;
		found = i;
	}
	return found;
}

void cmd_candidates(const struct cmd *tab, const char *word,
		    char *buf, size_t len)
{
	size_t used = 0;
	int i, n;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; tab[i].name && used < len; i++) {
		if (!is_prefix(word, tab[i].name))
			continue;
		n = snprintf(buf + used, len - used, "%s%s",
			     used ? ", " : "", tab[i].name);
		if (n < 0)
			return;
		used += (size_t)n;
	}
}

int parse_u32(const char *s, uint32_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull() would accept blanks, a sign and wrap "-1": refuse. */
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int parse_u32_range(const char *s, uint32_t *first, uint32_t *last,
		    bool *is_range)
{
	const char *dash = strchr(s, '-');
	char buf[32];
	size_t len;

	*is_range = dash != NULL;
	if (!dash) {
		if (parse_u32(s, first))
			return -1;
		*last = *first;
		return 0;
	}

	len = (size_t)(dash - s);
	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (parse_u32(buf, first) || parse_u32(dash + 1, last))
		return -1;
	return *first <= *last ? 0 : -1;
}

uint32_t nr_possible_cpus(void)
{
	static uint32_t n;
	char buf[256], *p;
	FILE *f;
	long v;

	if (n)
		return n;
	f = fopen("/sys/devices/system/cpu/possible", "re");
	if (f && fgets(buf, sizeof(buf), f)) {
		/* "0-7", "0", "0-3,8-11": the last number */
		p = buf + strcspn(buf, "\n");
		while (p > buf && p[-1] >= '0' && p[-1] <= '9')
			p--;
		n = (uint32_t)strtoul(p, NULL, 10) + 1;
	}
	if (f)
		fclose(f);
	if (!n) {
		v = sysconf(_SC_NPROCESSORS_CONF);
		n = v > 0 ? (uint32_t)v : 1;
	}
	return n;
}

unsigned int u64_width(uint64_t v)
{
	unsigned int w = 1;

	while (v >= 10) {
		v /= 10;
		w++;
	}
	return w;
}

const char *col_fmt(char buf[COL_FMT_LEN], const char *lead, int width,
		    const char *conv)
{
	/* no width for 0: "%0s" is undefined */
	if (!width)
		snprintf(buf, COL_FMT_LEN, "%s%%%s", lead, conv);
	else
		snprintf(buf, COL_FMT_LEN, "%s%%%d%s", lead, width, conv);
	return buf;
}

int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull() would accept blanks, a sign and wrap "-1": refuse. */
	if (*s < '0' || *s > '9')
		return PARSE_SYNTAX;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return PARSE_SYNTAX;
	if (errno == ERANGE || v > max)
		return PARSE_TOO_LARGE;
	if (v < min)
		return PARSE_TOO_SMALL;
	*out = v;
	return 0;
}

const char *uint_explain(char *buf, size_t len, int err, uint64_t min,
			 uint64_t max)
{
	if (err == PARSE_TOO_SMALL)
		snprintf(buf, len, "at least %llu", (unsigned long long)min);
	else if (err == PARSE_TOO_LARGE)
		snprintf(buf, len, "at most %llu", (unsigned long long)max);
	else
		snprintf(buf, len, "a whole number, %llu to %llu",
			 (unsigned long long)min, (unsigned long long)max);
	return buf;
}

static const struct {
	const char *name;
	uint64_t ns;
} duration_units[] = {	/* largest first, for format_duration() */
	{ "h", 3600 * SEC_NS }, { "m", 60 * SEC_NS },
	{ "s", SEC_NS }, { "ms", MSEC_NS },
};

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* *@v = *@v * 10 + @digit; false on overflow. */
static bool push_digit(uint64_t *v, unsigned int digit)
{
	return !__builtin_mul_overflow(*v, 10, v) &&
	       !__builtin_add_overflow(*v, digit, v);
}

/*
 * "12.50" into 125 and 10 (@mant / @scale is the number; trailing zeros
 * of the fraction do not count, so that "1.000000000000000000000" is 1).
 * The end of the number in *@end.  0, PARSE_SYNTAX (no digit) or
 * PARSE_TOO_LARGE (too many digits).
 */
static int parse_decimal(const char *s, uint64_t *mant, uint64_t *scale,
			 const char **end)
{
	uint64_t m = 0, sc = 1;
	unsigned int zeros = 0;	/* fraction zeros not applied yet */
	bool frac = false, digit = false, over = false;

	for (; *s; s++) {
		if (*s == '.' && !frac) {
			frac = true;
			continue;
		}
		if (*s < '0' || *s > '9')
			break;
		digit = true;
		if (frac && *s == '0') {
			zeros++;
			continue;
		}
		for (; zeros; zeros--)
			over |= !push_digit(&m, 0) || !push_digit(&sc, 0);
		over |= !push_digit(&m, (unsigned int)(*s - '0')) ||
			(frac && !push_digit(&sc, 0));
	}
	*mant = m;
	*scale = sc;
	*end = s;
	return !digit ? PARSE_SYNTAX : over ? PARSE_TOO_LARGE : 0;
}

int parse_duration(const char *s, const struct duration_spec *d, uint64_t *ns)
{
	uint64_t mant, scale, unit = MSEC_NS, g, v;
	bool bare = true;
	const char *rest;
	size_t i;
	int err = parse_decimal(s, &mant, &scale, &rest);

	if (err == PARSE_SYNTAX)
		return err;
	if (*rest) {
		for (i = 0; i < ARRAY_SIZE(duration_units); i++)
			if (!strcmp(rest, duration_units[i].name))
				break;
		if (i == ARRAY_SIZE(duration_units))
			return PARSE_SYNTAX;
		unit = duration_units[i].ns;
		bare = false;
	}
	if (err)
		return err;
	/* mant * unit / scale, exactly: scale's factors out of unit first */
	g = gcd_u64(unit, scale);
	unit /= g;
	scale /= g;
	if (mant % scale)
		return PARSE_TOO_FINE;	/* finer than a nanosecond */
	/* a bare number out of range: maybe seconds meant, say the rule */
	if (__builtin_mul_overflow(mant / scale, unit, &v) || v > d->max_ns)
		return bare ? PARSE_BARE_TOO_LARGE : PARSE_TOO_LARGE;
	if (v < d->min_ns)
		return bare ? PARSE_BARE_TOO_SMALL : PARSE_TOO_SMALL;
	if (v % d->step_ns)
		return PARSE_TOO_FINE;
	*ns = v;
	return 0;
}

const char *format_duration(char *buf, size_t len, uint64_t ns)
{
	size_t i;

	if (!ns) {
		snprintf(buf, len, "0");
		return buf;
	}
	for (i = 0; i < ARRAY_SIZE(duration_units); i++)
		if (ns % duration_units[i].ns == 0)
			break;
	if (i == ARRAY_SIZE(duration_units))
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else
		snprintf(buf, len, "%llu%s",
			 (unsigned long long)(ns / duration_units[i].ns),
			 duration_units[i].name);
	return buf;
}

const char *duration_explain(char *buf, size_t len, int err,
			     const struct duration_spec *d)
{
	char lo[32], hi[32];

	format_duration(lo, sizeof(lo), d->min_ns);
	format_duration(hi, sizeof(hi), d->max_ns);
	if (err == PARSE_BARE_TOO_SMALL)
		snprintf(buf, len, "a bare number is milliseconds: for 2 seconds "
			 "write 2s; at least %s", lo);
	else if (err == PARSE_BARE_TOO_LARGE)
		snprintf(buf, len, "a bare number is milliseconds: for 2 seconds "
			 "write 2s; at most %s", hi);
	else if (err == PARSE_TOO_SMALL)
		snprintf(buf, len, "at least %s", lo);
	else if (err == PARSE_TOO_LARGE)
		snprintf(buf, len, "at most %s", hi);
	else if (err == PARSE_TOO_FINE)
		snprintf(buf, len, "a whole number of %s",
			 d->step_ns == MSEC_NS ? "milliseconds" : "nanoseconds");
	else
		snprintf(buf, len, "milliseconds, or a number and a unit: 250ms, "
			 "2s, 1m, 1h; %s to %s", lo, hi);
	return buf;
}
