// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the CLI's text/JSON print path: 64-bit counters are
 * printed as exact JSON integers however large (the documented choice for
 * numbers >= 2^53, see docs/cli.md), the output stream can be redirected
 * (kstat top renders into memory), and text mode prints the formats.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/json_print.h"
#include "unit.h"

static char *render(bool json, void (*fn)(void))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len), *old;

	if (!f)
		exit(1);
	old = json_print_output(f);
	new_json_obj(json, false);
	fn();
	delete_json_obj();
	json_print_output(old);
	fclose(f);
	return buf;
}

static void big(void)
{
	open_json_object(NULL);
	print_u64(PRINT_ANY, "max", "max %" PRIu64, UINT64_MAX);
	print_u64(PRINT_ANY, "p53", " p53 %" PRIu64, (1ULL << 53) + 1);
	print_float(PRINT_ANY, "user_pct", " %.2f", 12.345);
	close_json_object();
	print_nl();
}

/* name_escape(@in) is @want. */
static void check_esc(const char *in, const char *want, const char *what)
{
	char *got = name_escape(in);

	CHECK(got && !strcmp(got, want) && name_esc_len(in) == strlen(want),
	      "names' rule: %s: %s", what, got ? got : "(no memory)");
	free(got);
}

static const char *esc_value;

static void esc_string(void)
{
	open_json_object(NULL);
	print_string(PRINT_ANY, "name", "%s", esc_value);
	close_json_object();
}

/*
 * One rule for names in every output: invalid UTF-8 and control bytes as
 * \xHH, valid UTF-8 as it is; JSON quotes the result as JSON does.
 */
static void test_name_escape(void)
{
	char *s;

	check_esc("eth0-rx-0", "eth0-rx-0", "ASCII passes");
	check_esc("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "valid multibyte passes");
	check_esc("a\xff\xfe", "a\\xff\\xfe", "invalid bytes, each");
	check_esc("\xc0\xaf", "\\xc0\\xaf", "an overlong '/'");
	check_esc("\xe0\x80\xaf", "\\xe0\\x80\\xaf", "an overlong 3-byte '/'");
	check_esc("\xed\xa0\x80", "\\xed\\xa0\\x80", "a surrogate");
	check_esc("\xe2\x82", "\\xe2\\x82", "a cut sequence");
	check_esc("\x1b[31mred\t\n\x7f", "\\x1b[31mred\\x09\\x0a\\x7f",
		  "C0 controls and DEL");
	check_esc("\xc2\x9b" "1m", "\\xc2\\x9b" "1m", "a C1 control (CSI)");
	check_esc("a\\xff b\\ \"q\"", "a\\x5cxff b\\ \"q\"",
		  "a backslash before x only");
	check_esc("", "", "empty");
	esc_value = "a\xff\\x\"\n";
	s = render(true, esc_string);
	CHECK(!strcmp(s, "{\"name\":\"a\\\\xff\\\\x5cx\\\"\\\\x0a\"}\n"),
	      "JSON: the rule, then JSON's quoting: %s", s);
	free(s);
	s = render(false, esc_string);
	CHECK(!strcmp(s, "a\\xff\\x5cx\"\\x0a"), "text: the rule: %s", s);
	free(s);
}

int main(void)
{
	test_name_escape();
	char *s;

	s = render(true, big);
	CHECK(!strcmp(s, "{\"max\":18446744073709551615,\"p53\":9007199254740993,"
		      "\"user_pct\":12.35}\n"), "u64 in JSON exact: %s", s);
	free(s);
	s = render(false, big);
	CHECK(!strcmp(s, "max 18446744073709551615 p53 9007199254740993 12.35\n"),
	      "text: %s", s);
	free(s);
	return unit_exit();
}
