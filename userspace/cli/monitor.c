// SPDX-License-Identifier: GPL-2.0
/*
 * kstat monitor: print every sample as it arrives, one line each (JSON
 * Lines with -j), and every loss.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kstat.h"
#include "print.h"

static const char monitor_usage[] =
	"Usage: kstat monitor [ interval TIME ] [ sections SECTION[,SECTION...] ]\n"
	"                     [ percpu { on | off } ] [ count N ] [ rcvbuf BYTES ]\n"
	"                     [ delay TIME ]\n"
	"       kstat monitor help\n"
	"\n"
	"One line per sample, until N samples (default: until interrupted);\n"
	"with -t (kstat -t monitor) each text line starts with the local time\n"
	"it was printed, [YYYY-MM-DDTHH:MM:SS.uuuuuu].  The first sample is the\n"
	"state on joining, read by a GET (seq 0, \"from_get\"), then the kernel's.\n"
	"Without interval, sections or percpu: the default stream, at the\n"
	"configuration kstat config shows.  With any of them: a subscription of\n"
	"monitor's own (what is not given takes the default stream's value),\n"
	"which an admin's config set does not change; users without\n"
	"CAP_NET_ADMIN may not go below the floor kstat config shows\n"
	"(min_interval_ms).  SECTION is cpu, irq, softirq or all; TIME as in\n"
	"kstat config set (bare: milliseconds).\n"
	"With -j, JSON Lines: every object has \"seq\", \"timestamp_ns\"\n"
	"(CLOCK_BOOTTIME), \"received_ns\" (when it reached kstat),\n"
	"\"generation\", \"from_get\" (true on the first), then one key per\n"
	"section the sample\n"
	"carries, in this order: \"cpu\" (with percpu every online CPU, then the\n"
	"total with \"cpu\": null); \"irq\" (every IRQ, counts absolute and\n"
	"64-bit), \"arch\" and \"intr\"; \"softirq\".  Every sample is whole: a\n"
	"lost one costs only itself.  A loss is printed as {\"lost\": N,\n"
	"\"reason\": ...} (in text, a warning on stderr).  When the module is\n"
	"unloaded and loaded again: {\"event\": \"family\", \"present\":\n"
	"false|true, \"timestamp_ns\": ...} (in text, \"family kstat gone|back\"),\n"
	"then samples again, after a loss with reason \"reload\".\n"
	"rcvbuf and delay are for testing overruns: a small socket buffer and\n"
	"a pause after each read (TIME in milliseconds, or with a unit: 250ms,\n"
	"2s; at most 1h).\n";

struct monitor {
	uint64_t count;		/* stop after this many samples (0: never) */
	uint64_t seen;
	bool done;
};

/*
 * The sample's objects, in JSON only (the text line summarises instead):
 * each section the sample carries prints its own (struct cli_section),
 * through the printers of its "kstat NAME show".
 */
static void print_sample_objects(const struct kstat_sample *s)
{
	const struct cli_section *sec;
	size_t i;

	for (i = 0; i < CLI_NR_SECTIONS; i++) {
		sec = cli_sections[i];
		if ((s->sections & sec->bit) && sec->print_sample)
			sec->print_sample(s);
	}
}

void print_monitor_sample(const struct kstat_sample *s, bool json)
{
	new_json_obj(json, false);	/* one line per sample */
	open_json_object(NULL);
	print_timestamp();
	print_u64(PRINT_ANY, "seq", "seq %" PRIu64, s->seq);
	print_u64(PRINT_ANY, "timestamp_ns", " timestamp_ns %" PRIu64,
		  s->timestamp_ns);
	print_u64(PRINT_JSON, "received_ns", NULL, boottime_ns());
	print_uint(PRINT_ANY, "generation", " generation %u", s->generation);
	/* the state on joining, read by a GET */
	print_bool(PRINT_JSON, "from_get", NULL, s->from_get);
	if (s->from_get)
		print_string(PRINT_FP, NULL, " %s", "from_get");
	print_sample_objects(s);
	print_u64(PRINT_FP, NULL, " cpus %" PRIu64, s->nr_cpus);
	print_u64(PRINT_FP, NULL, " irqs %" PRIu64, s->nr_irqs);
	close_json_object();
	print_nl();
	delete_json_obj();
}

