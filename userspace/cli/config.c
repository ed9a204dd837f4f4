// SPDX-License-Identifier: GPL-2.0
/*
 * kstat config, kstat stats: the default stream's configuration, the
 * limits, and the sample producer's own telemetry.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "kstat.h"
#include "print.h"

static const char config_usage[] =
	"Usage: kstat config [ show ]\n"
	"       kstat config set [ interval TIME ] [ batch N ]\n"
	"                        [ sections SECTION[,SECTION...] ] [ percpu { on | off } ]\n"
	"                        [ netns { on | off } ] [ min-interval TIME ]\n"
	"                        [ max-subscriptions N ]\n"
	"       kstat config help\n";
/* ... then "where  SECTION := { ... }" from the section table, then: */
static const char config_usage_text[] =
	"\n"
	"The default stream, the samples the kernel multicasts to its readers\n"
	"(kstat monitor without interval, sections or percpu; kstat top without\n"
	"delay or percpu): a sample every interval (TIME with a unit: 250ms, 2s,\n"
	"1m; a bare number is milliseconds; 10ms to 60s), batch samples sent\n"
	"together, the sections a sample carries, and whether it carries\n"
	"per-CPU detail.\n"
	"Subscriptions of a reader's own (kstat monitor interval ..., watch, top\n"
	"-d, export) keep theirs.  netns on answers in every network namespace,\n"
	"not the initial one only.  \"set\" needs CAP_NET_ADMIN and applies\n"
	"from the next sample on.  The limits hold readers without\n"
	"CAP_NET_ADMIN: the shortest interval they may ask of a subscription of\n"
	"their own (min-interval) and the subscriptions per user\n"
	"(max-subscriptions).  JSON keys: interval_ms, batch, sections (an array\n"
	"of names), percpu, netns (true/false), limits: {min_interval_ms,\n"
	"max_subscriptions}.\n";

/* "sections cpu,irq" in text, ["cpu","irq"] in JSON. */
static void print_sections(uint32_t sections)
{
	bool first = true;
	size_t i;

	print_string(PRINT_FP, NULL, " sections", NULL);
	open_json_array("sections");
	for (i = 0; i < CLI_NR_SECTIONS; i++) {
		if (!(sections & cli_sections[i]->bit))
			continue;
		print_string(PRINT_ANY, NULL, first ? " %s" : ",%s",
			     cli_sections[i]->name);
		first = false;
	}
	close_json_array();
}

/* {interval_ms, batch, sections, percpu, netns, limits} */
static void print_config(const struct kstat_config *c,
			 const struct kstat_limits *l)
{
	open_json_object(NULL);
	print_uint(PRINT_ANY, "interval_ms", "interval_ms %u", c->interval_ms);
	print_uint(PRINT_ANY, "batch", " batch %u", c->batch);
	print_sections(c->sections);
	/* as "config set" spells them */
	print_bool(PRINT_JSON, "percpu", NULL, c->percpu);
	print_string(PRINT_FP, NULL, " percpu %s", c->percpu ? "on" : "off");
	print_bool(PRINT_JSON, "netns", NULL, c->netns);
	print_string(PRINT_FP, NULL, " netns %s", c->netns ? "on" : "off");
	open_json_object("limits");
	print_uint(PRINT_ANY, "min_interval_ms", "\nlimits min_interval_ms %u",
		   l->min_interval_ms);
	print_uint(PRINT_ANY, "max_subscriptions", " max_subscriptions %u",
		   l->max_subscriptions);
	close_json_object();
	close_json_object();
	print_nl();
}

/*
 * The words of "sections" into @words, NULL-terminated, and their bits
 * into @bits: the sections that have a bit, in the table's order, then
 * "all".  Both arrays have room for every section and "all".
 */
static void section_words(const char **words, uint32_t *bits)
{
	size_t i, n = 0;

	for (i = 0; i < CLI_NR_SECTIONS; i++) {
		if (!cli_sections[i]->bit)
			continue;
		bits[n] = cli_sections[i]->bit;
		words[n++] = cli_sections[i]->name;
	}
	bits[n] = cli_sections_all();
	words[n] = "all";
	words[n + 1] = NULL;
}

int parse_sections(const char *arg, uint32_t *out)
{
	const char *words[CLI_NR_SECTIONS + 2];
	uint32_t bits[CLI_NR_SECTIONS + 1];
	char buf[64], *tok, *save = NULL;
	int w;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	section_words(words, bits);
	*out = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		w = word_match(words, tok);
		if (w < 0)
			return -1;
		*out |= bits[w];
	}
	return *out ? 0 : -1;
}

