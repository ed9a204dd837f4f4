// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the kstat CLI; see utils.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	snprintf(buf, COL_FMT_LEN, "%s%%%d%s", lead, width, conv);
	return buf;
}

/*
 * Seconds as plain decimal ("2", "0.5"): strtod alone would also take
 * " 1", "+1", "1e1" and "0x1", which no other number of the CLI takes.
 */
int parse_seconds(const char *s, uint64_t *ns)
{
	size_t digits = strspn(s, "0123456789");
	char *end;
	double v;

	if (s[digits] == '.')
		digits += 1 + strspn(s + digits + 1, "0123456789");
	if (s[digits] || !strpbrk(s, "0123456789"))
		return -1;
	v = strtod(s, &end);
	if (*end || !(v >= 0.01 && v <= 86400))
		return -1;
	*ns = (uint64_t)(v * 1e9);
	return 0;
}
