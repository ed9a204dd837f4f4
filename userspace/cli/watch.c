// SPDX-License-Identifier: GPL-2.0
/*
 * kstat watch: live rates computed from the kernel's samples, like
 * `mpstat -P ALL` for CPUs and `irqtop` for IRQs.  No /proc read and no
 * GET per interval: the rates come from the subscription's samples.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "irqlabels.h"
#include "json_print.h"
#include "kstat.h"
#include "rates.h"

static const char watch_usage[] =
	"Usage: kstat watch [ cpu | irq [ percpu ] | softirq [ percpu ] ]\n"
	"                   [ interval TIME ] [ count N ] [ top N ]\n"
	"       kstat watch help\n"
	"\n"
	"Rates over each interval: TIME with a unit (250ms, 2s, 1m), 10ms to\n"
	"24h (default 1s); a bare number is milliseconds, as in every kstat\n"
	"command (for 2 seconds write 2s).  watch reads a subscription of its\n"
	"own at that interval (60 s at most: a longer one spans several\n"
	"samples) carrying only the section it shows (cpu with its per-CPU\n"
	"rows); users without CAP_NET_ADMIN may not go below the floor kstat\n"
	"config shows (min_interval_ms, 250 ms by default).  cpu prints the\n"
	"share of each CPU time field per CPU and for all CPUs (percent: JSON\n"
	"keys user_pct, nice_pct, ...), as mpstat: %usr and %nice without the\n"
	"guest time, which %guest and %gnice show; irq the top N IRQs by\n"
	"interrupts per second (default 10) with their chip and actions,\n"
	"softirq the runs per second of each vector.  With -j, one JSON object\n"
	"per interval:\n"
	"\"timestamp_ns\", \"interval_ns\" and \"cpu\", \"irq\" or \"softirq\" (an\n"
	"array).  If the module is unloaded, \"family kstat gone\" (JSON:\n"
	"{\"event\": \"family\", \"present\": false, ...}), and once it is loaded\n"
	"again \"family kstat back\" and the rates resume.  With -t (kstat -t\n"
	"watch) each text table follows a line with the local time,\n"
	"[YYYY-MM-DDTHH:MM:SS.uuuuuu], as monitor's lines start with.\n"
	"\n"
	"irq percpu and softirq percpu print mpstat -I CPU's and -I SCPU's\n"
	"table: a row per online CPU, a column per IRQ (\"24/s\") or vector\n"
	"(\"NET_RX/s\"), per second; with -t each line starts with the local\n"
	"time (HH:MM:SS).  When watch ends (count N, Ctrl-C), an \"Average:\"\n"
	"table follows: the rates from the first sample to the last printed\n"
	"(since the module came back, if it went).  JSON: \"irq\" or\n"
	"\"softirq\" holds {\"irq\" or \"name\", \"rate\", \"percpu_rate\" (by\n"
	"CPU id)}; the average is a last object with \"average\": true.\n";

enum watch_what { WATCH_CPU, WATCH_IRQ, WATCH_SOFTIRQ };

struct watch {
	enum watch_what what;
	uint64_t interval_ns;
	uint64_t count, printed;
	uint32_t top;
	bool done;
	bool percpu;			/* irq or softirq: mpstat -I's table */
	struct sample_copy base;
	struct sample_copy first;	/* percpu: where the average starts */
	uint64_t averaged;		/* intervals printed since @first */
	uint64_t prev_ns;		/* the sample before the latest */
	uint32_t generation;		/* of the names below */
	struct irq_labels names;
};

/* With -t, the local time for the time column, as mpstat's; else NULL. */
static const char *time_column(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!opts.timestamp || !localtime_r(&now, &tm))
		return NULL;
	strftime(buf, len, "%H:%M:%S", &tm);
	return buf;
}