static int config_show(int argc, char **argv)
{
	struct kstat_handle *h;
	struct kstat_config c;
	struct kstat_limits l;

	if (argc)
		return usage_err("config", "unexpected argument \"%s\"", argv[0]);
	h = kstat_handle();
	if (!h)
		return EXIT_FAIL;
	if (kstat_config_get(h, &c))
		return kernel_err("cannot read the configuration");
	if (kstat_limits_get(h, &l))
		return kernel_err("cannot read the limits");
	print_config(&c, &l);
	return EXIT_OK;
}

/*
 * The sampling interval: bare milliseconds, as the kernel takes it.  The
 * kernel judges its range (10ms to 60s); the CLI only what fits its u32.
 */
const struct duration_spec summary_interval = {
	.step_ns = MSEC_NS,
	.min_ns = 0, .max_ns = UINT32_MAX * MSEC_NS,
};

/* The words of config set, in the order of their bits below. */
static const char *const set_words[] = {
	"interval", "batch", "sections", "percpu", "netns",
	"min-interval", "max-subscriptions", NULL
};
enum { S_INTERVAL, S_BATCH, S_SECTIONS, S_PERCPU, S_NETNS, S_MIN_INTERVAL,
       S_MAX_SUBSCRIPTIONS };

/* The value of setting @w into @c or @l; EXIT_USAGE after the message. */
static int config_set_one(int w, const char *val, struct kstat_config *c,
			  struct kstat_limits *l)
{
	static const char *const onoff[] = { "on", "off", NULL };
	char why[EXPLAIN_LEN];
	uint64_t v;
	int err;

	switch (w) {
	case S_INTERVAL:
	case S_MIN_INTERVAL:
		err = parse_duration(val, &summary_interval, &v);
		if (err)
			return usage_err("config", "bad %s \"%s\" (%s)", set_words[w], val,
					 duration_explain(why, sizeof(why), err, &summary_interval));
		*(w == S_INTERVAL ? &c->interval_ms : &l->min_interval_ms) =
			(uint32_t)(v / MSEC_NS);
		return EXIT_OK;
	case S_SECTIONS:
		if (parse_sections(val, &c->sections))
			return usage_err("config", "bad sections \"%s\"", val);
		return EXIT_OK;
	case S_PERCPU:
	case S_NETNS:
		err = word_match(onoff, val);
		if (err < 0)
			return usage_err("config", "%s is \"on\" or \"off\", not \"%s\"",
					 set_words[w], val);
		*(w == S_PERCPU ? &c->percpu : &c->netns) = err == 0;
		return EXIT_OK;
	default:	/* a u32: the kernel judges */
		err = parse_uint(val, 0, UINT32_MAX, &v);
		if (err)
			return usage_err("config", "bad %s \"%s\" (%s)", set_words[w], val,
					 uint_explain(why, sizeof(why), err, 0, UINT32_MAX));
		*(w == S_BATCH ? &c->batch : &l->max_subscriptions) = (uint32_t)v;
		return EXIT_OK;
	}
}

static int config_set(int argc, char **argv)
{
	/* the bits of each word, in the library's enums */
	static const unsigned int bits[] = {
		[S_INTERVAL] = KSTAT_CONFIG_INTERVAL,
		[S_BATCH] = KSTAT_CONFIG_BATCH,
		[S_SECTIONS] = KSTAT_CONFIG_SECTIONS,
		[S_PERCPU] = KSTAT_CONFIG_PERCPU,
		[S_NETNS] = KSTAT_CONFIG_NETNS,
		[S_MIN_INTERVAL] = KSTAT_LIMITS_MIN_INTERVAL,
		[S_MAX_SUBSCRIPTIONS] = KSTAT_LIMITS_MAX_SUBSCRIPTIONS,
	};
	const char *what = "cannot change the configuration";
	unsigned int fields = 0, lfields = 0;
	struct kstat_config c = { 0 };
	struct kstat_limits l = { 0 };
	struct kstat_handle *h;
	int a, w, err = 0;

	if (!argc)
		return usage_err("config", "\"set\" needs at least one setting");
	for (a = 0; a < argc; a += 2) {
		w = word_match(set_words, argv[a]);
		if (w < 0)
			return usage_err("config", "%s setting \"%s\"",
					 w == MATCH_AMBIGUOUS ? "ambiguous" : "unknown",
					 argv[a]);
		if (a + 1 >= argc)
			return usage_err("config", "\"%s\" needs a value", argv[a]);
		if (config_set_one(w, argv[a + 1], &c, &l))
			return EXIT_USAGE;
		if (w < S_MIN_INTERVAL)
			fields |= bits[w];
		else
			lfields |= bits[w];
	}
	h = kstat_handle();
	if (!h)
		return EXIT_FAIL;
	if (fields)
		err = kstat_config_set(h, &c, fields);
	if (!err && lfields) {
		what = "cannot change the limits";
		err = kstat_limits_set(h, &l, lfields);
	}
	if (err == -EPERM) {
		kstat_err("%s: it needs CAP_NET_ADMIN (run as root)", what);
		return EXIT_FAIL;
	}
	return err ? kernel_err(what) : EXIT_OK;
}

