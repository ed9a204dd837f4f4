// SPDX-License-Identifier: GPL-2.0
/*
 * kstat stat, kstat interrupts, kstat softirqs: drop-in printers for
 * /proc/stat, /proc/interrupts and /proc/softirqs.
 *
 * Each line is printed byte for byte as Linux 6.1 prints it (fs/proc/stat.c
 * show_stat(), kernel/irq/proc.c show_interrupts() with x86's
 * arch_show_interrupts(), fs/proc/softirqs.c show_softirqs()), from
 * counters read over netlink.  What the kstat module cannot read is left
 * out, never invented; each usage text says what.  These formats are text
 * by definition: there is no JSON form.
 *
 * Every printer fetches everything first and prints afterwards, so a
 * failure prints an error and nothing else.
 */
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "kstat.h"
#include "print.h"
#include "procfmt.h"

#define NSEC_PER_SEC 1000000000ULL

/* ---- kstat stat ---------------------------------------------------------- */

static const char stat_usage[] =
	"Usage: kstat stat [ show ]\n"
	"       kstat stat help\n"
	"\n"
	"The lines of /proc/stat that kstat can serve, in its exact format: \"cpu\"\n"
	"(all CPUs), \"cpuN\" (each online CPU), \"intr\" and \"softirq\", with CPU\n"
	"times in USER_HZ ticks.  The ctxt, btime, processes, procs_running and\n"
	"procs_blocked lines are not printed: the kstat module does not report\n"
	"them.  The \"intr\" total leaves out the x86 ERR, MIS, MCE and MCP\n"
	"counters, which modules cannot read (zero on a healthy machine).\n";

/*
 * The kernel's nsec_to_clock_t() (kernel/time/time.c) for USER_HZ @hz, all
 * three of its compile-time cases, with its 64-bit wrap-around.
 */
static uint64_t nsec_to_clock_t(uint64_t x, uint64_t hz)
{
	if (NSEC_PER_SEC % hz == 0)
		return x / (NSEC_PER_SEC / hz);
	if (hz % 512 == 0)
		return x * hz / 512 / (NSEC_PER_SEC / 512);
	return x * 9 / ((9ULL * NSEC_PER_SEC + hz / 2) / hz);
}

/* "cpu  u n s ..." for the total, "cpuN u n s ..." for one CPU. */
static void print_stat_cpu(const struct kstat_cputime *c, uint64_t hz)
{
	int f;

	if (c->cpu < 0)
		fputs("cpu ", stdout);
	else
		printf("cpu%d", c->cpu);
	for (f = 0; f < KSTAT_CPUTIME_NR; f++)
		printf(" %" PRIu64, nsec_to_clock_t(c->ns[f], hz));
	putchar('\n');
}

/*
 * "intr SUM" then the count of every IRQ number below nr_irqs, 0 if none,
 * as the kernel's 32-bit kstat_irqs_usr() gives it.
 */
static void print_stat_intr(const struct kstat_sample *s)
{
	const struct kstat_irq *q;
	size_t i = 0;
	uint32_t irq;

	printf("intr %" PRIu64, s->intr_sum);
	for (irq = 0; irq < s->kernel_nr_irqs; irq++) {
		while (i < s->nr_irqs && kstat_sample_irq(s, i)->irq < irq)
			i++;
		q = i < s->nr_irqs ? kstat_sample_irq(s, i) : NULL;
		printf(" %u", q && q->irq == irq ? (uint32_t)q->count : 0);
	}
	putchar('\n');
}

/*
 * "softirq SUM" then each vector.  The kernel adds up the per-vector sums
 * in unsigned int but the total in u64, from the per-CPU counts: do the
 * same.
 */
static void print_stat_softirq(const struct kstat_sample *s)
{
	const struct kstat_softirq *v;
	uint64_t sum = 0;
	size_t i, c;

	for (i = 0; i < s->nr_softirqs; i++) {
		v = kstat_sample_softirq(s, i);
		for (c = 0; c < v->nr_percpu; c++)
			sum += v->percpu[c].count;
	}
	printf("softirq %" PRIu64, sum);
	for (i = 0; i < s->nr_softirqs; i++)
		printf(" %u", (uint32_t)kstat_sample_softirq(s, i)->count);
	putchar('\n');
}

/*
 * Rows /proc/interrupts has and this kstat.ko cannot read (a module, not
 * built into the kernel): said on stderr, so that the /proc-compatible
 * text is not taken for /proc's where it cannot be.
 */
static void note_arch_unread(const struct kstat_sample *s)
{
	if (s->arch_unread)
		fprintf(stderr, "kstat: note: this kstat.ko cannot read the %s rows of /proc/interrupts (kstat built as a module); intr leaves out those /proc/stat counts (MCE, MCP, ERR)\n",
			s->arch_unread);
}

