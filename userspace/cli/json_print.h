/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One print path for text and JSON, after iproute2's lib/json_print.c.
 *
 * A command prints every value once, through these functions, naming its
 * JSON key and its text format together:
 *
 *	print_u64(PRINT_ANY, "count", " %10" PRIu64, irq->count);
 *
 * In text mode the value goes through the format (PRINT_FP and PRINT_ANY
 * calls); in JSON mode it becomes "count": <value> (PRINT_JSON and
 * PRINT_ANY calls) and the format is ignored.  Objects and arrays exist in
 * JSON only.  Values inside an array take a NULL key.
 *
 * Output goes to stdout.  new_json_obj() starts a command's output and
 * delete_json_obj() ends it, so each command of a batch prints exactly what
 * it would print alone.
 */
#ifndef KSTAT_CLI_JSON_PRINT_H
#define KSTAT_CLI_JSON_PRINT_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum output_type {
	PRINT_FP	= 1 << 0,	/* text output only */
	PRINT_JSON	= 1 << 1,	/* JSON output only */
	PRINT_ANY	= PRINT_FP | PRINT_JSON,
};

/*
 * Send the output to @f (NULL: stdout again) and return the previous
 * stream; kstat top renders its screen into a memory stream this way.
 */
FILE *json_print_output(FILE *f);

void new_json_obj(bool json, bool pretty);
void delete_json_obj(void);
bool is_json_context(void);

void open_json_object(const char *key);
void close_json_object(void);
void open_json_array(const char *key);
void close_json_array(void);

void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *value);
void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t value);
void print_uint(enum output_type t, const char *key, const char *fmt,
		unsigned int value);
void print_int(enum output_type t, const char *key, const char *fmt,
	       int value);
/* JSON null; @text is what text mode prints through @fmt. */
void print_null(enum output_type t, const char *key, const char *fmt,
		const char *text);
/* JSON: two decimals, null when not finite (JSON has no NaN). */
void print_float(enum output_type t, const char *key, const char *fmt,
		 double value);
/* Text: @fmt gets "yes" or "no"; JSON: true or false. */
void print_bool(enum output_type t, const char *key, const char *fmt,
		bool value);
/*
 * Names from drivers (IRQ actions, chips) may hold any byte.  One rule
 * writes them in text, JSON strings and Prometheus labels alike, so that
 * the same name joins across outputs and reads back exactly: valid UTF-8
 * passes through, and every byte of an invalid sequence, of a control
 * character (C0, DEL, C1) and a backslash followed by "x" becomes the
 * four characters \xHH (lower-case hex), as util-linux's lsirq writes
 * them.  Each output then applies its own quoting on top (JSON's \\,
 * the exposition format's \\).  print_string() and the JSON writer use
 * it for every string.
 */
#define NAME_ESC_MAX 9		/* the longest unit, "\xc2\x9b", and a NUL */

/*
 * The next unit of @s under that rule into @out: a valid character as it
 * is, or its bytes as \xHH.  Returns how many bytes of @s it stands for,
 * 0 at the end.
 */
size_t name_esc_next(const char *s, char out[NAME_ESC_MAX]);
/* Length of @s escaped (NULL: 0). */
size_t name_esc_len(const char *s);
/* @s escaped, malloc'd (NULL: out of memory). */
char *name_escape(const char *s);

/* End of a text line; nothing in JSON mode. */
void print_nl(void);

#endif /* KSTAT_CLI_JSON_PRINT_H */
