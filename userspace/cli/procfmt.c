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

/* "intr SUM" then the count of every IRQ number below nr_irqs, 0 if none. */
static void print_stat_intr(const struct kstat_irq_list *l)
{
	size_t i = 0;
	uint32_t irq;
	uint64_t v;

	printf("intr %" PRIu64, l->intr_sum);
	for (irq = 0; irq < l->nr_irqs; irq++) {
		while (i < l->nr && l->irqs[i].irq < irq)
			i++;
		v = i < l->nr && l->irqs[i].irq == irq ? l->irqs[i].count : 0;
		printf(" %" PRIu64, v);
	}
	putchar('\n');
}

/*
 * "softirq SUM" then each vector.  The kernel adds up the per-vector sums
 * in unsigned int but the total in u64: do the same.
 */
static void print_stat_softirq(const struct kstat_softirq_list *l)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < l->nr; i++)
		sum += l->vecs[i].count;
	printf("softirq %" PRIu64, sum);
	for (i = 0; i < l->nr; i++)
		printf(" %u", (uint32_t)l->vecs[i].count);
	putchar('\n');
}

/*
 * Rows /proc/interrupts has and this kstat.ko cannot read (a module, not
 * built into the kernel): said on stderr, so that the /proc-compatible
 * text is not taken for /proc's where it cannot be.
 */
static void note_arch_unread(const struct kstat_irq_list *l)
{
	if (l->arch_unread)
		fprintf(stderr, "kstat: note: this kstat.ko cannot read the %s rows of /proc/interrupts (kstat built as a module); intr leaves out those /proc/stat counts (MCE, MCP, ERR)\n",
			l->arch_unread);
}

struct stat_data {
	struct kstat_cputime total;
	struct kstat_cpu_list *cpus;
	struct kstat_irq_list *irqs;
	struct kstat_softirq_list *softirqs;
};

static int stat_fetch(struct kstat_handle *h, struct stat_data *d)
{
	struct kstat_filter f = KSTAT_FILTER_INIT;	/* totals only */

	if (kstat_cpu_get(h, -1, &d->total))
		return kernel_err("cannot read the total CPU time");
	if (kstat_cpu_list_get(h, &d->cpus))
		return kernel_err("cannot read CPU times");
	if (kstat_irq_list_get(h, &f, &d->irqs))
		return kernel_err("cannot read IRQs");
	if (!d->irqs->has_totals) {
		kstat_err("cannot read IRQs: the reply has no totals");
		return EXIT_FAIL;
	}
	if (kstat_softirq_get(h, &f, &d->softirqs))
		return kernel_err("cannot read softirqs");
	return EXIT_OK;
}

