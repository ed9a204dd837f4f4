// SPDX-License-Identifier: GPL-2.0
/*
 * kstat softirq: softirq counts per vector.
 */
#include <string.h>

#include "kstat.h"
#include "print.h"

static const char softirq_usage[] =
	"Usage: kstat softirq [ show [ percpu ] ]\n"
	"       kstat softirq help\n"
	"\n"
	"How often each softirq vector ran since boot, summed over all CPUs;\n"
	"with \"percpu\" also the count of each CPU id (offline CPUs included).\n"
	"\n"
	"Text: a table  NAME COUNT [CPUn ...].  JSON (-j): an array of objects\n"
	"with the keys \"name\", \"count\" and, with percpu, \"percpu\" (an array\n"
	"of counts indexed by CPU id).  Counts are 64-bit; per-CPU counts are\n"
	"the kernel's 32-bit ones.\n";

static int softirq_show(int argc, char **argv)
{
	struct kstat_query q = KSTAT_QUERY_INIT;
	struct kstat_sample *s;
	struct softirq_cols w;
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
	q.sections = KSTAT_SECTION_SOFTIRQ;
	q.flags = percpu ? KSTAT_F_PERCPU : 0;
	if (kstat_get(h, &q, &s))
		return kernel_err("cannot read softirqs");

	softirq_cols_show(&w, s, percpu);
	open_json_array(NULL);
	print_softirq_header(&w);
	for (i = 0; i < s->nr_softirqs; i++)
		print_softirq(kstat_sample_softirq(s, i), 0, &w);
	close_json_array();
	kstat_sample_free(s);
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

static int do_softirq(int argc, char **argv)
{
	return cmd_dispatch("softirq", softirq_cmds, argc, argv);
}

static void softirq_print_sample(const struct kstat_sample *s)
{
	struct softirq_cols w;
	size_t i;

	softirq_cols_json(&w, s);
	open_json_array("softirq");
	for (i = 0; i < s->nr_softirqs; i++)
		print_softirq(kstat_sample_softirq(s, i), 0, &w);
	close_json_array();
}

const struct cli_section cli_section_softirq = {
	.name		= "softirq",
	.func		= do_softirq,
	.help		= "softirq counts per vector",
	.bit		= KSTAT_SECTION_SOFTIRQ,
	.print_sample	= softirq_print_sample,
};
