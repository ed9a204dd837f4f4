// SPDX-License-Identifier: GPL-2.0
/*
 * kstat softirq: softirq counts per vector.
 */
#include <string.h>

#include "json_print.h"
#include "kstat.h"

static const char softirq_usage[] =
	"Usage: kstat softirq [ show [ percpu ] ]\n"
	"       kstat softirq help\n"
	"\n"
	"How often each softirq vector ran since boot, summed over all CPUs;\n"
	"with \"percpu\" also the count of each CPU id (offline CPUs included).\n"
	"\n"
	"Text: a table  NAME COUNT [CPUn ...].  JSON (-j): an array of objects\n"
	"with the keys \"name\", \"count\" and, with percpu, \"percpu\" (an array\n"
	"of counts indexed by CPU id).  Per-CPU counts wrap at 2^32.\n";

struct softirq_widths {
	int name, count, cpu;
	uint32_t nr_cpus;
};

static void softirq_widths(const struct kstat_softirq_list *l,
			   struct softirq_widths *w)
{
	const struct kstat_softirq *v;
	uint32_t c;
	size_t i;

	*w = (struct softirq_widths){ .name = 4, .count = 5 };
	for (i = 0; i < l->nr; i++) {
		v = &l->vecs[i];
		w->name = max_int(w->name, (int)strlen(v->name));
		w->count = max_int(w->count, (int)u64_width(v->count));
		if (v->nr_percpu > w->nr_cpus)
			w->nr_cpus = v->nr_percpu;
		for (c = 0; c < v->nr_percpu; c++)
			w->cpu = max_int(w->cpu, (int)u64_width(v->percpu[c]));
	}
	if (w->nr_cpus)	/* "CPU" and the highest id */
		w->cpu = max_int(w->cpu, 3 + (int)u64_width((uint64_t)l->cpu_first +
							      w->nr_cpus - 1));
}

static void print_softirq_header(const struct kstat_softirq_list *l,
				 const struct softirq_widths *w, bool percpu)
{
	char fmt[COL_FMT_LEN], label[16];
	uint32_t c;

	print_string(PRINT_FP, NULL, col_fmt(fmt, "", -w->name, "s"), "NAME");
	print_string(PRINT_FP, NULL, col_fmt(fmt, " ", w->count, "s"), "COUNT");
	col_fmt(fmt, " ", w->cpu, "s");
	for (c = 0; percpu && c < w->nr_cpus; c++) {
		snprintf(label, sizeof(label), "CPU%u", l->cpu_first + c);
		print_string(PRINT_FP, NULL, fmt, label);
	}
	print_nl();
}

static void print_softirq_row(const struct kstat_softirq *v,
			      const struct softirq_widths *w, bool percpu)
{
	char fmt[COL_FMT_LEN];
	uint32_t c;

	open_json_object(NULL);
	print_string(PRINT_ANY, "name", col_fmt(fmt, "", -w->name, "s"),
		     v->name);
	print_u64(PRINT_ANY, "count", col_fmt(fmt, " ", w->count, PRIu64),
		  v->count);
	if (percpu) {
		col_fmt(fmt, " ", w->cpu, "u");
		open_json_array("percpu");
		for (c = 0; c < v->nr_percpu; c++)
			print_uint(PRINT_ANY, NULL, fmt, v->percpu[c]);
		close_json_array();
	}
	close_json_object();
	print_nl();
}

static int softirq_show(int argc, char **argv)
{
	struct kstat_filter f = KSTAT_FILTER_INIT;
	struct kstat_softirq_list *l;
	struct softirq_widths w;
	struct kstat_handle *h;
	bool percpu = false;
	size_t i;
	int a;

	for (a = 0; a < argc; a++) {
		if (!is_prefix(argv[a], "percpu"))
			return usage_err("softirq", "unexpected argument \"%s\"",
					 argv[a]);
		percpu = true;
	}

	h = kstat_handle();
	if (!h)
		return EXIT_FAIL;
	f.flags = percpu ? KSTAT_F_PERCPU : 0;
	if (kstat_softirq_get(h, &f, &l))
		return kernel_err("cannot read softirqs");

	softirq_widths(l, &w);
	open_json_array(NULL);
	print_softirq_header(l, &w, percpu);
	for (i = 0; i < l->nr; i++)
		print_softirq_row(&l->vecs[i], &w, percpu);
	close_json_array();
	kstat_softirq_list_free(l);
	return EXIT_OK;
}

static int softirq_help(int argc, char **argv)
{
	(void)argv;
	return show_help("softirq", softirq_usage, argc);
}

static const struct cmd softirq_cmds[] = {
	{ "show", softirq_show, NULL },	/* first: the default */
	{ "help", softirq_help, NULL },
	{ NULL, NULL, NULL }
};

int do_softirq(int argc, char **argv)
{
	return cmd_dispatch("softirq", softirq_cmds, argc, argv);
}
