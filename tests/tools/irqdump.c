// SPDX-License-Identifier: GPL-2.0
/*
 * irqdump FLAGS [FIRST LAST]: a GET (the irq section) through libkstat,
 * one line per IRQ: "IRQ COUNT" then, with KSTAT_F_PERCPU (1), its
 * per-CPU counts of CPU ids 0 .. nr_cpu_ids - 1 (the possible CPUs), 0
 * for the CPUs its list leaves out.  FLAGS 2 (meta) adds nothing to the
 * lines but asks for the descriptions.  Tests compare it with
 * /proc/interrupts: it shows what the library made of the kernel's
 * encoding (IRQS runs, per-CPU records as pairs or dense).
 * irqdump nr: the kernel's nr_irqs (NR_IRQS of the reply).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libkstat.h>

/* nr_cpu_ids: one past the last possible CPU id. */
static unsigned int possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	char line[256], *p;

	if (!f || !fgets(line, sizeof(line), f)) {
		if (f)
			fclose(f);
		return 1;
	}
	fclose(f);
	p = strrchr(line, ',');
	p = p ? p + 1 : line;
	if (strchr(p, '-'))
		p = strchr(p, '-') + 1;
	return strtoul(p, NULL, 10) + 1;
}

int main(int argc, char **argv)
{
	struct kstat_query q = KSTAT_QUERY_INIT;
	struct kstat_sample *s;
	struct kstat_handle *h;
	unsigned int ncpu = possible_cpus(), c;
	size_t i;
	int err, nr_only;

	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: irqdump FLAGS [FIRST LAST] | irqdump nr\n");
		return 2;
	}
	nr_only = !strcmp(argv[1], "nr");
	q.sections = KSTAT_SECTION_IRQ;
	q.flags = nr_only ? 0 : strtoul(argv[1], NULL, 0);
	if (argc == 4) {
		q.irq_first = strtol(argv[2], NULL, 0);
		q.irq_last = strtol(argv[3], NULL, 0);
	}
	err = kstat_open(&h);
	if (err) {
		fprintf(stderr, "irqdump: kstat_open: %s\n", kstat_open_error());
		return 1;
	}
	err = kstat_get(h, &q, &s);
	if (err) {
		fprintf(stderr, "irqdump: %s\n", kstat_last_error(h));
		kstat_close(h);
		return 1;
	}
	if (nr_only)
		printf("%" PRIu32 "\n", s->kernel_nr_irqs);
	for (i = 0; !nr_only && i < s->nr_irqs; i++) {
		const struct kstat_irq *irq = kstat_sample_irq(s, i);

		printf("%" PRIu32 " %" PRIu64, irq->irq, irq->count);
		for (c = 0; (q.flags & KSTAT_F_PERCPU) && c < ncpu; c++)
			printf(" %" PRIu32, kstat_percpu_at(irq->percpu,
							    irq->nr_percpu, c));
		putchar('\n');
	}
	kstat_sample_free(s);
	kstat_close(h);
	return 0;
}
