// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's IRQ filter (export-filter.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "export-filter.h"
#include "print.h"

int irq_filter_set(struct irq_filter *f, const char *regex, bool exclude,
		   char *err, size_t len)
{
	int ret = regcomp(&f->re, regex, REG_EXTENDED | REG_NOSUB);

	if (ret) {
		regerror(ret, &f->re, err, len);
		return -1;
	}
	f->has_re = true;
	f->exclude = exclude;
	return 0;
}

void irq_filter_free(struct irq_filter *f)
{
	if (f->has_re)
		regfree(&f->re);
	f->has_re = false;
}

/* Append @s to @buf (of @len, holding @used), truncating. */
static size_t append(char *buf, size_t len, size_t used, const char *s)
{
	int n = snprintf(buf + used, len - used, "%s", s ? s : "");

	return n < 0 || (size_t)n >= len - used ? len - 1 : used + n;
}

/*
 * DEVICES as /proc/interrupts prints it after the chip, and as
 * node_exporter's devices label holds it: "HWIRQ-FLOW ACTION, ACTION".
 */
void irq_filter_name(char *buf, size_t len, uint32_t irq,
		     const struct kstat_irq *l)
{
	char num[24];
	size_t used, i;

	if (!len)
		return;
	snprintf(num, sizeof(num), "%" PRIu32 ";", irq);
	used = append(buf, len, 0, num);
	used = append(buf, len, used, l ? l->chip : NULL);
	used = append(buf, len, used, ";");
	if (!l)
		return;
	if (l->has_hwirq) {
		snprintf(num, sizeof(num), "%" PRIu64 "-", l->hwirq);
		used = append(buf, len, used, num);
	}
	used = append(buf, len, used, irq_type(l));
	/* one action without a name (a chained IRQ's) is not printed */
	if (l->nr_actions == 1 && !l->actions[0][0])
		return;
	for (i = 0; i < l->nr_actions; i++) {
		used = append(buf, len, used, i ? ", " : " ");
		used = append(buf, len, used, l->actions[i]);
	}
}

bool irq_filter_keeps(const struct irq_filter *f, const char *name)
{
	bool match;

	if (!f->has_re)
		return true;
	match = !regexec(&f->re, name, 0, NULL, 0);
	return f->exclude ? !match : match;
}
