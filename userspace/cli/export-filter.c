// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's IRQ filter (export-filter.h).
 */
#include "export-filter.h"

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

bool irq_filter_keeps(const struct irq_filter *f, const char *name)
{
	bool match;

	if (!f->has_re)
		return true;
	match = !regexec(&f->re, name, 0, NULL, 0);
	return f->exclude ? !match : match;
}