static void on_sample(const struct kstat_sample *s, void *arg)
{
	struct monitor *m = arg;

	/* One dispatch may deliver more than "count" asked for: drop them. */
	if (m->done)
		return;
	print_monitor_sample(s, opts.json);
	if (m->count && ++m->seen >= m->count)
		m->done = true;
}

static void on_lost(uint64_t lost, enum kstat_lost_reason why, void *arg)
{
	const struct monitor *m = arg;

	if (m->done)
		return;
	print_lost(lost, why, opts.json);
}

static void on_family(int present, void *arg)
{
	const struct monitor *m = arg;

	if (!m->done)
		print_family_event(present);
}

/* The words of monitor, and what each takes. */
static const char *const monitor_words[] = {
	"count", "rcvbuf", "delay", "interval", "sections", "percpu", NULL
};
enum { M_COUNT, M_RCVBUF, M_DELAY, M_INTERVAL, M_SECTIONS, M_PERCPU };
/* A pause after each read, to test overruns: bare milliseconds. */
static const struct duration_spec monitor_delay = {
	.bare_ns = MSEC_NS, .step_ns = MSEC_NS,
	.min_ns = 0, .max_ns = 3600 * SEC_NS,
};

/* The value of keyword @w into @m or @o; EXIT_USAGE after the message. */
static int monitor_arg(int w, const char *val, struct monitor *m,
		       struct sub_run_opts *o)
{
	static const char *const onoff[] = { "on", "off", NULL };
	const struct duration_spec *d = w == M_DELAY ? &monitor_delay :
					&summary_interval;
	/* SO_RCVBUF is an int */
	uint64_t v, max = w == M_COUNT ? UINT32_MAX : INT_MAX;
	struct kstat_sub_opts *so = o->sub;
	char why[EXPLAIN_LEN];
	int err;

	if (w == M_DELAY || w == M_INTERVAL) {
		err = parse_duration(val, d, &v);
		if (err)
			return usage_err("monitor", "bad %s \"%s\" (%s)",
					 monitor_words[w], val,
					 duration_explain(why, sizeof(why), err, d));
		if (w == M_DELAY) {
			o->delay_ms = (unsigned int)(v / MSEC_NS);
		} else {
			so->interval_ms = (uint32_t)(v / MSEC_NS);
			so->fields |= KSTAT_CONFIG_INTERVAL;
		}
	} else if (w == M_SECTIONS) {
		if (parse_sections(val, &so->sections))
			return usage_err("monitor", "bad sections \"%s\" (cpu, irq, softirq, all)", val);
		so->fields |= KSTAT_CONFIG_SECTIONS;
	} else if (w == M_PERCPU) {
		err = word_match(onoff, val);
		if (err < 0)
			return usage_err("monitor", "percpu is \"on\" or \"off\", not \"%s\"", val);
		so->percpu = err == 0;
		so->fields |= KSTAT_CONFIG_PERCPU;
	} else {
		err = parse_uint(val, 1, max, &v);
		if (err)
			return usage_err("monitor", "bad %s \"%s\" (%s)", monitor_words[w], val,
					 uint_explain(why, sizeof(why), err, 1, max));
		if (w == M_COUNT)
			m->count = v;
		else
			so->rcvbuf = (int)v;
	}
	return EXIT_OK;
}

static int monitor_run(int argc, char **argv)
{
	static const struct kstat_sub_ops ops = {
		.sample = on_sample,
		.lost = on_lost,
		.family = on_family,
	};
	struct kstat_sub_opts so = KSTAT_SUB_OPTS_INIT;
	struct monitor m = { 0 };
	struct sub_run_opts o = { .ops = &ops, .arg = &m, .done = &m.done,
				  .sub = &so };
	int a, w;

	for (a = 0; a < argc; a += 2) {
		w = word_match(monitor_words, argv[a]);
		if (w < 0)
			return usage_err("monitor", "unexpected argument \"%s\"",
					 argv[a]);
		if (a + 1 >= argc)
			return usage_err("monitor", "\"%s\" needs a value",
					 monitor_words[w]);
		if (monitor_arg(w, argv[a + 1], &m, &o))
			return EXIT_USAGE;
	}
	return sub_run(&o);
}

static int monitor_help(int argc, char **argv)
{
	(void)argv;
	return show_help("monitor", monitor_usage, argc);
}

int do_monitor(int argc, char **argv)
{
	if (argc && is_prefix(argv[0], "help"))
		return monitor_help(argc - 1, argv + 1);
	return monitor_run(argc, argv);
}
