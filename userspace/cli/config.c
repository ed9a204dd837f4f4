// SPDX-License-Identifier: GPL-2.0
/*
 * kstat config, kstat stats: the summary producer's configuration and its
 * own telemetry.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "kstat.h"
#include "print.h"

static const char config_usage[] =
	"Usage: kstat config [ show ]\n"
	"       kstat config set [ interval TIME ] [ batch N ] [ keyframe N ]\n"
	"                        [ sections SECTION[,SECTION...] ] [ percpu { on | off } ]\n"
	"                        [ min-interval TIME ] [ max-streams N ]\n"
	"                        [ max-members-user N ] [ max-members-net N ]\n"
	"       kstat config help\n";
/* ... then "where  SECTION := { ... }" from the section table, then: */
static const char config_usage_text[] =
	"\n"
	"The periodic summaries the kernel multicasts to subscribers of the\n"
	"default stream (kstat monitor, kstat export without --interval): a\n"
	"sample every interval (TIME in milliseconds,\n"
	"or with a unit: 250ms, 2s, 1m; 10ms to 60s), one\n"
	"notification every batch samples, a full sample every keyframe\n"
	"batches; the sections a sample carries, and whether IRQs come with\n"
	"per-CPU counts.  This is the default stream's configuration: readers\n"
	"that ask for a stream of their own (kstat monitor interval ..., watch,\n"
	"top) keep theirs.  \"set\" needs CAP_NET_ADMIN and applies from the next\n"
	"sample on.  The limits hold readers without CAP_NET_ADMIN: the shortest\n"
	"interval they may ask of a stream of their own (min-interval), the\n"
	"streams besides the default (max-streams), the members of streams of\n"
	"their own per user (max-members-user) and per network namespace\n"
	"(max-members-net).  JSON keys: interval_ms, batch, keyframe, sections\n"
	"(an array of names), percpu (true/false), limits: {min_interval_ms,\n"
	"max_streams, max_members_user, max_members_net}.\n";

void print_sections(uint32_t sections)
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

/* The members of print_config()'s object. */
static void print_config_fields(const struct kstat_config *c, const char *lead)
{
	char fmt[64];

	snprintf(fmt, sizeof(fmt), "%sinterval_ms %%u", lead);
	print_uint(PRINT_ANY, "interval_ms", fmt, c->interval_ms);
	print_uint(PRINT_ANY, "batch", " batch %u", c->batch);
	print_uint(PRINT_ANY, "keyframe", " keyframe %u", c->keyframe);
	print_sections(c->sections);
	/* as "config set" spells it */
	print_bool(PRINT_JSON, "percpu", NULL, c->percpu);
	print_string(PRINT_FP, NULL, " percpu %s", c->percpu ? "on" : "off");
}

void print_config(const char *key, const struct kstat_config *c,
		  const char *lead)
{
	open_json_object(key);
	print_config_fields(c, lead);
	close_json_object();
}

/* "limits": {...}; in text a line "limits min_interval_ms N ...". */
static void print_limits(const struct kstat_limits *l)
{
	open_json_object("limits");
	print_uint(PRINT_ANY, "min_interval_ms", "\nlimits min_interval_ms %u",
		   l->min_interval_ms);
	print_uint(PRINT_ANY, "max_streams", " max_streams %u", l->max_streams);
	print_uint(PRINT_ANY, "max_members_user", " max_members_user %u",
		   l->max_members_user);
	print_uint(PRINT_ANY, "max_members_net", " max_members_net %u",
		   l->max_members_net);
	close_json_object();
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
	bits[n] = KSTAT_SECTION_ALL;
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
	int err;

	if (argc)
		return usage_err("config", "unexpected argument \"%s\"", argv[0]);
	h = kstat_handle();
	if (!h)
		return EXIT_FAIL;
	if (kstat_config_get(h, &c))
		return kernel_err("cannot read the summary configuration");
	err = kstat_limits_get(h, &l);
	if (err && err != -EOPNOTSUPP)	/* a module without streams: none */
		return kernel_err("cannot read the limits of streams");

	open_json_object(NULL);
	print_config_fields(&c, "");
	if (!err)
		print_limits(&l);
	close_json_object();
	print_nl();
	return EXIT_OK;
}

/*
 * The sampling interval: bare milliseconds, as the kernel takes it.  The
 * kernel judges its range (10ms to 60s); the CLI only what fits its u32.
 */
const struct duration_spec summary_interval = {
	.bare_ns = MSEC_NS, .step_ns = MSEC_NS,
	.min_ns = 0, .max_ns = UINT32_MAX * MSEC_NS,
};

