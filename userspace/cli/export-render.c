// SPDX-License-Identifier: GPL-2.0
/*
 * What the exporter's renderers share (export-render.h): a growable text
 * buffer, label escaping, a family's HELP and TYPE lines, counts and
 * seconds written as the exposition format wants them.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export-render.h"
#include "json_print.h"
#include "print.h"
#include "utils.h"

static bool buf_grow(struct buf *b, size_t more)
{
	if (b->oom)
		return false;
	/* at least one byte: an empty body is "", not NULL */
	if (!grow_array((void **)&b->p, &b->cap, b->len + more + 1, 1))
		b->oom = true;
	return !b->oom;
}

void buf_write(struct buf *b, const char *s, size_t n)
{
	if (!buf_grow(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		if (b->oom)
			return;
		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL, b->cap - b->len,
			      fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if ((size_t)n < b->cap - b->len) {
			b->len += n;
			return;
		}
		buf_grow(b, (size_t)n + 1);
	}
}

/*
 * A label value: the names' rule of every output (name_esc_next(): invalid
 * UTF-8 and control bytes as \xHH, so the scrape stays valid UTF-8 and the
 * value is the one text and JSON show), then the exposition format's
 * escapes (\\ \"; a newline is already \x0a).
 */
void buf_label(struct buf *b, const char *s)
{
	char out[NAME_ESC_MAX], *p;
	size_t n;

	for (; s && (n = name_esc_next(s, out)); s += n) {
		for (p = out; *p; p++) {
			if (*p == '\\' || *p == '"')
				buf_write(b, "\\", 1);
			buf_write(b, p, 1);
		}
	}
}

void buf_free(struct buf *b)
{
	free(b->p);
	*b = (struct buf){ 0 };
}

void family(struct buf *b, const char *name, const char *type,
		   const char *help)
{
	buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* One unlabelled value of the exporter's own: its family and the line. */
void own_value(struct buf *b, const char *name, const char *type,
		      const char *help, uint64_t value)
{
	family(b, name, type, help);
	buf_printf(b, "%s %" PRIu64 "\n", name, value);
}

void put_seconds(struct buf *b, uint64_t ns)
{
	buf_printf(b, "%" PRIu64 ".%09" PRIu64 "\n", ns / NSEC_PER_SEC,
		   ns % NSEC_PER_SEC);
}

/* " @v\n", without printf's parsing (thousands of lines per render). */
void put_count(struct buf *b, uint64_t v)
{
	char d[24], *p = d + sizeof(d);

	*--p = '\n';
	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	*--p = ' ';
	buf_write(b, p, d + sizeof(d) - p);
}

/*
 * As /proc/interrupts: an IRQ without an action (free, or chained, whose
 * action has no name) and with no count is not shown.  An IRQ whose
 * labels are not known yet is.
 */
bool irq_shown(const struct meta *m, const struct kstat_irq *q)
{
	const struct kstat_irq *l = irq_label(&m->labels, q->irq);

	return q->count || !l || l->nr_actions;
}

void meta_sets_clear(struct meta *m)
{
	m->set_text.len = 0;
	m->set_text.oom = false;
	if (m->set_len)
		memset(m->set_len, 0, m->set_cap * sizeof(*m->set_len));
	if (m->irq_keep)
		memset(m->irq_keep, 0, m->irq_keep_cap);
	if (m->arch_keep)
		memset(m->arch_keep, 0, m->arch_keep_cap);
}

/* The kstat naming's: info the chip, devices "HWIRQ-FLOW ACTION, ...". */
static void kstat_info_devices(struct buf *t, const struct kstat_irq *l,
			       size_t *devices)
{
	size_t i;

	buf_printf(t, "%s", l && l->chip ? l->chip : "");
	buf_write(t, "", 1);
	*devices = t->len;
	if (!l)
		return;
	if (l->has_hwirq)
		buf_printf(t, "%" PRIu64 "-", l->hwirq);
	buf_printf(t, "%s", irq_type(l));
	/* one action without a name (a chained IRQ's) is not printed */
	if (l->nr_actions == 1 && !l->actions[0][0])
		return;
	for (i = 0; i < l->nr_actions; i++)
		buf_printf(t, "%s%s", i ? ", " : " ",
			   l->actions[i] ? l->actions[i] : "");
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' ||
	       c == '\f' || c == '\r';
}

/*
 * The node naming's: the text that /proc/interrupts prints after the CPU
 * columns (kernel/irq/proc.c: the chip, the hwirq (blank without a
 * domain), "-" and the flow handler's name, then the actions joined by
 * ", "), split at white space as node_exporter does (strings.Fields):
 * info the first field, devices the rest joined by " ".
 */
static void node_info_devices(struct buf *t, const struct kstat_irq *l,
			      size_t *devices)
{
	struct buf line = { 0 };
	const char *p, *end;
	size_t i, fields = 0;

	if (l) {
		buf_printf(&line, "%s ", l->chip ? l->chip : "");
		if (l->has_hwirq)
			buf_printf(&line, "%" PRIu64, l->hwirq);
		if (l->name && *l->name)
			buf_printf(&line, "-%s", l->name);
		for (i = 0; i < l->nr_actions; i++)
			buf_printf(&line, "%s%s", i ? ", " : "  ",
				   l->actions[i] ? l->actions[i] : "");
	}
	buf_write(&line, "", 1);
	if (line.oom) {
		t->oom = true;
		return;
	}
	*devices = 0;
	for (p = line.p; *p; p = end) {
		while (is_space(*p))
			p++;
		if (!*p)
			break;
		for (end = p; *end && !is_space(*end); end++)
			;
		if (fields > 1)
			buf_write(t, " ", 1);
		buf_write(t, p, end - p);
		if (!fields++) {
			buf_write(t, "", 1);
			*devices = t->len;
		}
	}
	if (!fields) {		/* no info either */
		buf_write(t, "", 1);
		*devices = t->len;
	}
	buf_free(&line);
}

bool irq_info_devices(struct buf *t, const struct kstat_irq *l,
		      enum export_names names, size_t *devices)
{
	t->len = 0;
	if (names == NAMES_NODE)
		node_info_devices(t, l, devices);
	else
		kstat_info_devices(t, l, devices);
	buf_write(t, "", 1);
	return !t->oom;
}

bool irq_filter_text(struct buf *t, uint32_t irq, const struct kstat_irq *l,
		     enum export_names names)
{
	struct buf f = { 0 };
	size_t devices;
	bool ok;

	ok = irq_info_devices(&f, l, names, &devices);
	t->len = 0;
	if (ok)
		buf_printf(t, "%" PRIu32 ";%s;%s", irq, f.p, f.p + devices);
	buf_write(t, "", 1);
	buf_free(&f);
	return ok && !t->oom;
}

enum { KEEP_UNKNOWN, KEEP_YES, KEEP_NO };

/*
 * A decision, cached in @keep (by @i, grown as needed: new slots are
 * KEEP_UNKNOWN) unless it could not be made (out of memory: not served
 * this time, rather than served while it should not be).
 */
static bool keep_cached(uint8_t **keep, size_t *cap, size_t i, int decision)
{
	if (decision != KEEP_UNKNOWN &&
	    (i < *cap || grow_array((void **)keep, cap, i + 1, 1)))
		(*keep)[i] = decision;
	return decision == KEEP_YES;
}

static int keep_decision(const struct meta *m, const struct buf *name)
{
	if (name->oom)
		return KEEP_UNKNOWN;
	return irq_filter_keeps(m->filter, name->p) ? KEEP_YES : KEEP_NO;
}

bool irq_kept(struct meta *m, enum export_names names, uint32_t irq)
{
	const struct kstat_irq *l;
	struct buf t = { 0 };
	int decision;

	if (!m->filter || !m->filter->has_re)
		return true;
	if (irq < m->irq_keep_cap && m->irq_keep[irq] != KEEP_UNKNOWN)
		return m->irq_keep[irq] == KEEP_YES;
	l = irq_label(&m->labels, irq);
	if (!l)
		decision = KEEP_NO;
	else if (!irq_filter_text(&t, irq, l, names))
		decision = KEEP_UNKNOWN;
	else
		decision = keep_decision(m, &t);
	buf_free(&t);
	return keep_cached(&m->irq_keep, &m->irq_keep_cap, irq, decision);
}

bool arch_kept(struct meta *m, size_t i, const struct kstat_arch *a)
{
	struct buf t = { 0 };
	int decision;

	if (!m->filter || !m->filter->has_re)
		return true;
	if (i < m->arch_keep_cap && m->arch_keep[i] != KEEP_UNKNOWN)
		return m->arch_keep[i] == KEEP_YES;
	buf_printf(&t, "%s;%s;", a->name ? a->name : "",
		   a->desc ? a->desc : "");
	buf_write(&t, "", 1);
	decision = keep_decision(m, &t);
	buf_free(&t);
	return keep_cached(&m->arch_keep, &m->arch_keep_cap, i, decision);
}

/*
 * node_exporter's vector names: the kernel's in lower case, except
 * IRQ_POLL, which node_exporter still calls by its pre-4.5 name.
 */
void put_vector(struct buf *b, const char *name)
{
	char low[64];
	size_t i;

	if (!strcmp(name, "IRQ_POLL"))
		name = "BLOCK_IOPOLL";
	for (i = 0; name[i] && i < sizeof(low) - 1; i++)
		low[i] = name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a'
							   : name[i];
	low[i] = '\0';
	buf_label(b, low);
}

void render_arch_unread(struct buf *b, const struct kstat_sample *n)
{
	const char *p = n->arch_unread;
	size_t len;

	family(b, "kstat_arch_interrupts_unread", "gauge",
	       "1 for each architecture row of /proc/interrupts that this kstat.ko cannot read (built as a module).");
	while (p && *p) {
		len = strcspn(p, " ");
		buf_printf(b, "kstat_arch_interrupts_unread{type=\"%.*s\"} 1\n",
			   (int)len, p);
		p += len + (p[len] == ' ');
	}
}
