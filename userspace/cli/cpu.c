// SPDX-License-Identifier: GPL-2.0
/*
 * kstat cpu: CPU time per CPU: seconds in text, nanoseconds with "ns" and
 * in JSON (the kernel's unit; scripts read the JSON keys as nanoseconds).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kstat.h"
#include "print.h"

static const char cpu_usage[] =
	"Usage: kstat cpu [ show [ CPU | total ] [ ns ] ]\n"
	"       kstat cpu help\n"
	"\n"
	"Time each CPU spent in each state since boot: one row per online CPU,\n"
	"only CPU (a CPU id; an offline one is an error), or with \"total\" the\n"
	"sum over all CPUs (the \"cpu\" line of /proc/stat; its \"cpu\" is null\n"
	"in JSON).\n"
	"\n"
	"Text: a table  CPU user(s) nice(s) system(s) idle(s) iowait(s) irq(s)\n"
	"softirq(s) steal(s) guest(s) guest_nice(s), in seconds with two\n"
	"decimals (the kernel counts in ticks of 4 ms at HZ=250); with ns, the\n"
	"kernel's nanoseconds under the headers user nice ... guest_nice.\n"
	"guest and guest_nice are also counted in user and nice, as in\n"
	"/proc/stat.  JSON (-j): an array of objects with the keys \"cpu\",\n"
	"\"user\", \"nice\", \"system\", \"idle\", \"iowait\", \"irq\", \"softirq\",\n"
	"\"steal\", \"guest\" and \"guest_nice\", integers in nanoseconds, with or\n"
	"without ns.\n";

#define CPU_TOTAL	(-1)
#define CPU_ONLINE	(-2)	/* no argument: every online CPU */

/* One GET: every online CPU, one CPU, or the total. */
static int cpu_get(struct kstat_handle *h, int cpu, enum cputime_unit unit)
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
	print_cputimes_in(NULL, s, cpu == CPU_TOTAL, true, unit);
	kstat_sample_free(s);
	return EXIT_OK;
}

/* "show [ CPU | total ] [ ns ]", the two in either order. */
static int cpu_show(int argc, char **argv)
{
	enum cputime_unit unit = CPUTIME_SECS;
	struct kstat_handle *h;
	char why[EXPLAIN_LEN];
	int cpu = CPU_ONLINE, err, a;
	uint64_t id;

	for (a = 0; a < argc; a++) {
		if (unit == CPUTIME_SECS && is_prefix(argv[a], "ns")) {
			unit = CPUTIME_NS;
			continue;
		}
		if (cpu != CPU_ONLINE)
			return usage_err("cpu", "unexpected argument \"%s\"", argv[a]);
		if (is_prefix(argv[a], "total")) {
			cpu = CPU_TOTAL;
			continue;
		}
		err = parse_uint(argv[a], 0, INT_MAX, &id);
		if (err)
			return usage_err("cpu", "invalid CPU \"%s\" (a CPU id, %s, \"total\" or \"ns\")",
					 argv[a], uint_explain(why, sizeof(why), err, 0, INT_MAX));
		cpu = (int)id;
	}

	h = kstat_handle();
	if (!h)
		return EXIT_FAIL;
	return cpu_get(h, cpu, unit);
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
	.help		= "CPU time per CPU, in seconds",
	.bit		= KSTAT_SECTION_CPU,
	.print_sample	= cpu_print_sample,
};