/* "interval": into @c; EXIT_USAGE after the message. */
static int config_set_interval(const char *val, struct kstat_config *c)
{
	char why[EXPLAIN_LEN];
	uint64_t ns;
	int err = parse_duration(val, &summary_interval, &ns);

	if (err)
		return usage_err("config", "bad interval \"%s\" (%s)", val,
				 duration_explain(why, sizeof(why), err, &summary_interval));
	c->interval_ms = (uint32_t)(ns / MSEC_NS);
	return EXIT_OK;
}

/* "batch", "keyframe", the limits' counts: a u32 (the kernel judges). */
static int config_set_u32(const char *key, const char *val, uint32_t *out)
{
	char why[EXPLAIN_LEN];
	uint64_t v;
	int err = parse_uint(val, 0, UINT32_MAX, &v);

	if (err)
		return usage_err("config", "bad %s \"%s\" (%s)", key, val,
				 uint_explain(why, sizeof(why), err, 0, UINT32_MAX));
	*out = (uint32_t)v;
	return EXIT_OK;
}

/* The limits' words, in the order of enum kstat_limits_field's bits. */
static const char *const limit_words[] = {
	"min-interval", "max-streams", "max-members-user", "max-members-net",
	NULL
};

/* Limit @w's value into @l; EXIT_USAGE after the message. */
static int config_set_limit(int w, const char *val, struct kstat_limits *l)
{
	uint32_t *counts[] = { NULL, &l->max_streams, &l->max_members_user,
			       &l->max_members_net };
	char why[EXPLAIN_LEN];
	uint64_t ns;
	int err;

	if (w)
		return config_set_u32(limit_words[w], val, counts[w]);
	err = parse_duration(val, &summary_interval, &ns);
	if (err)
		return usage_err("config", "bad min-interval \"%s\" (%s)", val,
				 duration_explain(why, sizeof(why), err, &summary_interval));
	l->min_interval_ms = (uint32_t)(ns / MSEC_NS);
	return EXIT_OK;
}

/* Send what was set: the config, then the limits; EXIT_*. */
static int config_apply(const struct kstat_config *c, unsigned int fields,
			const struct kstat_limits *l, unsigned int lfields)
{
	struct kstat_handle *h = kstat_handle();
	const char *what = "cannot change the summary configuration";
	int err = 0;

	if (!h)
		return EXIT_FAIL;
	if (fields)
		err = kstat_config_set(h, c, fields);
	if (!err && lfields) {
		what = "cannot change the limits of streams";
		err = kstat_limits_set(h, l, lfields);
	}
	if (err == -EPERM) {
		kstat_err("%s: it needs CAP_NET_ADMIN (run as root)", what);
		return EXIT_FAIL;
	}
	return err ? kernel_err(what) : EXIT_OK;
}

