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
