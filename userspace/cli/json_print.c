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
#include <string.h>

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
 * Length of the valid UTF-8 sequence at @s (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF): 1 for ASCII, else 2 to 4; 0 if
 * invalid.
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the NUL */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/*
 * Must the unit of @n bytes at @s be written as \xHH?  Invalid bytes, C0
 * and C1 controls and DEL (a terminal would act on them), and a backslash
 * before an "x" (it would read as an escape: util-linux's rule).
 */
static bool name_esc_needed(const unsigned char *s, size_t n)
{
	return !n || s[0] < 0x20 || s[0] == 0x7f ||
	       (s[0] == '\\' && s[1] == 'x') ||
	       (n == 2 && s[0] == 0xc2 && s[1] < 0xa0);
}

size_t name_esc_next(const char *str, char out[NAME_ESC_MAX])
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = *s ? utf8_len(s) : 0, i;

	out[0] = '\0';
	if (!*s)
		return 0;
	if (!name_esc_needed(s, n)) {
		memcpy(out, s, n);
		out[n] = '\0';
		return n;
	}
	n = n ? n : 1;	/* an invalid sequence: its first byte alone */
	for (i = 0; i < n; i++)
		snprintf(out + 4 * i, NAME_ESC_MAX - 4 * i, "\\x%02x", s[i]);
	return n;
}

size_t name_esc_len(const char *s)
{
	char out[NAME_ESC_MAX];
	size_t len = 0, n;

	for (; s && (n = name_esc_next(s, out)); s += n)
		len += strlen(out);
	return len;
}

char *name_escape(const char *s)
{
	char out[NAME_ESC_MAX], *r = malloc(name_esc_len(s) + 1);
	size_t n;

	if (!r)
		return NULL;
	r[0] = '\0';
	for (; s && (n = name_esc_next(s, out)); s += n)
		strcat(r, out);
	return r;
}

/* @s escaped by name_esc_next(), then as JSON asks (\" and \\). */
static void jw_string(const char *str)
{
	char out[NAME_ESC_MAX], *p;
	size_t n;

	fputc('"', JOUT);
	for (; (n = name_esc_next(str, out)); str += n) {
		for (p = out; *p; p++) {
			if (*p == '"' || *p == '\\')
				fputc('\\', JOUT);
			fputc(*p, JOUT);
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
	char *esc;

	if (text_wanted(t, fmt)) {
		/* the rule of name_esc_next(): no raw control bytes on a tty */
		esc = name_escape(value);
		fprintf(JOUT, fmt, esc ? esc : "?");
		free(esc);
	} else if (json_wanted(t, key)) {
		jw_string(value);
	}
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
