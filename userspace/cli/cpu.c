// SPDX-License-Identifier: GPL-2.0
/*
 * kstat cpu: CPU time per CPU, in nanoseconds.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "json_print.h"
#include "kstat.h"

static const char cpu_usage[] =
	"Usage: kstat cpu [ show [ CPU | total ] ]\n"
	"       kstat cpu help\n"
	"\n"
	"Time each CPU spent in each state since boot, in nanoseconds: one row\n"
	"per online CPU, only CPU (a CPU id), or with \"total\" the sum over all\n"
	"possible CPUs (the \"cpu\" line of /proc/stat; its \"cpu\" is null in\n"
	"JSON).\n"
	"\n"
	"Text: a table  CPU user nice system idle iowait irq softirq steal guest\n"
	"guest_nice.  JSON (-j): an array of objects with the keys \"cpu\", \"user\",\n"
	"\"nice\", \"system\", \"idle\", \"iowait\", \"irq\", \"softirq\", \"steal\",\n"
	"\"guest\" and \"guest_nice\", all integers.\n";

/* Column widths of a CPU table: as wide as the header or the widest value. */
struct cpu_widths {
	int cpu;
	int ns[KSTAT_CPUTIME_NR];
};

static void cpu_widths(const struct kstat_cputime *c, size_t n,
		       struct cpu_widths *w)
{
	size_t i;
	int f, len;

	w->cpu = 3;			/* "CPU" */
	for (f = 0; f < KSTAT_CPUTIME_NR; f++)
		w->ns[f] = (int)strlen(kstat_cputime_name(f));
	for (i = 0; i < n; i++) {
		len = c[i].cpu < 0 ? 5 : (int)u64_width((uint64_t)c[i].cpu);
		if (len > w->cpu)
			w->cpu = len;
		for (f = 0; f < KSTAT_CPUTIME_NR; f++) {
			len = (int)u64_width(c[i].ns[f]);
			if (len > w->ns[f])
				w->ns[f] = len;
		}
	}
}

static void print_cpu_header(const struct cpu_widths *w)
{
	char fmt[COL_FMT_LEN];
	int f;

	print_string(PRINT_FP, NULL, col_fmt(fmt, "", w->cpu, "s"), "CPU");
	for (f = 0; f < KSTAT_CPUTIME_NR; f++)
		print_string(PRINT_FP, NULL, col_fmt(fmt, " ", w->ns[f], "s"),
			     kstat_cputime_name(f));
	print_nl();
}

static void print_cpu_row(const struct kstat_cputime *c,
			  const struct cpu_widths *w)
{
	char fmt[COL_FMT_LEN];
	int f;

	open_json_object(NULL);
	if (c->cpu < 0)
		print_null(PRINT_ANY, "cpu", col_fmt(fmt, "", w->cpu, "s"),
			   "total");
	else
		print_int(PRINT_ANY, "cpu", col_fmt(fmt, "", w->cpu, "d"),
			  c->cpu);
	for (f = 0; f < KSTAT_CPUTIME_NR; f++)
		print_u64(PRINT_ANY, kstat_cputime_name(f),
			  col_fmt(fmt, " ", w->ns[f], PRIu64), c->ns[f]);
	close_json_object();
	print_nl();
}

static void print_cputimes(const struct kstat_cputime *c, size_t n)
{
	struct cpu_widths w;
	size_t i;

	cpu_widths(c, n, &w);
	open_json_array(NULL);
	print_cpu_header(&w);
	for (i = 0; i < n; i++)
		print_cpu_row(&c[i], &w);
	close_json_array();
}

/* All online CPUs: one dump. */
static int cpu_show_online(struct kstat_handle *h)
{
	struct kstat_cpu_list *l;

	if (kstat_cpu_list_get(h, &l))
		return kernel_err("cannot read CPU times");
	print_cputimes(l->cpus, l->nr);
	kstat_cpu_list_free(l);
	return EXIT_OK;
}

/* One CPU, or the sum over all CPUs (@cpu -1). */
static int cpu_show_one(struct kstat_handle *h, int cpu)
{
	struct kstat_cputime c;

	if (kstat_cpu_get(h, cpu, &c)) {
		if (cpu < 0)
			return kernel_err("cannot read the total CPU time");
		kstat_err("cannot read CPU %d: %s", cpu, kstat_last_error(h));
		return EXIT_FAIL;
	}
	print_cputimes(&c, 1);
	return EXIT_OK;
}

#define CPU_ONLINE (-2)		/* no argument: every online CPU */

static int cpu_show(int argc, char **argv)
{
	struct kstat_handle *h;
	int cpu = CPU_ONLINE;
	uint32_t id;

	if (argc > 1)
		return usage_err("cpu", "unexpected argument \"%s\"", argv[1]);
	if (argc == 1) {
		if (is_prefix(argv[0], "total"))
			cpu = -1;
		else if (parse_u32(argv[0], &id) || id > INT_MAX)
			return usage_err("cpu", "invalid CPU \"%s\" (a CPU id or \"total\")",
					 argv[0]);
		else
			cpu = (int)id;
	}

	h = kstat_handle();
	if (!h)
		return EXIT_FAIL;
	return cpu == CPU_ONLINE ? cpu_show_online(h) : cpu_show_one(h, cpu);
}

static int cpu_help(int argc, char **argv)
{
	(void)argv;
	return show_help("cpu", cpu_usage, argc);
}

static const struct cmd cpu_cmds[] = {
	{ "show", cpu_show, NULL },	/* first: the default */
	{ "help", cpu_help, NULL },
	{ NULL, NULL, NULL }
};

int do_cpu(int argc, char **argv)
{
	return cmd_dispatch("cpu", cpu_cmds, argc, argv);
}