static int stat_show(int argc, char **argv)
{
	struct stat_data d = { .cpus = NULL };
	struct kstat_handle *h;
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
	h = kstat_handle();
	if (!h)
		return EXIT_FAIL;

	ret = stat_fetch(h, &d);
	if (!ret) {
		print_stat_cpu(&d.total, (uint64_t)hz);
		for (i = 0; i < d.cpus->nr; i++)
			print_stat_cpu(&d.cpus->cpus[i], (uint64_t)hz);
		print_stat_intr(d.irqs);
		print_stat_softirq(d.softirqs);
		note_arch_unread(d.irqs);
	}
	kstat_cpu_list_free(d.cpus);
	kstat_irq_list_free(d.irqs);
	kstat_softirq_list_free(d.softirqs);
	return ret;
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

/* The count of @cpu in a per-CPU array starting at CPU @first. */
static uint32_t percpu_at(const uint32_t *v, uint32_t nr, uint32_t first,
			  unsigned int cpu)
{
	return cpu >= first && cpu - first < nr ? v[cpu - first] : 0;
}

/* Width of the first column, as show_interrupts() computes it. */
static int interrupts_prec(uint32_t nr_irqs)
{
	uint64_t j = 1000;
	int prec = 3;

	while (prec < 10 && j <= nr_irqs) {
		prec++;
		j *= 10;
	}
	return prec;
}

/* Iterate over the online CPUs of @l. */
#define for_each_online(cpu, l)						\
	for ((cpu) = 0; (cpu) < (l)->online_len * 8; (cpu)++)		\
		if (kstat_cpu_is_online((l)->online, (l)->online_len, (cpu)))

static void print_interrupts_header(const struct kstat_irq_list *l, int prec)
{
	unsigned int cpu;

	printf("%*s", prec + 8, "");
	for_each_online(cpu, l)
		printf("CPU%-8u", cpu);
	putchar('\n');
}

/* The kernel shows an IRQ with an action or a count on an online CPU. */
static bool interrupts_row_shown(const struct kstat_irq_list *l,
				 const struct kstat_irq *q)
{
	unsigned int cpu;

	if (q->nr_actions)
		return true;
	for_each_online(cpu, l)
		if (percpu_at(q->percpu, q->nr_percpu, l->cpu_first, cpu))
			return true;
	return false;
}

static void print_interrupts_irq(const struct kstat_irq_list *l,
				 const struct kstat_irq *q, int prec)
{
	unsigned int cpu;
	size_t i;

	printf("%*u: ", prec, q->irq);
	for_each_online(cpu, l)
		printf("%10u ", percpu_at(q->percpu, q->nr_percpu,
					  l->cpu_first, cpu));
	printf(" %8s", q->chip ? q->chip : "None");
	if (q->has_hwirq)
		printf(" %*" PRIu64, prec, q->hwirq);
	else
		printf(" %*s", prec, "");
	if (q->name && *q->name)
		printf("-%-8s", q->name);
	for (i = 0; i < q->nr_actions; i++)
		printf(i ? ", %s" : "  %s", q->actions[i]);
	putchar('\n');
}

/*
 * /proc shows PLT, HYP, HRE and HVS only when their vector is in use, which
 * the module cannot tell, so it always reports them.  An unused vector
 * never counts: leave those rows out while they are zero everywhere, which
 * matches /proc except for a vector in use that has not fired yet.
 */
static bool interrupts_arch_shown(const struct kstat_irq_list *l,
				  const struct kstat_arch *r)
{
	static const char *const conditional[] = { "PLT", "HYP", "HRE", "HVS" };
	unsigned int cpu;
	size_t i;

	for (i = 0; i < sizeof(conditional) / sizeof(conditional[0]); i++)
		if (strcmp(r->name, conditional[i]) == 0)
			break;
	if (i == sizeof(conditional) / sizeof(conditional[0]))
		return true;
	for_each_online(cpu, l)
		if (percpu_at(r->percpu, r->nr_percpu, l->cpu_first, cpu))
			return true;
	return false;
}

static void print_interrupts_arch(const struct kstat_irq_list *l,
				  const struct kstat_arch *r, int prec)
{
	unsigned int cpu;

	/* one count for all CPUs (ERR, MIS), as /proc prints it */
	if (!r->nr_percpu) {
		printf("%*s: %10" PRIu64 "\n", prec, r->name, r->count);
		return;
	}
	printf("%*s: ", prec, r->name);
	for_each_online(cpu, l)
		printf("%10u ", percpu_at(r->percpu, r->nr_percpu,
					  l->cpu_first, cpu));
	printf("  %s\n", r->desc);
}

static int interrupts_show(int argc, char **argv)
{
	struct kstat_filter f = KSTAT_FILTER_INIT;
	struct kstat_irq_list *l;
	struct kstat_handle *h;
	size_t i;
	int ret, prec;

	if (argc)
		return usage_err("interrupts", "unexpected argument \"%s\"",
				 argv[0]);
	ret = reject_json("interrupts");
	if (ret)
		return ret;
	h = kstat_handle();
	if (!h)
		return EXIT_FAIL;

	/* One dump: IRQs, arch rows, nr_irqs and the online CPUs agree. */
	f.flags = KSTAT_F_ARCH | KSTAT_F_PERCPU | KSTAT_F_META;
	if (kstat_irq_list_get(h, &f, &l))
		return kernel_err("cannot read IRQs");
	if (!l->has_totals) {
		kstat_irq_list_free(l);
		kstat_err("cannot read IRQs: the reply has no totals");
		return EXIT_FAIL;
	}

	prec = interrupts_prec(l->nr_irqs);
	print_interrupts_header(l, prec);
	for (i = 0; i < l->nr; i++)
		if (interrupts_row_shown(l, &l->irqs[i]))
			print_interrupts_irq(l, &l->irqs[i], prec);
	for (i = 0; i < l->nr_arch; i++)
		if (interrupts_arch_shown(l, &l->arch[i]))
			print_interrupts_arch(l, &l->arch[i], prec);
	note_arch_unread(l);
	kstat_irq_list_free(l);
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

static int softirqs_show(int argc, char **argv)
{
	struct kstat_filter f = KSTAT_FILTER_INIT;
	struct kstat_softirq_list *l;
	struct kstat_handle *h;
	uint32_t c, nr_cpus = 0;
	size_t i;
	int ret;

	if (argc)
		return usage_err("softirqs", "unexpected argument \"%s\"",
				 argv[0]);
	ret = reject_json("softirqs");
	if (ret)
		return ret;
	h = kstat_handle();
	if (!h)
		return EXIT_FAIL;

	/* The default CPU range is every CPU id: the possible CPUs. */
	f.flags = KSTAT_F_PERCPU;
	if (kstat_softirq_get(h, &f, &l))
		return kernel_err("cannot read softirqs");

	for (i = 0; i < l->nr; i++)
		if (l->vecs[i].nr_percpu > nr_cpus)
			nr_cpus = l->vecs[i].nr_percpu;
	printf("%20s", "");
	for (c = 0; c < nr_cpus; c++)
		printf("CPU%-8u", l->cpu_first + c);
	putchar('\n');
	for (i = 0; i < l->nr; i++) {
		printf("%12s:", l->vecs[i].name);
		for (c = 0; c < nr_cpus; c++)
			printf(" %10u", c < l->vecs[i].nr_percpu ?
			       l->vecs[i].percpu[c] : 0);
		putchar('\n');
	}
	kstat_softirq_list_free(l);
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
