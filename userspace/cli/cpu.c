// SPDX-License-Identifier: GPL-2.0
/*
 * kstat cpu: CPU time per CPU, in nanoseconds.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kstat.h"
#include "print.h"

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

static void print_cpus(const struct kstat_cputime *c, size_t n)
{
	struct cpu_cols w;

	cpu_cols_fit(&w, c, n);
	print_cputimes(NULL, c, n, &w);
}

/* All online CPUs: one dump. */
static int cpu_show_online(struct kstat_handle *h)
{
	struct kstat_cpu_list *l;

	if (kstat_cpu_list_get(h, &l))
		return kernel_err("cannot read CPU times");
	print_cpus(l->cpus, l->nr);
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
	print_cpus(&c, 1);
	return EXIT_OK;
}

#define CPU_ONLINE (-2)		/* no argument: every online CPU */

static int cpu_show(int argc, char **argv)
{
	struct kstat_handle *h;
	char why[EXPLAIN_LEN];
	int cpu = CPU_ONLINE, err;
	uint64_t id;

	if (argc > 1)
		return usage_err("cpu", "unexpected argument \"%s\"", argv[1]);
	if (argc == 1 && is_prefix(argv[0], "total")) {
		cpu = -1;
	} else if (argc == 1) {
		err = parse_uint(argv[0], 0, INT_MAX, &id);
		if (err)
			return usage_err("cpu", "invalid CPU \"%s\" (a CPU id, %s, or \"total\")",
					 argv[0], uint_explain(why, sizeof(why), err, 0, INT_MAX));
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

static int do_cpu(int argc, char **argv)
{
	return cmd_dispatch("cpu", cpu_cmds, argc, argv);
}

static void cpu_print_sample(const struct kstat_sample *s)
{
	print_cputimes("cpu", s->cpus, s->nr_cpus, NULL);
}

const struct cli_section cli_section_cpu = {
	.name		= "cpu",
	.func		= do_cpu,
	.help		= "CPU time per CPU, in nanoseconds",
	.bit		= KSTAT_SECTION_CPU,
	.print_sample	= cpu_print_sample,
};
