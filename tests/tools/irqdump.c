// SPDX-License-Identifier: GPL-2.0
/*
 * irqdump FLAGS [FIRST LAST]: an IRQ_GET dump through libkstat, one line
 * per IRQ: "IRQ COUNT" then, with KSTAT_F_PERCPU (1), its per-CPU counts
 * from CPU 0 on.  Tests compare it with /proc/interrupts: it shows what
 * the library made of the kernel's encoding, whichever it was.
 * irqdump nr: the kernel's nr_irqs, from a totals dump's trailer.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libkstat.h>

int main(int argc, char **argv)
{
	struct kstat_filter f = KSTAT_FILTER_INIT;
	struct kstat_irq_list *l;
	struct kstat_handle *h;
	size_t i;
	uint32_t c;
	int err, nr_only;

	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: irqdump FLAGS [FIRST LAST] | irqdump nr\n");
		return 2;
	}
	nr_only = !strcmp(argv[1], "nr");
	f.flags = nr_only ? 0 : strtoul(argv[1], NULL, 0);
	if (argc == 4) {
		f.irq_first = strtol(argv[2], NULL, 0);
		f.irq_last = strtol(argv[3], NULL, 0);
	}
	err = kstat_open(&h);
	if (err) {
		fprintf(stderr, "irqdump: kstat_open: %d\n", err);
		return 1;
	}
	err = kstat_irq_list_get(h, &f, &l);
	if (err) {
		fprintf(stderr, "irqdump: %s\n", kstat_last_error(h));
		kstat_close(h);
		return 1;
	}
	if (nr_only)
		printf("%" PRIu32 "\n", l->nr_irqs);
	for (i = 0; !nr_only && i < l->nr; i++) {
		printf("%" PRIu32 " %" PRIu64, l->irqs[i].irq, l->irqs[i].count);
		for (c = 0; c < l->irqs[i].nr_percpu; c++)
			printf(" %" PRIu32, l->irqs[i].percpu[c]);
		putchar('\n');
	}
	kstat_irq_list_free(l);
	kstat_close(h);
	return 0;
}