/* mpstat -I's table of the rates from @b to @s, lines led by @lead. */
static void print_percpu(const struct watch *w, const struct kstat_sample *s,
			 const struct kstat_sample *b, double secs,
			 const char *lead)
{
	if (w->what == WATCH_IRQ)
		print_irq_percpu_rates(s, b, &w->names, secs, lead);
	else
		print_softirq_percpu_rates(s, b, secs, lead);
}

/*
 * mpstat's "Average:" table when watch ends: from the first sample to
 * the last printed (the baseline now).  Led by "Average:" in the time
 * column with -t, by a line of its own without.
 */
static void print_average(const struct watch *w)
{
	const struct kstat_sample *s = &w->base.s, *b = &w->first.s;

	if (!w->percpu || !w->averaged || !w->first.valid || !w->base.valid)
		return;
	new_json_obj(opts.json, opts.pretty);
	open_json_object(NULL);
	print_bool(PRINT_JSON, "average", NULL, true);
	print_u64(PRINT_JSON, "timestamp_ns", NULL, s->timestamp_ns);
	print_u64(PRINT_JSON, "interval_ns", NULL, s->timestamp_ns - b->timestamp_ns);
	if (!opts.timestamp)
		print_string(PRINT_FP, NULL, "%s\n", "Average:");
	print_percpu(w, s, b, (s->timestamp_ns - b->timestamp_ns) / 1e9,
		     opts.timestamp ? "Average:" : NULL);
	close_json_object();
	delete_json_obj();
	fflush(stdout);
}

static void on_sample(const struct kstat_sample *s, void *arg)
{
	struct watch *w = arg;
	const struct kstat_sample *b = &w->base.s;
	char lead[16];
	double secs;
	bool due;

	/* One dispatch may deliver more than "count" needs: drop them. */
	if (w->done)
		return;
	/* The IRQ set changed: rather no names than the old set's. */
	if (w->what == WATCH_IRQ &&
	    (!w->names.s || s->generation != w->generation)) {
		irq_labels_free(&w->names);
		irq_labels_load(&w->names);
		w->generation = s->generation;
	}
	if (!w->base.valid) {		/* the first sample */
		sample_copy(&w->base, s);
		if (w->percpu) {
			sample_copy(&w->first, s);
			w->averaged = 0;
		}
		w->prev_ns = s->timestamp_ns;
		return;
	}
	/* The rule of kstat top too (rates.h); rates divide by the real time. */
	due = frame_due(b->timestamp_ns, w->prev_ns, s->timestamp_ns,
			w->interval_ns);
	w->prev_ns = s->timestamp_ns;
	if (!due)
		return;

	secs = (s->timestamp_ns - b->timestamp_ns) / 1e9;
	new_json_obj(opts.json, opts.pretty);
	open_json_object(NULL);
	if (!w->percpu)		/* its time is a column */
		print_timestamp_line();
	print_u64(PRINT_JSON, "timestamp_ns", NULL, s->timestamp_ns);
	print_u64(PRINT_JSON, "interval_ns", NULL, s->timestamp_ns - b->timestamp_ns);
	if (w->percpu) {
		print_percpu(w, s, b, secs, time_column(lead, sizeof(lead)));
		w->averaged++;
	} else if (w->what == WATCH_CPU) {
		print_cpu_rates(s, b, false);
	} else if (w->what == WATCH_IRQ) {
		struct irq_rate *r;
		size_t nr = irq_rates(s, b, &w->names, IRQ_SORT_RATE, &r);

		print_irq_rates(r, nr, w->top, secs);
		free(r);
	} else {
		print_softirq_rates(s, b, secs);
	}
	close_json_object();
	delete_json_obj();
	if (!opts.json)
		putchar('\n');
	sample_copy(&w->base, s);
	if (w->count && ++w->printed >= w->count)
		w->done = true;
}

