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
	"per online CPU, only CPU (a CPU id; an offline one is an error), or\n"
	"with \"total\" the sum over all CPUs (the \"cpu\" line of /proc/stat;\n"
	"its \"cpu\" is null in JSON).\n"
	"\n"
	"Text: a table  CPU user nice system idle iowait irq softirq steal guest\n"
	"guest_nice.  JSON (-j): an array of objects with the keys \"cpu\", \"user\",\n"
	"\"nice\", \"system\", \"idle\", \"iowait\", \"irq\", \"softirq\", \"steal\",\n"
	"\"guest\" and \"guest_nice\", all integers.\n";

#define CPU_TOTAL	(-1)
#define CPU_ONLINE	(-2)	/* no argument: every online CPU */

/* One GET: every online CPU, one CPU, or the total. */
static int cpu_get(struct kstat_handle *h, int cpu)
{
	struct kstat_query q = KSTAT_QUERY_INIT;
	struct kstat_sample *s;
	char what[64];

	q.sections = KSTAT_SECTION_CPU;
	q.flags = cpu == CPU_TOTAL ? 0 : KSTAT_F_PERCPU;
	if (cpu >= 0)
		q.cpu_first = q.cpu_last = cpu;
	if (cpu >= 0)
		snprintf(what, sizeof(what), "cannot read CPU %d", cpu);
	else
		snprintf(what, sizeof(what), "cannot read %s", cpu == CPU_TOTAL ?
			 "the total CPU time" : "CPU times");
	if (kstat_get(h, &q, &s))
		return kernel_err(what);
	if (cpu >= 0 && !s->nr_cpus) {
		kstat_sample_free(s);
		kstat_err("%s: it is offline", what);
		return EXIT_FAIL;
	}
	print_cputimes(NULL, s, cpu == CPU_TOTAL, true);
	kstat_sample_free(s);
	return EXIT_OK;
}

static int cpu_show(int argc, char **argv)
{
	struct kstat_handle *h;
	char why[EXPLAIN_LEN];
	int cpu = CPU_ONLINE, err;
	uint64_t id;

	if (argc > 1)
		return usage_err("cpu", "unexpected argument \"%s\"", argv[1]);
	if (argc == 1 && is_prefix(argv[0], "total")) {
		cpu = CPU_TOTAL;
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
	return cpu_get(h, cpu);
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
	print_cputimes("cpu", s, true, false);
}

const struct cli_section cli_section_cpu = {
	.name		= "cpu",
	.func		= do_cpu,
	.help		= "CPU time per CPU, in nanoseconds",
	.bit		= KSTAT_SECTION_CPU,
	.print_sample	= cpu_print_sample,
};
