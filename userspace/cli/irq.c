// SPDX-License-Identifier: GPL-2.0
/*
 * kstat irq: IRQ counts with their chip, hardware IRQ, type and actions.
 */
#include <stdlib.h>
#include <string.h>

#include "kstat.h"
#include "print.h"

static const char irq_usage[] =
	"Usage: kstat irq [ show [ IRQ ... ] [ percpu ] [ -o COLUMNS ] [ -n ] ]\n"
	"       kstat irq help\n"
	"where  IRQ := { NUMBER | FIRST-LAST }\n"
	"       COLUMNS := COLUMN[,COLUMN...]\n"
	"       COLUMN := { IRQ | COUNT | PERCPU | CHIP | HWIRQ | TYPE | ACTIONS }\n"
	"\n"
	"Every IRQ, or the IRQs and ranges given, with \"percpu\" also the count\n"
	"of each CPU id (offline CPUs included).  One IRQ number alone must\n"
	"exist; in a range or a list, numbers without an IRQ are left out.\n"
	"-o (--output) prints only the COLUMNS named (any case), in their order,\n"
	"as lsirq -o does; PERCPU is the CPUn columns (\"percpu\" is then not\n"
	"needed).  With -j, -o selects the keys of each object, in the same\n"
	"order.  -n (--noheadings) leaves out the heading line.\n"
	"\n"
	"Text: a table  IRQ COUNT [CPUn ...] CHIP HWIRQ TYPE ACTIONS.  JSON (-j):\n"
	"an array of objects with the keys \"irq\", \"count\", \"chip\", \"hwirq\"\n"
	"(null without an IRQ domain), \"type\" (the flow handler name, else\n"
	"\"level\" or \"edge\"), \"actions\" (an array of strings) and, with\n"
	"percpu, \"percpu\" (an array of counts indexed by CPU id).  Counts are\n"
	"64-bit (they do not wrap as /proc/interrupts' do); per-CPU counts are\n"
	"the kernel's 32-bit ones.\n";

/* One IRQ word of the command line: a number or a range. */
struct irq_spec {
	uint32_t first, last;
};

/* Is @irq in one of @n specs? */
static bool irq_wanted(const struct irq_spec *sp, size_t n, uint32_t irq)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (irq >= sp[i].first && irq <= sp[i].last)
			return true;
	return false;
}

/*
 * One GET of the range from the lowest IRQ asked to the highest, with
 * descriptions; printed are the IRQs the words name.
 */
/* What show prints of each IRQ: -o's columns (nr 0: all), -n. */
struct irq_view {
	struct irq_col_list cols;
	bool percpu, no_header;
};

static int irq_print(struct kstat_handle *h, const struct irq_spec *sp,
		     size_t n, bool one, const struct irq_view *v)
{
	bool percpu = v->percpu || irq_col_list_has(&v->cols, IRQ_COL_PERCPU);
	struct kstat_query q = KSTAT_QUERY_INIT;
	const struct kstat_irq *irq;
	struct kstat_sample *s;
	struct irq_cols w;
	char what[64];
	size_t i;

	q.sections = KSTAT_SECTION_IRQ;
	q.flags = KSTAT_F_META | (percpu ? KSTAT_F_PERCPU : 0);
	for (i = 0; i < n; i++) {
		if (!i || sp[i].first < q.irq_first)
			q.irq_first = sp[i].first;
		if (!i || sp[i].last > q.irq_last)
			q.irq_last = sp[i].last;
	}
	if (one)
		snprintf(what, sizeof(what), "cannot read IRQ %u", sp[0].first);
	else
		snprintf(what, sizeof(what), "cannot read IRQs");
	if (kstat_get(h, &q, &s))
		return kernel_err(what);
	if (one && !s->nr_irqs) {
		kstat_sample_free(s);
		kstat_err("%s: no such IRQ", what);
		return EXIT_FAIL;
	}
	irq_cols_show(&w, s, percpu);
	if (v->cols.nr)
		w.cols = v->cols;
	w.no_header = v->no_header;
	open_json_array(NULL);
	print_irq_header(&w);
	for (i = 0; i < s->nr_irqs; i++) {
		irq = kstat_sample_irq(s, i);
		/* a show's IRQs are their own labels */
		if (!n || irq_wanted(sp, n, irq->irq))
			print_irq(irq, irq, 0, &w);
	}
	close_json_array();
	kstat_sample_free(s);
	return EXIT_OK;
}

/*
 * Option @argv[*i] of show (-o COLUMNS, -n, as lsirq spells them) into @v,
 * moving *i past its argument: EXIT_OK, EXIT_USAGE (said why), or -1: not
 * an option.
 */
static int irq_show_option(int argc, char **argv, int *i, struct irq_view *v)
{
	const char *a = argv[*i];
	char err[160];

	if (!strcmp(a, "-n") || !strcmp(a, "--noheadings")) {
		v->no_header = true;
		return EXIT_OK;
	}
	if (strcmp(a, "-o") && strcmp(a, "--output"))
		return -1;
	if (++*i == argc)
		return usage_err("irq", "option \"%s\" needs an argument", a);
	if (irq_col_list_parse(&v->cols, argv[*i], err, sizeof(err)))
		return usage_err("irq", "%s", err);
	return EXIT_OK;
}

static int irq_show(int argc, char **argv)
{
	struct irq_spec *sp = calloc((size_t)argc + 1, sizeof(*sp));
	struct irq_view v = { .percpu = false };
	struct kstat_handle *h;
	bool range = false, one;
	size_t n = 0;
	int i, ret;

	if (!sp) {
		kstat_err("out of memory");
		return EXIT_FAIL;
	}
	for (i = 0; i < argc; i++) {
		if (is_prefix(argv[i], "percpu")) {
			v.percpu = true;
			continue;
		}
		ret = irq_show_option(argc, argv, &i, &v);
		if (ret == EXIT_USAGE)
			goto out;
		if (ret == EXIT_OK)
			continue;
		if (parse_u32_range(argv[i], &sp[n].first, &sp[n].last, &range)) {
			ret = usage_err("irq", "invalid IRQ \"%s\" (a number or FIRST-LAST, "
					"each 0 to %u, FIRST <= LAST)", argv[i], UINT32_MAX);
			goto out;
		}
		n++;
	}
	one = n == 1 && !range;	/* it must exist */
	h = kstat_handle();
	ret = h ? irq_print(h, sp, n, one, &v) : EXIT_FAIL;
out:
	free(sp);
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

/* Every IRQ of the sample, the arch rows, the intr sum. */
static void irq_print_sample(const struct kstat_sample *s)
{
	struct irq_cols w;
	size_t i;

	irq_cols_json(&w, s);
	open_json_array("irq");
	for (i = 0; i < s->nr_irqs; i++)
		print_irq(kstat_sample_irq(s, i), NULL, 0, &w);
	close_json_array();
	open_json_array("arch");
	for (i = 0; i < s->nr_arch; i++)
		print_arch(kstat_sample_arch(s, i), w.nr_cpus);
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