static int config_help(int argc, char **argv)
{
	const char *words[CLI_NR_SECTIONS + 2];
	uint32_t bits[CLI_NR_SECTIONS + 1];
	size_t i;

	(void)argv;
	if (argc)
		return usage_err("config", "\"help\" takes no arguments");
	section_words(words, bits);
	fputs(config_usage, stdout);
	fputs("where  SECTION := {", stdout);
	for (i = 0; words[i]; i++)
		printf("%s %s", i ? " |" : "", words[i]);
	fputs(" }\n", stdout);
	fputs(config_usage_text, stdout);
	return EXIT_OK;
}

static const struct cmd config_cmds[] = {
	{ "show", config_show, NULL },	/* first: the default */
	{ "set", config_set, NULL },
	{ "help", config_help, NULL },
	{ NULL, NULL, NULL }
};

int do_config(int argc, char **argv)
{
	return cmd_dispatch("config", config_cmds, argc, argv);
}

/* ---- kstat stats ---- */

static const char stats_usage[] =
	"Usage: kstat stats [ show ]\n"
	"       kstat stats help\n"
	"\n"
	"The sample producer's own telemetry: its ticks (each one reading of\n"
	"the counters, shared by every reader due at it), their whole and\n"
	"longest time (reading, encoding, sending), the samples, messages and\n"
	"bytes sent, the messages some reader missed (its socket was full), the\n"
	"allocation failures, the subscriptions of readers' own, the producer's\n"
	"tick interval, the generation, and whether it runs and the default\n"
	"stream has listeners.  Text: one \"key value\" line each.  JSON keys:\n"
	"ticks, tick_ns_total, tick_ns_max, samples, messages, bytes,\n"
	"delivery_failures, alloc_failures, subscriptions, interval_ms,\n"
	"generation, running, listening.\n";

/* The u64 counters of struct kstat_stats, in print order. */
#define STAT(f) { #f, offsetof(struct kstat_stats, f) }
static const struct {
	const char *key;
	size_t off;
} counters[] = {
	STAT(ticks), STAT(tick_ns_total), STAT(tick_ns_max), STAT(samples),
	STAT(messages), STAT(bytes), STAT(delivery_failures),
	STAT(alloc_failures),
};

static int stats_show(int argc, char **argv)
{
	struct kstat_handle *h;
	struct kstat_stats s;
	char fmt[64];
	size_t i;

	if (argc)
		return usage_err("stats", "unexpected argument \"%s\"", argv[0]);
	h = kstat_handle();
	if (!h)
		return EXIT_FAIL;
	if (kstat_stats_get(h, &s))
		return kernel_err("cannot read the producer's statistics");

	open_json_object(NULL);
	for (i = 0; i < ARRAY_SIZE(counters); i++) {
		snprintf(fmt, sizeof(fmt), "%s %%" PRIu64 "\n", counters[i].key);
		print_u64(PRINT_ANY, counters[i].key, fmt,
			  *(const uint64_t *)((const char *)&s + counters[i].off));
	}
	print_uint(PRINT_ANY, "subscriptions", "subscriptions %u\n", s.subscriptions);
	print_uint(PRINT_ANY, "interval_ms", "interval_ms %u\n", s.interval_ms);
	print_uint(PRINT_ANY, "generation", "generation %u\n", s.generation);
	print_bool(PRINT_ANY, "running", "running %s\n", s.running);
	print_bool(PRINT_ANY, "listening", "listening %s", s.listening);
	close_json_object();
	print_nl();
	return EXIT_OK;
}

static int stats_help(int argc, char **argv)
{
	(void)argv;
	return show_help("stats", stats_usage, argc);
}

static const struct cmd stats_cmds[] = {
	{ "show", stats_show, NULL },
	{ "help", stats_help, NULL },
	{ NULL, NULL, NULL }
};

int do_stats(int argc, char **argv)
{
	return cmd_dispatch("stats", stats_cmds, argc, argv);
}