static int config_set(int argc, char **argv)
{
	struct kstat_config c = { 0 };
	struct kstat_limits l = { 0 };
	unsigned int fields = 0, lfields = 0;
	const char *key, *val;
	int a, w;

	if (!argc)
		return usage_err("config", "\"set\" needs at least one setting");
	for (a = 0; a < argc; a += 2) {
		key = argv[a];
		if (a + 1 >= argc)
			return usage_err("config", "\"%s\" needs a value", key);
		val = argv[a + 1];
		if (is_prefix(key, "interval")) {
			if (config_set_interval(val, &c))
				return EXIT_USAGE;
			fields |= KSTAT_CONFIG_INTERVAL;
		} else if (is_prefix(key, "batch")) {
			if (config_set_u32("batch", val, &c.batch))
				return EXIT_USAGE;
			fields |= KSTAT_CONFIG_BATCH;
		} else if (is_prefix(key, "keyframe")) {
			if (config_set_u32("keyframe", val, &c.keyframe))
				return EXIT_USAGE;
			fields |= KSTAT_CONFIG_KEYFRAME;
		} else if (is_prefix(key, "sections")) {
			if (parse_sections(val, &c.sections))
				return usage_err("config", "bad sections \"%s\"", val);
			fields |= KSTAT_CONFIG_SECTIONS;
		} else if (is_prefix(key, "percpu")) {
			static const char *const onoff[] = { "on", "off", NULL };
			w = word_match(onoff, val);
			if (w < 0)
				return usage_err("config", "percpu is \"on\" or \"off\", not \"%s\"", val);
			c.percpu = w == 0;
			fields |= KSTAT_CONFIG_PERCPU;
		} else if ((w = word_match(limit_words, key)) >= 0) {
			if (config_set_limit(w, val, &l))
				return EXIT_USAGE;
			lfields |= 1u << w;
		} else {
			return usage_err("config", "%s setting \"%s\"",
					 w == MATCH_AMBIGUOUS ? "ambiguous" : "unknown",
					 key);
		}
	}
	return config_apply(&c, fields, &l, lfields);
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
	"The summary producer's own telemetry: samples taken, summaries and\n"
	"messages sent, deliveries some subscriber missed (its socket was\n"
	"full), allocation failures, the time to build the last sample and\n"
	"the longest, the size of the last full and delta samples, the\n"
	"generation, and whether the group has listeners and the producer\n"
	"runs.  JSON keys: samples_taken, summaries_sent, messages_sent,\n"
	"delivery_failures, alloc_failures, build_ns_last, build_ns_max,\n"
	"build_ns_total,\n"
	"keyframe_bytes, delta_bytes, ticks, tick_ns_total, generation,\n"
	"listening, running.  ticks and tick_ns_total are every stream's:\n"
	"each tick reads the counters once for all the streams due at it.\n"
	"Then the streams, the default one first (id 0), each with its\n"
	"configuration, its members (sockets; 0 for the default stream, which\n"
	"multicasts), the samples and bytes it sent and the snapshots it sent\n"
	"to members that overran (resyncs): one line per stream in text, with\n"
	"-j the array \"streams\" of objects with the keys id, interval_ms,\n"
	"batch, keyframe, sections, percpu, members, samples, bytes, resyncs.\n";

/* The u64 counters of struct kstat_stats, in print order. */
#define STAT(f) { #f, offsetof(struct kstat_stats, f) }
static const struct {
	const char *key;
	size_t off;
} counters[] = {
	STAT(samples_taken), STAT(summaries_sent), STAT(messages_sent),
	STAT(delivery_failures), STAT(alloc_failures), STAT(build_ns_last),
	STAT(build_ns_max), STAT(build_ns_total), STAT(keyframe_bytes),
	STAT(delta_bytes), STAT(ticks), STAT(tick_ns_total),
};

/* One stream: a line "stream ID interval_ms ..." in text. */
static void print_stream(const struct kstat_stream *st)
{
	open_json_object(NULL);
	print_uint(PRINT_ANY, "id", "\nstream %u ", st->id);
	print_config_fields(&st->config, "");
	print_uint(PRINT_ANY, "members", " members %u", st->members);
	print_u64(PRINT_ANY, "samples", " samples %" PRIu64, st->samples);
	print_u64(PRINT_ANY, "bytes", " bytes %" PRIu64, st->bytes);
	print_u64(PRINT_ANY, "resyncs", " resyncs %" PRIu64, st->resyncs);
	close_json_object();
}

/* "streams": [...], in the stats object; nothing from an older module. */
static void print_streams(const struct kstat_stream_list *l)
{
	size_t i;

	if (!l)
		return;
	open_json_array("streams");
	for (i = 0; i < l->nr; i++)
		print_stream((const void *)((const char *)l->streams +
					    i * l->stream_size));
	close_json_array();
}

static void print_stats_fields(const struct kstat_stats *s)
{
	char fmt[64];
	size_t i;

	for (i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		snprintf(fmt, sizeof(fmt), "%s %%" PRIu64 "\n", counters[i].key);
		print_u64(PRINT_ANY, counters[i].key, fmt,
			  *(const uint64_t *)((const char *)s + counters[i].off));
	}
	print_uint(PRINT_ANY, "generation", "generation %u\n", s->generation);
	print_bool(PRINT_ANY, "listening", "listening %s\n", s->listening);
	print_bool(PRINT_ANY, "running", "running %s", s->running);
}

void print_stats(const struct kstat_stats *s)
{
	open_json_object(NULL);
	print_stats_fields(s);
	close_json_object();
	print_nl();
}

static int stats_show(int argc, char **argv)
{
	struct kstat_stream_list *l = NULL;
	struct kstat_handle *h;
	struct kstat_stats s;

	if (argc)
		return usage_err("stats", "unexpected argument \"%s\"", argv[0]);
	h = kstat_handle();
	if (!h)
		return EXIT_FAIL;
	if (kstat_stats_get(h, &s))
		return kernel_err("cannot read the summary statistics");
	if (kstat_stream_list_get(h, &l))
		return kernel_err("cannot read the streams");

	open_json_object(NULL);
	print_stats_fields(&s);
	print_streams(l);
	close_json_object();
	print_nl();
	kstat_stream_list_free(l);
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
