// SPDX-License-Identifier: GPL-2.0
/*
 * kstat irq: IRQ counts with their chip, hardware IRQ, type and actions.
 */
#include <stdlib.h>
#include <string.h>

#include "kstat.h"
#include "print.h"
#include "sample.h"

static const char irq_usage[] =
	"Usage: kstat irq [ show [ IRQ ... ] [ percpu ] ]\n"
	"       kstat irq help\n"
	"where  IRQ := { NUMBER | FIRST-LAST }\n"
	"\n"
	"Every IRQ, or the IRQs and ranges given, with \"percpu\" also the count\n"
	"of each CPU id (offline CPUs included).  One IRQ number alone must\n"
	"exist; in a range or a list, numbers without an IRQ are left out.  A\n"
	"list holds at most 8192 IRQs.\n"
	"\n"
	"Text: a table  IRQ COUNT [CPUn ...] CHIP HWIRQ TYPE ACTIONS.  JSON (-j):\n"
	"an array of objects with the keys \"irq\", \"count\", \"chip\", \"hwirq\"\n"
	"(null without an IRQ domain), \"type\" (the flow handler name, else\n"
	"\"level\" or \"edge\"), \"actions\" (an array of strings) and, with\n"
	"percpu, \"percpu\" (an array of counts indexed by CPU id).  Counts wrap\n"
	"at 2^32 as in /proc/interrupts.\n";

/* One IRQ word of the command line: a number or a range. */
struct irq_spec {
	uint32_t first, last;
	bool range;
};

/* What "irq show" asked for. */
struct irq_args {
	struct irq_spec *specs;
	size_t nr_specs;
	uint32_t *list;		/* with several specs: the IRQ list */
	size_t nr_list;
	bool percpu;
};

/* Several IRQ words become one IRQ list, ranges spelled out. */
static int irq_build_list(struct irq_args *a)
{
	uint64_t total = 0, irq;
	size_t i, n = 0;

	for (i = 0; i < a->nr_specs; i++)
		total += (uint64_t)a->specs[i].last - a->specs[i].first + 1;
	if (total > KSTAT_IRQ_LIST_MAX)
		return usage_err("irq", "too many IRQs: %" PRIu64 " (at most %d in a list)",
				 total, KSTAT_IRQ_LIST_MAX);

	a->list = malloc((size_t)total * sizeof(*a->list));
	if (!a->list) {
		kstat_err("out of memory");
		return EXIT_FAIL;
	}
	for (i = 0; i < a->nr_specs; i++)
		for (irq = a->specs[i].first; irq <= a->specs[i].last; irq++)
			a->list[n++] = (uint32_t)irq;
	a->nr_list = n;
	return EXIT_OK;
}

static int irq_parse_args(int argc, char **argv, struct irq_args *a)
{
	struct irq_spec *s;
	int i;

	a->specs = calloc((size_t)argc + 1, sizeof(*a->specs));
	if (!a->specs) {
		kstat_err("out of memory");
		return EXIT_FAIL;
	}
	for (i = 0; i < argc; i++) {
		if (is_prefix(argv[i], "percpu")) {
			a->percpu = true;
			continue;
		}
		s = &a->specs[a->nr_specs];
		if (parse_u32_range(argv[i], &s->first, &s->last, &s->range))
			return usage_err("irq", "invalid IRQ \"%s\" (a number or FIRST-LAST, "
					 "each 0 to %u, FIRST <= LAST)", argv[i], UINT32_MAX);
		a->nr_specs++;
	}
	/* Build a list now: too long a one is a usage error, not a kernel's. */
	return a->nr_specs > 1 ? irq_build_list(a) : EXIT_OK;
}

/* ---- printing ------------------------------------------------------------ */

static void print_irqs(const struct kstat_irq_list *l, bool percpu)
{
	struct irq_cols w;
	size_t i;

	irq_cols_show(&w, l->irqs, l->nr, l->cpu_first, percpu);
	open_json_array(NULL);
	print_irq_header(&w);
	for (i = 0; i < l->nr; i++)	/* a show's IRQs are their own labels */
		print_irq(&l->irqs[i], &l->irqs[i], 0, &w);
	close_json_array();
}

/* ---- show ---------------------------------------------------------------- */

/* Ask the kernel for what @a selects: one IRQ, a range, a list or all. */
static int irq_fetch(struct kstat_handle *h, const struct irq_args *a,
		     struct kstat_irq_list **l)
{
	struct kstat_filter f = KSTAT_FILTER_INIT;
	const struct irq_spec *s = a->specs;
	char what[64];

	f.flags = KSTAT_F_META | (a->percpu ? KSTAT_F_PERCPU : 0);
	if (a->nr_specs == 1 && !s->range) {
		/* A do request, so a missing IRQ is the kernel's error. */
		if (kstat_irq_get(h, s->first, &f, l)) {
			snprintf(what, sizeof(what), "cannot read IRQ %u",
				 s->first);
			return kernel_err(what);
		}
		return EXIT_OK;
	}
	if (a->nr_specs == 1) {
		f.irq_first = s->first;
		f.irq_last = s->last;
	} else if (a->nr_specs > 1) {
		f.irqs = a->list;
		f.nr_irqs = a->nr_list;
	}
	if (kstat_irq_list_get(h, &f, l))
		return kernel_err("cannot read IRQs");
	return EXIT_OK;
}

static int irq_show(int argc, char **argv)
{
	struct irq_args a = { 0 };
	struct kstat_irq_list *l = NULL;
	struct kstat_handle *h;
	int ret;

	ret = irq_parse_args(argc, argv, &a);
	if (!ret) {
		h = kstat_handle();
		ret = h ? irq_fetch(h, &a, &l) : EXIT_FAIL;
	}
	if (!ret)
		print_irqs(l, a.percpu);
	kstat_irq_list_free(l);
	free(a.list);
	free(a.specs);
	return ret;
}

static int irq_help(int argc, char **argv)
{
	(void)argv;
	return show_help("irq", irq_usage, argc);
}

static const struct cmd irq_cmds[] = {
	{ "show", irq_show, NULL },	/* first: the default */
	{ "help", irq_help, NULL },
	{ NULL, NULL, NULL }
};

static int do_irq(int argc, char **argv)
{
	return cmd_dispatch("irq", irq_cmds, argc, argv);
}

/* The IRQs this sample carried (all, or the changed ones), arch, intr. */
static void irq_print_sample(const struct kstat_sample *s)
{
	const struct kstat_irq *q;
	struct irq_cols w;
	size_t i;

	irq_cols_json(&w);
	open_json_array("irq");
	for (i = 0; i < s->nr_irqs_changed; i++) {
		q = sample_irq(s, s->irqs_changed[i]);
		if (q)
			print_irq(q, NULL, 0, &w);
	}
	close_json_array();
	open_json_array("arch");
	for (i = 0; i < s->nr_arch; i++)
		print_arch(&s->arch[i]);
	close_json_array();
	print_intr(s->intr_sum);
}

const struct cli_section cli_section_irq = {
	.name		= "irq",
	.func		= do_irq,
	.help		= "IRQ counts, chips and actions",
	.bit		= KSTAT_SECTION_IRQ,
	.print_sample	= irq_print_sample,
};
