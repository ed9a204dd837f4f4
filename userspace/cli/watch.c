// SPDX-License-Identifier: GPL-2.0
/*
 * kstat watch: live rates computed from the kernel's summaries, like
 * `mpstat -P ALL` for CPUs and `irqtop` for IRQs.  No /proc read and no
 * GET per interval: the rates come from the subscription's samples.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "irqlabels.h"
#include "json_print.h"
#include "kstat.h"

static const char watch_usage[] =
	"Usage: kstat watch [ cpu | irq | softirq ] [ interval SECONDS ]\n"
	"                   [ count N ] [ top N ]\n"
	"       kstat watch help\n"
	"\n"
	"Rates over each interval (default 1 s; never shorter than the kernel's\n"
	"sampling interval, see kstat config): cpu prints the share of each\n"
	"CPU time field per CPU and for all CPUs (percent), irq the top N IRQs\n"
	"by interrupts per second (default 10) with their chip and actions,\n"
	"softirq the runs per second of each vector.  With -j, one JSON object\n"
	"per interval: \"timestamp_ns\", \"interval_ns\" and \"cpu\", \"irq\" or\n"
	"\"softirq\" (an array).  If the module is unloaded, \"family kstat gone\"\n"
	"(JSON: {\"event\": \"family\", \"present\": false, ...}), and once it is\n"
	"loaded again \"family kstat back\" and the rates resume.\n";

enum watch_what { WATCH_CPU, WATCH_IRQ, WATCH_SOFTIRQ };

/* Counters at the start of the current interval. */
struct baseline {
	bool valid;
	uint64_t ts;
	struct kstat_cputime *cpus;
	size_t nr_cpus;
	uint64_t *irq;			/* by IRQ number; UINT64_MAX: none */
	size_t nr_irq;
	uint64_t softirq[32];
};

struct watch {
	enum watch_what what;
	uint64_t interval_ns;
	uint64_t count, printed;
	uint32_t top;
	bool done;
	struct baseline base;
	uint32_t generation;		/* of the names below */
	struct irq_labels names;
};

/* ---- baseline ---- */

static int base_take(struct baseline *b, const struct kstat_sample *s)
{
	size_t i, max = 0;

	b->cpus = realloc(b->cpus, (s->nr_cpus ? s->nr_cpus : 1) * sizeof(*b->cpus));
	for (i = 0; i < s->nr_irqs; i++)
		if (s->irqs[i].irq >= max)
			max = s->irqs[i].irq + 1;
	b->irq = realloc(b->irq, (max ? max : 1) * sizeof(*b->irq));
	if (!b->cpus || !b->irq)
		return -1;
	memcpy(b->cpus, s->cpus, s->nr_cpus * sizeof(*b->cpus));
	b->nr_cpus = s->nr_cpus;
	memset(b->irq, 0xff, max * sizeof(*b->irq));
	for (i = 0; i < s->nr_irqs; i++)
		b->irq[s->irqs[i].irq] = s->irqs[i].count;
	b->nr_irq = max;
	for (i = 0; i < s->nr_softirqs; i++)
		if (s->softirqs[i].vec < 32)
			b->softirq[s->softirqs[i].vec] = s->softirqs[i].count;
	b->ts = s->timestamp_ns;
	b->valid = true;
	return 0;
}

static const struct kstat_cputime *base_cpu(const struct baseline *b, int cpu)
{
	size_t i;

	for (i = 0; i < b->nr_cpus; i++)
		if (b->cpus[i].cpu == cpu)
			return &b->cpus[i];
	return NULL;
}

/* ---- printers ---- */

static const char *const cpu_cols[KSTAT_CPUTIME_NR] = {
	"%usr", "%nice", "%sys", "%idle", "%iowait",
	"%irq", "%soft", "%steal", "%guest", "%gnice",
};

