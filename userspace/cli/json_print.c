// SPDX-License-Identifier: GPL-2.0
/*
 * A small JSON writer behind the text/JSON print path; see json_print.h.
 *
 * The writer state lives for one command (new_json_obj() to
 * delete_json_obj()); it is the only state here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "json_print.h"

/* Where output goes: stdout unless json_print_output() said otherwise. */
static FILE *jout;
#define JOUT (jout ? jout : stdout)

FILE *json_print_output(FILE *f)
{
	FILE *old = jout;

	jout = f;
	return old;
}

/* kstat nests at most three levels; leave plenty of room. */
#define JSON_MAX_DEPTH 16

static struct {
	bool on;
	bool pretty;
	bool started;		/* a top-level value was printed */
	unsigned int depth;
	/* per open level: nothing printed in it yet */
	bool empty[JSON_MAX_DEPTH];
} jw;

void new_json_obj(bool json, bool pretty)
{
	jw.on = json;
	jw.pretty = json && pretty;
	jw.started = false;
	jw.depth = 0;
}

void delete_json_obj(void)
{
	/* Unbalanced open/close is a bug in a command, not a user error. */
	if (jw.depth) {
		fprintf(stderr, "kstat: internal error: unclosed JSON\n");
		abort();
	}
	/* Help and errors print no JSON: then no newline either. */
	if (jw.on && jw.started)
		fputc('\n', JOUT);
	jw.on = false;
}

bool is_json_context(void)
{
	return jw.on;
}

static void jw_indent(void)
{
	unsigned int i;

	for (i = 0; i < jw.depth; i++)
		fputs("    ", JOUT);
}

/*
 * Length of the valid UTF-8 sequence at @s (2 to 4), or 0: overlong forms,
 * surrogates and code points above U+10FFFF are invalid.
 */
static unsigned int utf8_len(const unsigned char *s)
{
	unsigned int len, i;
	uint32_t cp;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/*
 * Names come from kernel drivers and may hold any byte: valid UTF-8 passes
 * through, control characters are escaped, and each byte of an invalid
 * sequence is written as the Latin-1 character of that value, so the output
 * is always valid JSON.
 */
static void jw_string(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned int len;

	fputc('"', JOUT);
	for (; *s; s++) {
		switch (*s) {
		case '"':  fputs("\\\"", JOUT); continue;
		case '\\': fputs("\\\\", JOUT); continue;
		case '\b': fputs("\\b", JOUT); continue;
		case '\f': fputs("\\f", JOUT); continue;
		case '\n': fputs("\\n", JOUT); continue;
		case '\r': fputs("\\r", JOUT); continue;
		case '\t': fputs("\\t", JOUT); continue;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fprintf(JOUT, "\\u%04x", *s);
		} else if (*s < 0x80) {
			fputc(*s, JOUT);
		} else if ((len = utf8_len(s))) {
			fwrite(s, 1, len, JOUT);
			s += len - 1;
		} else {
			fprintf(JOUT, "\\u%04x", *s);
		}
	}
	fputc('"', JOUT);
}

/* Start a member (with @key) or an array element (NULL key). */
static void jw_member(const char *key)
{
	jw.started = true;
	if (jw.depth) {
		if (!jw.empty[jw.depth - 1])
			fputc(',', JOUT);
		jw.empty[jw.depth - 1] = false;
		if (jw.pretty) {
			fputc('\n', JOUT);
			jw_indent();
		}
	}
	if (key) {
		jw_string(key);
		fputs(jw.pretty ? ": " : ":", JOUT);
	}
}

static void jw_open(const char *key, char c)
{
	if (!jw.on)
		return;
	if (jw.depth == JSON_MAX_DEPTH) {
		fprintf(stderr, "kstat: internal error: JSON too deep\n");
		abort();
	}
	jw_member(key);
	fputc(c, JOUT);
	jw.empty[jw.depth++] = true;
}

static void jw_close(char c)
{
	if (!jw.on)
		return;
	if (!jw.depth) {
		fprintf(stderr, "kstat: internal error: JSON close without open\n");
		abort();
	}
	jw.depth--;
	if (jw.pretty && !jw.empty[jw.depth]) {
		fputc('\n', JOUT);
		jw_indent();
	}
	fputc(c, JOUT);
}

void open_json_object(const char *key)
{
	jw_open(key, '{');
}

void close_json_object(void)
{
	jw_close('}');
}

void open_json_array(const char *key)
{
	jw_open(key, '[');
}

void close_json_array(void)
{
	jw_close(']');
}

/*
 * Text formats are passed in by the commands (iproute2 does the same), so
 * the compiler cannot check them here; callers use <inttypes.h> macros.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* Should this call print text? */
static bool text_wanted(enum output_type t, const char *fmt)
{
	return !jw.on && (t & PRINT_FP) && fmt;
}

/* Should this call print JSON?  If so, its key has been written. */
static bool json_wanted(enum output_type t, const char *key)
{
	if (!jw.on || !(t & PRINT_JSON))
		return false;
	jw_member(key);
	return true;
}

void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *value)
{
	if (text_wanted(t, fmt))
		fprintf(JOUT, fmt, value);
	else if (json_wanted(t, key))
		jw_string(value);
}

void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t value)
{
	if (text_wanted(t, fmt))
		fprintf(JOUT, fmt, value);
	else if (json_wanted(t, key))
		fprintf(JOUT, "%" PRIu64, value);
}

void print_uint(enum output_type t, const char *key, const char *fmt,
		unsigned int value)
{
	if (text_wanted(t, fmt))
		fprintf(JOUT, fmt, value);
	else if (json_wanted(t, key))
		fprintf(JOUT, "%u", value);
}

void print_int(enum output_type t, const char *key, const char *fmt,
	       int value)
{
	if (text_wanted(t, fmt))
		fprintf(JOUT, fmt, value);
	else if (json_wanted(t, key))
		fprintf(JOUT, "%d", value);
}

void print_null(enum output_type t, const char *key, const char *fmt,
		const char *text)
{
	if (text_wanted(t, fmt))
		fprintf(JOUT, fmt, text);
	else if (json_wanted(t, key))
		fputs("null", JOUT);
}

void print_float(enum output_type t, const char *key, const char *fmt,
		 double value)
{
	if (text_wanted(t, fmt))
		fprintf(JOUT, fmt, value);
	else if (!json_wanted(t, key))
		return;
	else if (isfinite(value))
		fprintf(JOUT, "%.2f", value);
	else
		fputs("null", JOUT);	/* JSON has no NaN or infinity */
}

/* Text: @fmt gets "yes" or "no"; JSON: true or false. */
void print_bool(enum output_type t, const char *key, const char *fmt,
		bool value)
{
	if (text_wanted(t, fmt))
		fprintf(JOUT, fmt, value ? "yes" : "no");
	else if (json_wanted(t, key))
		fputs(value ? "true" : "false", JOUT);
}

#pragma GCC diagnostic pop

void print_nl(void)
{
	if (!jw.on)
		fputc('\n', JOUT);
}
