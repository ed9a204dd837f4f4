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

/*
 * The CPU ids the kernel may use: the last of
 * /sys/devices/system/cpu/possible, plus one (read once); else the
 * configured CPUs' count.
 */
uint32_t nr_possible_cpus(void);

/* Decimal digits of @v. */
unsigned int u64_width(uint64_t v);

#define COL_FMT_LEN 32

/*
 * A printf format "<lead>%<width><conv>" for one table column, e.g.
 * col_fmt(buf, " ", -8, "s") is " %-8s".  Returns @buf.
 */
const char *col_fmt(char buf[COL_FMT_LEN], const char *lead, int width,
		    const char *conv);

/* Why a number was refused (parse_uint(), parse_duration()). */
enum parse_err {
	PARSE_SYNTAX = -1,	/* not a number of this kind */
	PARSE_TOO_SMALL = -2,	/* below its minimum */
	PARSE_TOO_LARGE = -3,	/* above its maximum, overflow included */
	PARSE_TOO_FINE = -4,	/* not a whole number of its steps */
	/* parse_duration(): a number without a unit, out of range */
	PARSE_BARE_TOO_SMALL = -5,
	PARSE_BARE_TOO_LARGE = -6,
};

/*
 * A whole number from @min to @max, digits only (as parse_u32): 0 or a
 * PARSE_* error.
 */
int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * What @err of parse_uint() asks for, for "kstat: bad WHAT "S" (...)":
 * "at least 1", "at most 2147483647", "a whole number, 1 to N".
 * Returns @buf.
 */
const char *uint_explain(char *buf, size_t len, int err, uint64_t min,
			 uint64_t max);

/*
 * An interval or a delay: the one parser of every TIME the CLI takes.  A
 * decimal number ("2", "0.5", ".25") and a unit: "ms", "s", "m" or "h";
 * without one, milliseconds, in every command (the kernel's interval is
 * in ms; watch's interval and top's delay once took bare seconds).
 * Exact: no binary rounding.
 */
struct duration_spec {
	uint64_t step_ns;	/* the result is a whole number of these */
	uint64_t min_ns, max_ns;
};

#define MSEC_NS	1000000ULL	/* a millisecond, in ns */
#define SEC_NS		1000000000ULL	/* a second, in ns */

/* @s into *@ns: 0 or a PARSE_* error. */
int parse_duration(const char *s, const struct duration_spec *d, uint64_t *ns);

/*
 * What @err of parse_duration() asks for, for "kstat: bad WHAT "S"
 * (...)": "at most 1h", "a whole number of milliseconds", ...; for a
 * bare number out of range the rule and its fix first ("a bare number
 * is milliseconds: for 2 seconds write 2s; at least 10ms").  Returns
 * @buf.
 */
const char *duration_explain(char *buf, size_t len, int err,
			     const struct duration_spec *d);

/* @ns in the largest unit that holds it exactly: "250ms", "2s", "24h". */
const char *format_duration(char *buf, size_t len, uint64_t ns);

#define EXPLAIN_LEN 128

#endif /* KSTAT_CLI_UTILS_H */