static void print_cpu_rates(const struct kstat_sample *s,
			    const struct baseline *b)
{
	const struct kstat_cputime *now, *then;
	uint64_t d[KSTAT_CPUTIME_NR], total;
	size_t i;
	int f;

	print_string(PRINT_FP, NULL, "%-4s", "CPU");
	for (f = 0; f < KSTAT_CPUTIME_NR; f++)
		print_string(PRINT_FP, NULL, " %8s", cpu_cols[f]);
	print_nl();
	open_json_array("cpu");
	for (i = 0; i < s->nr_cpus; i++) {
		now = &s->cpus[i];
		then = base_cpu(b, now->cpu);
		if (!then)
			continue;	/* came online this interval */
		total = 0;
		for (f = 0; f < KSTAT_CPUTIME_NR; f++) {
			d[f] = now->ns[f] > then->ns[f] ? now->ns[f] - then->ns[f] : 0;
			/* guest time is also counted in user/nice */
			if (f != KSTAT_CPUTIME_GUEST && f != KSTAT_CPUTIME_GUEST_NICE)
				total += d[f];
		}
		open_json_object(NULL);
		if (now->cpu < 0) {
			print_null(PRINT_JSON, "cpu", NULL, NULL);
			print_string(PRINT_FP, NULL, "%-4s", "all");
		} else {
			print_int(PRINT_ANY, "cpu", "%-4d", now->cpu);
		}
		for (f = 0; f < KSTAT_CPUTIME_NR; f++)
			print_float(PRINT_ANY, kstat_cputime_name(f), " %8.2f",
				    total ? 100.0 * d[f] / total : 0.0);
		close_json_object();
		print_nl();
	}
	close_json_array();
}

struct irq_rate {
	uint32_t irq;
	uint64_t delta, count;
};

static int by_rate(const void *a, const void *b)
{
	const struct irq_rate *x = a, *y = b;

	if (x->delta != y->delta)
		return x->delta < y->delta ? 1 : -1;
	return x->irq < y->irq ? -1 : x->irq > y->irq;
}

static void print_irq_rates(const struct watch *w, const struct kstat_sample *s,
			    double secs)
{
	const struct baseline *b = &w->base;
	struct irq_rate *r = calloc(s->nr_irqs ? s->nr_irqs : 1, sizeof(*r));
	const struct irq_label *n;
	size_t i, nr = 0;

	if (!r)
		return;
	for (i = 0; i < s->nr_irqs; i++) {
		const struct kstat_irq *q = &s->irqs[i];

		if (q->irq >= b->nr_irq || b->irq[q->irq] == UINT64_MAX)
			continue;
		r[nr].irq = q->irq;
		r[nr].count = q->count;
		r[nr++].delta = q->count - b->irq[q->irq];
	}
	qsort(r, nr, sizeof(*r), by_rate);

	print_string(PRINT_FP, NULL, "%8s", "IRQ");
	print_string(PRINT_FP, NULL, " %12s", "RATE/s");
	print_string(PRINT_FP, NULL, " %14s", "TOTAL");
	print_string(PRINT_FP, NULL, "  %-10s", "CHIP");
	print_string(PRINT_FP, NULL, " %s", "ACTIONS");
	print_nl();
	open_json_array("irq");
	for (i = 0; i < nr && i < w->top; i++) {
		n = irq_label(&w->names, r[i].irq);
		open_json_object(NULL);
		print_uint(PRINT_ANY, "irq", "%8u", r[i].irq);
		print_float(PRINT_ANY, "rate", " %12.1f", r[i].delta / secs);
		print_u64(PRINT_ANY, "count", " %14" PRIu64, r[i].count);
		print_string(PRINT_ANY, "chip", "  %-10s",
			     n && n->chip ? n->chip : "-");
		print_string(PRINT_ANY, "actions", " %s",
			     n && n->actions ? n->actions : "");
		close_json_object();
		print_nl();
	}
	close_json_array();
	free(r);
}

static void print_softirq_rates(const struct kstat_sample *s,
				const struct baseline *b, double secs)
{
	const struct kstat_softirq *v;
	size_t i;

	print_string(PRINT_FP, NULL, "%-10s", "NAME");
	print_string(PRINT_FP, NULL, " %12s", "RATE/s");
	print_string(PRINT_FP, NULL, " %14s", "TOTAL");
	print_nl();
	open_json_array("softirq");
	for (i = 0; i < s->nr_softirqs; i++) {
		v = &s->softirqs[i];
		if (v->vec >= 32)
			continue;
		open_json_object(NULL);
		print_string(PRINT_ANY, "name", "%-10s", v->name);
		print_float(PRINT_ANY, "rate", " %12.1f",
			    (v->count - b->softirq[v->vec]) / secs);
		print_u64(PRINT_ANY, "count", " %14" PRIu64, v->count);
		close_json_object();
		print_nl();
	}
	close_json_array();
}

