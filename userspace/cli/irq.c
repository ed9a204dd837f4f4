// SPDX-License-Identifier: GPL-2.0
/*
 * kstat irq: IRQ counts with their chip, hardware IRQ, type and actions.
 */
#include <stdlib.h>
#include <string.h>

#include "json_print.h"
#include "kstat.h"

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
			return usage_err("irq", "invalid IRQ \"%s\" (a number or FIRST-LAST)",
					 argv[i]);
		a->nr_specs++;
	}
	/* Build a list now: too long a one is a usage error, not a kernel's. */
	return a->nr_specs > 1 ? irq_build_list(a) : EXIT_OK;
}

/* ---- printing ------------------------------------------------------------ */

static const char *irq_type(const struct kstat_irq *q)
{
	if (q->name && *q->name)
		return q->name;
	return q->level ? "level" : "edge";
}

/* Column widths: as wide as the header or the widest value. */
struct irq_widths {
	int irq, count, cpu, chip, hwirq, type;
	uint32_t nr_cpus;	/* per-CPU columns */
};

static void irq_widths(const struct kstat_irq_list *l, struct irq_widths *w)
{
	const struct kstat_irq *q;
	uint32_t c;
	size_t i;

	*w = (struct irq_widths){ .irq = 3, .count = 5, .chip = 4,
				  .hwirq = 5, .type = 4 };
	for (i = 0; i < l->nr; i++) {
		q = &l->irqs[i];
		w->irq = max_int(w->irq, (int)u64_width(q->irq));
		w->count = max_int(w->count, (int)u64_width(q->count));
		w->chip = max_int(w->chip, q->chip ? (int)strlen(q->chip) : 1);
		if (q->has_hwirq)
			w->hwirq = max_int(w->hwirq, (int)u64_width(q->hwirq));
		w->type = max_int(w->type, (int)strlen(irq_type(q)));
		if (q->nr_percpu > w->nr_cpus)
			w->nr_cpus = q->nr_percpu;
		for (c = 0; c < q->nr_percpu; c++)
			w->cpu = max_int(w->cpu, (int)u64_width(q->percpu[c]));
	}
	if (w->nr_cpus)	/* "CPU" and the highest id */
		w->cpu = max_int(w->cpu, 3 + (int)u64_width((uint64_t)l->cpu_first +
							      w->nr_cpus - 1));
}

/* "CPU0 CPU1 ..." right-aligned in columns of @width. */
static void print_cpu_labels(uint32_t cpu_first, uint32_t nr, int width)
{
	char label[16], fmt[COL_FMT_LEN];
	uint32_t c;

	col_fmt(fmt, " ", width, "s");
	for (c = 0; c < nr; c++) {
		snprintf(label, sizeof(label), "CPU%u", cpu_first + c);
		print_string(PRINT_FP, NULL, fmt, label);
	}
}

static void print_percpu(const uint32_t *v, uint32_t nr, int width)
{
	char fmt[COL_FMT_LEN];
	uint32_t c;

	col_fmt(fmt, " ", width, "u");
	open_json_array("percpu");
	for (c = 0; c < nr; c++)
		print_uint(PRINT_ANY, NULL, fmt, v[c]);
	close_json_array();
}

static void print_irq_header(const struct kstat_irq_list *l,
			     const struct irq_widths *w, bool percpu)
{
	char fmt[COL_FMT_LEN];

	print_string(PRINT_FP, NULL, col_fmt(fmt, "", w->irq, "s"), "IRQ");
	print_string(PRINT_FP, NULL, col_fmt(fmt, " ", w->count, "s"), "COUNT");
	if (percpu)
		print_cpu_labels(l->cpu_first, w->nr_cpus, w->cpu);
	print_string(PRINT_FP, NULL, col_fmt(fmt, " ", -w->chip, "s"), "CHIP");
	print_string(PRINT_FP, NULL, col_fmt(fmt, " ", w->hwirq, "s"), "HWIRQ");
	print_string(PRINT_FP, NULL, col_fmt(fmt, " ", -w->type, "s"), "TYPE");
	print_string(PRINT_FP, NULL, " %s", "ACTIONS");
	print_nl();
}

static void print_actions(const struct kstat_irq *q)
{
	size_t i;

	open_json_array("actions");
	for (i = 0; i < q->nr_actions; i++)
		print_string(PRINT_ANY, NULL, i ? ", %s" : " %s",
			     q->actions[i]);
	close_json_array();
	if (!q->nr_actions)
		print_string(PRINT_FP, NULL, " %s", "-");
}

static void print_irq_row(const struct kstat_irq *q,
			  const struct irq_widths *w, bool percpu)
{
	char fmt[COL_FMT_LEN];

	open_json_object(NULL);
	print_uint(PRINT_ANY, "irq", col_fmt(fmt, "", w->irq, "u"), q->irq);
	print_u64(PRINT_ANY, "count", col_fmt(fmt, " ", w->count, PRIu64),
		  q->count);
	if (percpu)
		print_percpu(q->percpu, q->nr_percpu, w->cpu);
	col_fmt(fmt, " ", -w->chip, "s");
	if (q->chip)
		print_string(PRINT_ANY, "chip", fmt, q->chip);
	else
		print_null(PRINT_ANY, "chip", fmt, "-");
	if (q->has_hwirq)
		print_u64(PRINT_ANY, "hwirq", col_fmt(fmt, " ", w->hwirq, PRIu64),
			  q->hwirq);
	else
		print_null(PRINT_ANY, "hwirq", col_fmt(fmt, " ", w->hwirq, "s"),
			   "-");
	print_string(PRINT_ANY, "type", col_fmt(fmt, " ", -w->type, "s"),
		     irq_type(q));
	print_actions(q);
	close_json_object();
	print_nl();
}

static void print_irqs(const struct kstat_irq_list *l, bool percpu)
{
	struct irq_widths w;
	size_t i;

	irq_widths(l, &w);
	open_json_array(NULL);
	print_irq_header(l, &w, percpu);
	for (i = 0; i < l->nr; i++)
		print_irq_row(&l->irqs[i], &w, percpu);
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

int do_irq(int argc, char **argv)
{
	return cmd_dispatch("irq", irq_cmds, argc, argv);
}
