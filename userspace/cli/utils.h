/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers of the kstat CLI: word matching for the command tables,
 * strict number parsing, and printf formats for variable-width columns.
 */
#ifndef KSTAT_CLI_UTILS_H
#define KSTAT_CLI_UTILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* One entry of an object or command table; a NULL name ends the table. */
struct cmd {
	const char *name;
	int (*func)(int argc, char **argv);
	const char *help;	/* one line for "kstat help", or NULL */
};

#define MATCH_NONE	(-1)
#define MATCH_AMBIGUOUS	(-2)

/* Is @word a non-empty prefix of @name? */
bool is_prefix(const char *word, const char *name);

/*
 * Index of the entry @word names in @tab: an exact name, else the only
 * name it is a prefix of.  MATCH_NONE or MATCH_AMBIGUOUS otherwise.
 */
int cmd_match(const struct cmd *tab, const char *word);

/*
 * The same over a NULL-terminated list of keywords: every keyword of
 * every command abbreviates the way objects and commands do.
 */
int word_match(const char *const *names, const char *word);

/* "a, b, c": the names in @tab that @word is a prefix of, into @buf. */
void cmd_candidates(const struct cmd *tab, const char *word,
		    char *buf, size_t len);

/*
 * Strict decimal parsers: digits only (no sign, no blanks, no base
 * prefix), no trailing garbage, no overflow.  0 or -1.
 */
int parse_u32(const char *s, uint32_t *out);

/* "N" or "A-B" (A <= B); *is_range tells which.  0 or -1. */
int parse_u32_range(const char *s, uint32_t *first, uint32_t *last,
		    bool *is_range);

static inline int max_int(int a, int b)
{
	return a > b ? a : b;
}

/*
 * Room for @need elements of @size bytes in *@arr, whose capacity is *@cap
 * elements: it doubles (from 16) and zeroes the new elements.  The one
 * growable array of the CLI (sample copies, text buffers).  False if out
 * of memory, with *@arr unchanged.
 */
bool grow_array(void **arr, size_t *cap, size_t need, size_t size);

/* Decimal digits of @v. */
unsigned int u64_width(uint64_t v);

#define COL_FMT_LEN 32

/*
 * A printf format "<lead>%<width><conv>" for one table column, e.g.
 * col_fmt(buf, " ", -8, "s") is " %-8s".  Returns @buf.
 */
const char *col_fmt(char buf[COL_FMT_LEN], const char *lead, int width,
		    const char *conv);

/*
 * Seconds as plain decimal, 0.01 to 86400, into @ns; -1 if @s is not
 * one (watch's interval, top's delay).
 */
int parse_seconds(const char *s, uint64_t *ns);

#endif /* KSTAT_CLI_UTILS_H */
