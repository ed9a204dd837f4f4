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

int main(void)
{
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