/* One GET of @sections with @flags into *@s; EXIT_* after the error. */
static int proc_get(uint32_t sections, uint32_t flags, struct kstat_sample **s)
{
	struct kstat_query q = KSTAT_QUERY_INIT;
	struct kstat_handle *h = kstat_handle();

	if (!h)
		return EXIT_FAIL;
	q.sections = sections;
	q.flags = flags;
	return kstat_get(h, &q, s) ? kernel_err("cannot read the counters") :
				     EXIT_OK;
}

static int stat_show(int argc, char **argv)
{
	struct kstat_sample *s;
	long hz;
	size_t i;
	int ret;

	if (argc)
		return usage_err("stat", "unexpected argument \"%s\"", argv[0]);
	ret = reject_json("stat");
	if (ret)
		return ret;
	hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0) {
		kstat_err("cannot get USER_HZ (sysconf(_SC_CLK_TCK))");
		return EXIT_FAIL;
	}
	/* One reading: every line of one moment. */
	ret = proc_get(cli_sections_all(), KSTAT_F_PERCPU, &s);
	if (ret)
		return ret;
	if (s->cpu_total)
		print_stat_cpu(s->cpu_total, (uint64_t)hz);
	for (i = 0; i < s->nr_cpus; i++)
		print_stat_cpu(kstat_sample_cpu(s, i), (uint64_t)hz);
	print_stat_intr(s);
	print_stat_softirq(s);
	note_arch_unread(s);
	kstat_sample_free(s);
	return EXIT_OK;
}

static int stat_help(int argc, char **argv)
{
	(void)argv;
	return show_help("stat", stat_usage, argc);
}

static const struct cmd stat_cmds[] = {
	{ "show", stat_show, NULL },	/* first: the default */
	{ "help", stat_help, NULL },
	{ NULL, NULL, NULL }
};

int do_stat(int argc, char **argv)
{
	return cmd_dispatch("stat", stat_cmds, argc, argv);
}

/* ---- kstat interrupts ---------------------------------------------------- */

static const char interrupts_usage[] =
	"Usage: kstat interrupts [ show ]\n"
	"       kstat interrupts help\n"
	"\n"
	"/proc/interrupts in its exact format (as an x86 kernel without\n"
	"CONFIG_GENERIC_IRQ_SHOW_LEVEL prints it): one column per online CPU,\n"
	"the IRQ rows, then the architecture rows.  The x86 ERR, MIS, MCE and\n"
	"MCP rows are not printed: modules cannot read those counters.  /proc\n"
	"shows the PLT, HYP, HRE and HVS rows only when their vector is in use;\n"
	"kstat cannot tell, and shows them once they count something.\n";

int proc_interrupts_prec(uint32_t nr_irqs)
{
	uint64_t j = 1000;
	int prec = 3;

	while (prec < 10 && j <= nr_irqs) {
		prec++;
		j *= 10;
	}
	return prec;
}

/* Iterate over the online CPUs of @s. */
#define for_each_online(cpu, s)						\
	for ((cpu) = 0; (cpu) < (s)->online_len * 8; (cpu)++)		\
		if (kstat_cpu_is_online((s), (cpu)))

/* Has the sparse list @v a count on an online CPU of @s? */
static bool counts_online(const struct kstat_sample *s,
			  const struct kstat_cpu_count *v, uint32_t nr)
{
	uint32_t i;

	for (i = 0; v && i < nr; i++)
		if (v[i].count && kstat_cpu_is_online(s, v[i].cpu))
			return true;
	return false;
}

/* "%10u " per online CPU, from the sparse list @v. */
static void print_online_counts(const struct kstat_sample *s,
				const struct kstat_cpu_count *v, uint32_t nr)
{
	unsigned int cpu;

	for_each_online(cpu, s)
		printf("%10u ", kstat_percpu_at(v, nr, cpu));
}

void proc_print_irq_desc(FILE *f, const struct kstat_irq *q, int prec)
{
	size_t i;

	fprintf(f, " %8s", q->chip ? q->chip : "None");
	if (q->has_hwirq)
		fprintf(f, " %*" PRIu64, prec, q->hwirq);
	else
		fprintf(f, " %*s", prec, "");
	if (q->name && *q->name)
		fprintf(f, "-%-8s", q->name);
	for (i = 0; i < q->nr_actions; i++)
		fprintf(f, i ? ", %s" : "  %s", q->actions[i]);
}

static void print_interrupts_irq(const struct kstat_sample *s,
				 const struct kstat_irq *q, int prec)
{
	printf("%*u: ", prec, q->irq);
	print_online_counts(s, q->percpu, q->nr_percpu);
	proc_print_irq_desc(stdout, q, prec);
	putchar('\n');
}

/*
 * /proc shows PLT, HYP, HRE and HVS only when their vector is in use, which
 * the module cannot tell, so it always reports them.  An unused vector
 * never counts: leave those rows out while they are zero everywhere, which
 * matches /proc except for a vector in use that has not fired yet.
 */
