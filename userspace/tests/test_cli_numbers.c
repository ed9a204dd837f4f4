// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the CLI's number parsers (cli/utils.c): the one
 * parser of intervals and delays, parse_duration() (units ms, s, m, h; a
 * bare number is milliseconds in every command, and one out of range is
 * refused with that rule and its fix; exact, no binary rounding;
 * overflow refused, never wrapped), and parse_uint() with the reasons
 * both give for a refusal.
 */
#include <errno.h>
#include <string.h>

#include "../cli/utils.h"
#include "unit.h"

/* watch's interval and top's delay: 10 ms to 24 h, to the nanosecond. */
static const struct duration_spec secs = {
	.step_ns = 1,
	.min_ns = 10 * MSEC_NS, .max_ns = 86400 * SEC_NS,
};
/* config's interval: whole milliseconds, what fits a u32. */
static const struct duration_spec msecs = {
	.step_ns = MSEC_NS,
	.min_ns = 0, .max_ns = UINT32_MAX * MSEC_NS,
};

static void good(const struct duration_spec *d, const char *s, uint64_t want)
{
	uint64_t ns = 0;
	int err = parse_duration(s, d, &ns);

	CHECK(!err && ns == want, "\"%s\" is %llu ns (got %d, %llu)", s,
	      (unsigned long long)want, err, (unsigned long long)ns);
}

static void bad(const struct duration_spec *d, const char *s, int want,
		const char *why)
{
	char buf[EXPLAIN_LEN];
	uint64_t ns = 12345;
	int err = parse_duration(s, d, &ns);

	duration_explain(buf, sizeof(buf), err, d);
	CHECK(err == want && ns == 12345 && strstr(buf, why),
	      "\"%s\" refused (%d, want %d): %s", s, err, want, buf);
}