static void on_sample(const struct kstat_sample *s, void *arg)
{
	struct watch *w = arg;
	double secs;

	/* One dispatch may deliver more than "count" needs: drop them. */
	if (w->done)
		return;
	if (!w->base.valid || s->generation != w->generation) {
		/* first sample, or the IRQ set changed: start over */
		if (w->what == WATCH_IRQ) {
			/* Rather no names than those of the old IRQ set. */
			irq_labels_free(&w->names);
			irq_labels_load(&w->names);
		}
		w->generation = s->generation;
		base_take(&w->base, s);
		return;
	}
	if (s->timestamp_ns - w->base.ts + 1000000 < w->interval_ns)
		return;		/* within 1 ms of the interval is close enough */

	secs = (s->timestamp_ns - w->base.ts) / 1e9;
	new_json_obj(opts.json, opts.pretty);
	open_json_object(NULL);
	print_u64(PRINT_JSON, "timestamp_ns", NULL, s->timestamp_ns);
	print_u64(PRINT_JSON, "interval_ns", NULL, s->timestamp_ns - w->base.ts);
	if (w->what == WATCH_CPU)
		print_cpu_rates(s, &w->base);
	else if (w->what == WATCH_IRQ)
		print_irq_rates(w, s, secs);
	else
		print_softirq_rates(s, &w->base, secs);
	close_json_object();
	delete_json_obj();
	if (!opts.json)
		putchar('\n');
	base_take(&w->base, s);
	if (w->count && ++w->printed >= w->count)
		w->done = true;
}

static void on_lost(uint64_t lost, enum kstat_lost_reason why, void *arg)
{
	struct watch *w = arg;

	if (w->done)
		return;
	/* Rates across a loss would be wrong: start a new interval. */
	w->base.valid = false;
	fflush(stdout);
	fprintf(stderr, "kstat: warning: lost %" PRIu64 " sample%s (%s)\n",
		lost, lost == 1 ? "" : "s", lost_reason(why));
}

/* Said on screen; the rates start over once samples come again. */
static void on_family(int present, void *arg)
{
	struct watch *w = arg;

	if (w->done)
		return;
	w->base.valid = false;
	print_family_event(present);
}

/*
 * Seconds as plain decimal ("2", "0.5"): strtod alone would also take
 * " 1", "+1", "1e1" and "0x1", which no other number of the CLI takes.
 */
static int parse_seconds(const char *s, uint64_t *ns)
{
	size_t digits = strspn(s, "0123456789");
	char *end;
	double v;

	if (s[digits] == '.')
		digits += 1 + strspn(s + digits + 1, "0123456789");
	if (s[digits] || !strpbrk(s, "0123456789"))
		return -1;
	v = strtod(s, &end);
	if (*end || !(v >= 0.01 && v <= 86400))
		return -1;
	*ns = (uint64_t)(v * 1e9);
	return 0;
}

static int watch_parse(struct watch *w, int argc, char **argv)
{
	uint32_t v;
	int a = 0;

	if (a < argc && !strcmp(argv[a], "cpu"))
		w->what = WATCH_CPU, a++;
	else if (a < argc && !strcmp(argv[a], "irq"))
		w->what = WATCH_IRQ, a++;
	else if (a < argc && !strcmp(argv[a], "softirq"))
		w->what = WATCH_SOFTIRQ, a++;
	for (; a < argc; a += 2) {
		if (a + 1 >= argc)
			return usage_err("watch", "\"%s\" needs a value", argv[a]);
		if (is_prefix(argv[a], "interval")) {
			if (parse_seconds(argv[a + 1], &w->interval_ns))
				return usage_err("watch", "bad interval \"%s\" (seconds, 0.01 to 86400)",
						 argv[a + 1]);
		} else if (is_prefix(argv[a], "count")) {
			if (parse_u32(argv[a + 1], &v) || !v)
				return usage_err("watch", "bad count \"%s\"", argv[a + 1]);
			w->count = v;
		} else if (is_prefix(argv[a], "top")) {
			if (parse_u32(argv[a + 1], &v) || !v)
				return usage_err("watch", "bad top \"%s\"", argv[a + 1]);
			w->top = v;
		} else {
			return usage_err("watch", "unexpected argument \"%s\"", argv[a]);
		}
	}
	return EXIT_OK;
}

int do_watch(int argc, char **argv)
{
	static const struct kstat_sub_ops ops = {
		.sample = on_sample,
		.lost = on_lost,
		.family = on_family,
	};
	struct watch w = { .what = WATCH_CPU, .interval_ns = 1000000000ULL,
			   .top = 10 };
	struct sub_run_opts o = { .ops = &ops, .arg = &w, .done = &w.done };
	int ret;

	if (argc && !strcmp(argv[0], "help"))
		return show_help("watch", watch_usage, argc - 1);
	ret = watch_parse(&w, argc, argv);
	if (ret)
		return ret;
	ret = sub_run(&o);
	irq_labels_free(&w.names);
	free(w.base.cpus);
	free(w.base.irq);
	return ret;
}