bool proc_arch_shown(const struct kstat_sample *s, const struct kstat_arch *r)
{
	static const char *const conditional[] = { "PLT", "HYP", "HRE", "HVS" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(conditional); i++)
		if (strcmp(r->name, conditional[i]) == 0)
			return counts_online(s, r->percpu, r->nr_percpu);
	return true;
}

static void print_interrupts_arch(const struct kstat_sample *s,
				  const struct kstat_arch *r, int prec)
{
	/* one count for all CPUs (ERR, MIS), as /proc prints it */
	if (arch_is_global(r)) {
		printf("%*s: %10" PRIu64 "\n", prec, r->name, r->count);
		return;
	}
	printf("%*s: ", prec, r->name);
	print_online_counts(s, r->percpu, r->nr_percpu);
	printf("  %s\n", r->desc);
}

bool proc_irq_shown(const struct kstat_sample *s, const struct kstat_irq *q)
{
	/* as the kernel: an IRQ with an action or a count on an online CPU */
	return q->nr_actions || counts_online(s, q->percpu, q->nr_percpu);
}

void proc_print_interrupts(const struct kstat_sample *s, int prec)
{
	unsigned int cpu;
	size_t i;

	printf("%*s", prec + 8, "");
	for_each_online(cpu, s)
		printf("CPU%-8u", cpu);
	putchar('\n');
	for (i = 0; i < s->nr_irqs; i++)
		if (proc_irq_shown(s, kstat_sample_irq(s, i)))
			print_interrupts_irq(s, kstat_sample_irq(s, i), prec);
	for (i = 0; i < s->nr_arch; i++)
		if (proc_arch_shown(s, kstat_sample_arch(s, i)))
			print_interrupts_arch(s, kstat_sample_arch(s, i), prec);
}

static int interrupts_show(int argc, char **argv)
{
	struct kstat_sample *s;
	int ret;

	if (argc)
		return usage_err("interrupts", "unexpected argument \"%s\"",
				 argv[0]);
	ret = reject_json("interrupts");
	if (!ret)	/* one reading: IRQs, arch rows and online CPUs agree */
		ret = proc_get(KSTAT_SECTION_IRQ, KSTAT_F_PERCPU | KSTAT_F_META, &s);
	if (ret)
		return ret;

	proc_print_interrupts(s, proc_interrupts_prec(s->kernel_nr_irqs));
	note_arch_unread(s);
	kstat_sample_free(s);
	return EXIT_OK;
}

static int interrupts_help(int argc, char **argv)
{
	(void)argv;
	return show_help("interrupts", interrupts_usage, argc);
}

static const struct cmd interrupts_cmds[] = {
	{ "show", interrupts_show, NULL },	/* first: the default */
	{ "help", interrupts_help, NULL },
	{ NULL, NULL, NULL }
};

int do_interrupts(int argc, char **argv)
{
	return cmd_dispatch("interrupts", interrupts_cmds, argc, argv);
}

/* ---- kstat softirqs ------------------------------------------------------ */

static const char softirqs_usage[] =
	"Usage: kstat softirqs [ show ]\n"
	"       kstat softirqs help\n"
	"\n"
	"/proc/softirqs in its exact format: one column per possible CPU.\n";

void proc_print_softirqs(const struct kstat_sample *s, uint32_t nr_cpus)
{
	const struct kstat_softirq *v;
	uint32_t c;
	size_t i;

	printf("%20s", "");
	for (c = 0; c < nr_cpus; c++)
		printf("CPU%-8u", c);
	putchar('\n');
	for (i = 0; i < s->nr_softirqs; i++) {
		v = kstat_sample_softirq(s, i);
		printf("%12s:", v->name);
		for (c = 0; c < nr_cpus; c++)
			printf(" %10u", kstat_percpu_at(v->percpu, v->nr_percpu, c));
		putchar('\n');
	}
}

static int softirqs_show(int argc, char **argv)
{
	struct kstat_sample *s;
	int ret;

	if (argc)
		return usage_err("softirqs", "unexpected argument \"%s\"",
				 argv[0]);
	ret = reject_json("softirqs");
	if (!ret)
		ret = proc_get(KSTAT_SECTION_SOFTIRQ, KSTAT_F_PERCPU, &s);
	if (ret)
		return ret;

	/* a column per possible CPU */
	proc_print_softirqs(s, sample_cpu_span(s));
	kstat_sample_free(s);
	return EXIT_OK;
}

static int softirqs_help(int argc, char **argv)
{
	(void)argv;
	return show_help("softirqs", softirqs_usage, argc);
}

static const struct cmd softirqs_cmds[] = {
	{ "show", softirqs_show, NULL },	/* first: the default */
	{ "help", softirqs_help, NULL },
	{ NULL, NULL, NULL }
};

int do_softirqs(int argc, char **argv)
{
	return cmd_dispatch("softirqs", softirqs_cmds, argc, argv);
}