int main(void)
{
	char buf[EXPLAIN_LEN];
	uint64_t v = 0;

	/* A bare number is milliseconds everywhere; units say their own. */
	good(&secs, "250", 250 * MSEC_NS);
	good(&secs, "2000", 2 * SEC_NS);
	good(&secs, "10", 10 * MSEC_NS);
	good(&secs, "10.5", 10500000);
	good(&secs, "86400000", 86400 * SEC_NS);
	good(&secs, "0.5s", 500 * MSEC_NS);
	good(&secs, ".25s", 250 * MSEC_NS);
	good(&secs, "0.3s", 300 * MSEC_NS);	/* 0.3 * 1e9 in binary: 299999999 */
	good(&secs, "250ms", 250 * MSEC_NS);
	good(&secs, "2s", 2 * SEC_NS);
	good(&secs, "1.5m", 90 * SEC_NS);
	good(&secs, "24h", 86400 * SEC_NS);
	good(&secs, "0.0100000000000000000000000s", 10 * MSEC_NS);
	good(&secs, "10.5ms", 10500000);
	good(&msecs, "250", 250 * MSEC_NS);
	good(&msecs, "2s", 2 * SEC_NS);
	good(&msecs, "1h", 3600 * SEC_NS);
	good(&msecs, "0", 0);
	good(&msecs, "4294967295", UINT32_MAX * MSEC_NS);

	bad(&secs, "", PARSE_SYNTAX, "milliseconds, or a number and a unit");
	bad(&msecs, "abc", PARSE_SYNTAX, "milliseconds, or a number and a unit");
	bad(&secs, ".", PARSE_SYNTAX, "250ms");
	bad(&secs, "ms", PARSE_SYNTAX, "250ms");
	bad(&secs, "1e3", PARSE_SYNTAX, "250ms");
	bad(&secs, "0x1", PARSE_SYNTAX, "250ms");
	bad(&secs, "-1", PARSE_SYNTAX, "250ms");
	bad(&secs, "+1", PARSE_SYNTAX, "250ms");
	bad(&secs, " 1", PARSE_SYNTAX, "250ms");
	bad(&secs, "1 s", PARSE_SYNTAX, "250ms");
	bad(&secs, "1S", PARSE_SYNTAX, "250ms");
	bad(&secs, "1..2", PARSE_SYNTAX, "250ms");
	bad(&secs, "1sec", PARSE_SYNTAX, "250ms");
	bad(&secs, "inf", PARSE_SYNTAX, "250ms");
	/* bare seconds, as watch and top once took them: the rule, the fix */
	bad(&secs, "2", PARSE_BARE_TOO_SMALL,
	    "a bare number is milliseconds: for 2 seconds write 2s; at least 10ms");
	bad(&secs, "0.5", PARSE_BARE_TOO_SMALL, "a bare number is milliseconds");
	bad(&secs, "86400001", PARSE_BARE_TOO_LARGE,
	    "a bare number is milliseconds: for 2 seconds write 2s; at most 24h");
	bad(&msecs, "4294967296", PARSE_BARE_TOO_LARGE,
	    "a bare number is milliseconds: for 2 seconds write 2s; at most 4294967295ms");
	/* with a unit, only the range */
	bad(&secs, "0.001s", PARSE_TOO_SMALL, "at least 10ms");
	bad(&secs, "9ms", PARSE_TOO_SMALL, "at least 10ms");
	bad(&secs, "86401s", PARSE_TOO_LARGE, "at most 24h");
	bad(&secs, "25h", PARSE_TOO_LARGE, "at most 24h");
	/* Overflow is out of range, never a wrapped small value. */
	bad(&secs, "18446744073709551616", PARSE_TOO_LARGE, "at most 24h");
	bad(&secs, "18446744074s", PARSE_TOO_LARGE, "at most 24h");
	bad(&secs, "18446744074ms", PARSE_TOO_LARGE, "at most 24h");
	bad(&secs, "5124095576030431h", PARSE_TOO_LARGE, "at most 24h");
	bad(&msecs, "4294968s", PARSE_TOO_LARGE, "at most 4294967295ms");
	bad(&msecs, "2.5", PARSE_TOO_FINE, "a whole number of milliseconds");
	bad(&msecs, "0.5ms", PARSE_TOO_FINE, "a whole number of milliseconds");
	bad(&secs, "0.0100000001ms", PARSE_TOO_FINE, "a whole number of nanoseconds");
	bad(&secs, "10.0000001", PARSE_TOO_FINE, "a whole number of nanoseconds");

	CHECK(!strcmp(format_duration(buf, sizeof(buf), 90 * SEC_NS), "90s") &&
	      !strcmp(format_duration(buf, sizeof(buf), 2 * 3600 * SEC_NS), "2h") &&
	      !strcmp(format_duration(buf, sizeof(buf), 1500), "1500ns") &&
	      !strcmp(format_duration(buf, sizeof(buf), 0), "0"),
	      "format_duration: the largest exact unit");

	CHECK(parse_uint("3000000000", 1, 2147483647, &v) == PARSE_TOO_LARGE &&
	      !strcmp(uint_explain(buf, sizeof(buf), PARSE_TOO_LARGE, 1, 2147483647),
		      "at most 2147483647"),
	      "an rcvbuf of 3000000000 is refused: %s", buf);
	CHECK(parse_uint("99999999999999999999", 0, UINT64_MAX, &v) == PARSE_TOO_LARGE,
	      "2^64 and more: too large, not wrapped");
	CHECK(parse_uint("0", 1, 10, &v) == PARSE_TOO_SMALL &&
	      !strcmp(uint_explain(buf, sizeof(buf), PARSE_TOO_SMALL, 1, 10), "at least 1"),
	      "0 where at least 1 is wanted: %s", buf);
	CHECK(parse_uint("-1", 0, 10, &v) == PARSE_SYNTAX &&
	      parse_uint("1x", 0, 10, &v) == PARSE_SYNTAX &&
	      parse_uint("", 0, 10, &v) == PARSE_SYNTAX,
	      "not numbers: -1, 1x, \"\"");
	CHECK(parse_uint("4294967295", 0, UINT32_MAX, &v) == 0 && v == UINT32_MAX,
	      "the largest u32");
	return unit_exit();
}