static void on_lost(uint64_t lost, enum kstat_lost_reason why, void *arg)
{
	struct watch *w = arg;

	if (w->done)
		return;
	/* Samples are whole: a rate spans a loss, except a reload's. */
	if (why == KSTAT_LOST_RELOAD)
		w->base.valid = false;	/* and the average starts again */
	print_lost(lost, why, false);
}

/* Said on screen; the rates start over once samples come again. */
static void on_family(int present, void *arg)
{
	struct watch *w = arg;

	if (w->done)
		return;
	w->base.valid = false;
	irq_labels_free(&w->names);
	kstat_handle_drop();
	print_family_event(present);
}

/* The words of watch, in the order of enum watch_what first. */
static const char *const watch_words[] = {
	"cpu", "irq", "softirq", "interval", "count", "top", "help", "percpu",
	NULL
};
enum { W_INTERVAL = 3, W_COUNT, W_TOP, W_HELP, W_PERCPU };

/* A count or a row limit: 1 to 2^32 - 1. */
static int watch_number(const char *what, const char *s, uint64_t *out)
{
	char why[EXPLAIN_LEN];
	int err = parse_uint(s, 1, UINT32_MAX, out);

	if (!err)
		return EXIT_OK;
	return usage_err("watch", "bad %s \"%s\" (%s)", what, s,
			 uint_explain(why, sizeof(why), err, 1, UINT32_MAX));
}

static int watch_parse(struct watch *w, int argc, char **argv)
{
	char why[EXPLAIN_LEN];
	uint64_t v;
	int a = 0, m, err;

	if (a < argc) {
		m = word_match(watch_words, argv[a]);
		if (m == MATCH_AMBIGUOUS)
			return usage_err("watch", "ambiguous argument \"%s\"", argv[a]);
		if (m >= 0 && m <= WATCH_SOFTIRQ)
			w->what = m, a++;
	}
	/* cpu is per CPU already */
	if (a < argc && w->what != WATCH_CPU &&
	    word_match(watch_words, argv[a]) == W_PERCPU)
		w->percpu = true, a++;
	for (; a < argc; a += 2) {
		m = word_match(watch_words, argv[a]);
		if (m < W_INTERVAL || m > W_TOP)
			return usage_err("watch", "unexpected argument \"%s\"", argv[a]);
		if (a + 1 >= argc)
			return usage_err("watch", "\"%s\" needs a value", argv[a]);
		if (m == W_INTERVAL) {
			err = parse_duration(argv[a + 1], &frame_length, &w->interval_ns);
			if (err)
				return usage_err("watch", "bad interval \"%s\" (%s)", argv[a + 1],
						 duration_explain(why, sizeof(why), err, &frame_length));
		} else if (watch_number(watch_words[m], argv[a + 1], &v)) {
			return EXIT_USAGE;
		} else if (m == W_COUNT) {
			w->count = v;
		} else {
			w->top = (uint32_t)v;
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
	static const uint32_t sections[] = {
		[WATCH_CPU] = KSTAT_SECTION_CPU, [WATCH_IRQ] = KSTAT_SECTION_IRQ,
		[WATCH_SOFTIRQ] = KSTAT_SECTION_SOFTIRQ,
	};
	struct kstat_sub_opts so = KSTAT_SUB_OPTS_INIT;
	struct sub_run_opts o = { .ops = &ops, .arg = &w, .done = &w.done,
				  .sub = &so };
	int ret;

	if (argc && word_match(watch_words, argv[0]) == W_HELP)
		return show_help("watch", watch_usage, argc - 1);
	ret = watch_parse(&w, argc, argv);
	if (ret)
		return ret;
	/* samples at our interval, of what we show: no more, no fewer */
	sub_own_at(&so, w.interval_ns, sections[w.what],
		   w.what == WATCH_CPU || w.percpu);
	ret = sub_run(&o);
	if (ret == EXIT_OK)
		print_average(&w);
	irq_labels_free(&w.names);
	sample_copy_free(&w.base);
	sample_copy_free(&w.first);
	return ret;
}
