// SPDX-License-Identifier: GPL-2.0
/*
 * kstat report: a recording (docs/record-format.md) read back, through
 * recread.c, as
 * - proc: each sample's /proc/interrupts and /proc/softirqs text after a
 *   "time: EPOCH" line, as LKP's interrupts and softirqs monitors write
 *   them (procfmt.c's printers, the ones of kstat interrupts);
 * - lkp: the names LKP's parse step makes of those files, each sample's
 *   after a "time: EPOCH" line;
 * - text, json: what the recording is and what changed between the first
 *   and the last sample of each segment (delta.c, kstat run's printer).
 * Samples are printed as they are read: a recording may be larger than
 * memory.  A bad line stops the report with an error after what came
 * before it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "delta.h"
#include "kstat.h"
#include "print.h"
#include "procfmt.h"
#include "recread.h"

static const char report_usage[] =
	"Usage: kstat report FILE [ format { text | json | lkp | proc } ]\n"
	"                         [ sections SECTION[,SECTION...] ]\n"
	"       kstat report help\n"
	"\n"
	"Read a recording of kstat record or kstat run -o (JSON Lines,\n"
	"docs/record-format.md; FILE \"-\": stdin).\n"
	"\n"
	"text (the default; json with -j or format json): the recording's\n"
	"header (host, kernel, CPUs, interval, sections), its samples, losses\n"
	"and segments (each kstat record ... append starts one), and for each\n"
	"segment what changed from its first sample to its last, as kstat run\n"
	"prints it: CPU time per CPU, IRQs, arch rows and softirqs that moved,\n"
	"largest first, with per-CPU columns when recorded with percpu; IRQs\n"
	"that came or went (by chip, hwirq and actions) have the STATE new or\n"
	"gone.  No count is subtracted across segments or a module reload.\n"
	"\n"
	"proc: for each sample a line \"time: EPOCH\" (its wall-clock second, as\n"
	"date +%s prints it) and then the /proc/interrupts text of that moment,\n"
	"as kstat interrupts prints it (with sections softirq: /proc/softirqs;\n"
	"with sections irq,softirq: both, interrupts first, after the same time\n"
	"line), so that what reads LKP's interrupts and softirqs monitor files\n"
	"reads it unchanged.\n"
	"\n"
	"lkp: for each sample a line \"time: EPOCH\", then the names LKP's parse\n"
	"step makes of that /proc text: CPU<n>.<IRQ>:<DESC>: N for each online\n"
	"CPU and <IRQ>:<DESC>: N (the sum of those) for each line of\n"
	"/proc/interrupts, where DESC is the words after the per-CPU counts\n"
	"joined by \"_\" (CPU0.LOC:Local_timer_interrupts: 5); with sections\n"
	"softirq, CPU<n>.<NAME>: N and <NAME>: N.\n"
	"\n"
	"proc and lkp need per-CPU detail: a recording made without percpu is\n"
	"refused.  SECTION is irq or softirq there (default irq); a section the\n"
	"recording lacks is an error.  Neither has a JSON form.\n"
	"A recording that ends without its end line, or with a partial last\n"
	"line, was cut short (its recorder was killed): its samples are read\n"
	"and a note says so.  A bad line elsewhere is an error naming\n"
	"FILE:LINE; a recording of a newer format version is refused.\n";

enum report_format { FMT_TEXT, FMT_JSON, FMT_LKP, FMT_PROC };

struct report {
	const char *file;
	enum report_format fmt;
	uint32_t sections;	/* lkp, proc: KSTAT_SECTION_IRQ / _SOFTIRQ */
	bool sections_given;
};

/* ---- shared: the per-sample formats ---- */

/* The sample's wall-clock second, as LKP's monitors' date +%s. */
static uint64_t sample_epoch(const struct rec_header *h,
			     const struct kstat_sample *s)
{
	return (uint64_t)((int64_t)s->timestamp_ns + h->realtime_offset_ns) /
	       SEC_NS;
}

/* Can the segment of @h give proc or lkp what they print?  Else say why. */
static int check_header(const struct report *rp, const struct rec_header *h)
{
	static const char *const names[] = { "cpu", "irq", "softirq" };
	uint32_t missing = rp->sections & ~h->sections;
	int i;

	if (!h->percpu) {
		kstat_err("%s: recorded without per-CPU detail (segment %u, line %lu): format %s prints per-CPU counts; record with percpu",
			  rp->file, h->segment, h->line,
			  rp->fmt == FMT_LKP ? "lkp" : "proc");
		return EXIT_FAIL;
	}
	for (i = 0; i < 3; i++)
		if (missing & (1u << i)) {
			kstat_err("%s: recorded without the %s section (segment %u, line %lu): record with sections %s",
				  rp->file, names[i], h->segment, h->line, names[i]);
			return EXIT_FAIL;
		}
	return EXIT_OK;
}

/* The width of the IRQ column: the kernel's, or guessed from the IRQs. */
static int irq_prec(const struct kstat_sample *s)
{
	uint32_t nr = s->kernel_nr_irqs;

	if (!nr && s->nr_irqs)
		nr = kstat_sample_irq(s, s->nr_irqs - 1)->irq + 1;
	return proc_interrupts_prec(nr);
}

static void proc_sample(const struct report *rp, const struct rec_header *h,
			const struct kstat_sample *s)
{
	printf("time: %" PRIu64 "\n", sample_epoch(h, s));
	if (rp->sections & KSTAT_SECTION_IRQ)
		proc_print_interrupts(s, irq_prec(s));
	if (rp->sections & KSTAT_SECTION_SOFTIRQ)
		proc_print_softirqs(s, h->nr_cpus);
}

/*
 * "CPU<n>.<name>: N" for each CPU of @cpus (online ones, or all below
 * @nr_cpus), then "<name>: SUM".
 */
static void lkp_row(const char *name, const struct kstat_sample *s,
		    const struct kstat_cpu_count *v, uint32_t nr,
		    uint32_t nr_cpus, bool online)
{
	uint64_t sum = 0;
	uint32_t c, n;

	for (c = 0; c < nr_cpus; c++) {
		if (online && !kstat_cpu_is_online(s, c))
			continue;
		n = kstat_percpu_at(v, nr, c);
		printf("CPU%u.%s: %u\n", c, name, n);
		sum += n;
	}
	printf("%s: %" PRIu64 "\n", name, sum);
}

/* @text's words joined by "_", after "<prefix>:": LKP's name of a line. */
static char *lkp_name(const char *prefix, const char *text)
{
	size_t len = strlen(prefix) + strlen(text) + 2, at;
	char *name = malloc(len), *copy = strdup(text), *w, *save;

	if (!name || !copy) {
		free(name);
		free(copy);
		return NULL;
	}
	at = (size_t)snprintf(name, len, "%s:", prefix);
	for (w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		at += (size_t)snprintf(name + at, len - at, "%s%s",
				       name[at - 1] == ':' ? "" : "_", w);
	free(copy);
	return name;
}

/* The IRQ's description as /proc/interrupts prints it (procfmt.c). */
static char *irq_desc_text(const struct kstat_irq *q, int prec)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	proc_print_irq_desc(f, q, prec);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int lkp_interrupts(const struct kstat_sample *s, uint32_t span)
{
	const struct kstat_arch *a;
	const struct kstat_irq *q;
	char num[16], *desc, *name;
	int prec = irq_prec(s);
	size_t i;

	for (i = 0; i < s->nr_irqs; i++) {
		q = kstat_sample_irq(s, i);
		if (!proc_irq_shown(s, q))
			continue;
		snprintf(num, sizeof(num), "%u", q->irq);
		desc = irq_desc_text(q, prec);
		name = desc ? lkp_name(num, desc) : NULL;
		free(desc);
		if (!name)
			return -ENOMEM;
		lkp_row(name, s, q->percpu, q->nr_percpu, span, true);
		free(name);
	}
	for (i = 0; i < s->nr_arch; i++) {
		a = kstat_sample_arch(s, i);
		if (!proc_arch_shown(s, a))
			continue;
		if (arch_is_global(a)) {	/* one count, no CPUs */
			printf("%s: %" PRIu64 "\n", a->name, a->count);
			continue;
		}
		name = lkp_name(a->name, a->desc ? a->desc : "");
		if (!name)
			return -ENOMEM;
		lkp_row(name, s, a->percpu, a->nr_percpu, span, true);
		free(name);
	}
	return 0;
}

static int lkp_sample(const struct report *rp, const struct rec_header *h,
		      const struct kstat_sample *s)
{
	const struct kstat_softirq *v;
	uint32_t span = h->nr_cpus;
	size_t i;

	printf("time: %" PRIu64 "\n", sample_epoch(h, s));
	for (i = 0; i < s->online_len * 8; i++)
		if (kstat_cpu_is_online(s, (unsigned int)i) && i + 1 > span)
			span = (uint32_t)i + 1;
	if ((rp->sections & KSTAT_SECTION_IRQ) && lkp_interrupts(s, span))
		return -ENOMEM;
	for (i = 0; (rp->sections & KSTAT_SECTION_SOFTIRQ) && i < s->nr_softirqs; i++) {
		v = kstat_sample_softirq(s, i);
		lkp_row(v->name, s, v->percpu, v->nr_percpu, h->nr_cpus, false);
	}
	return 0;
}

/* ---- text and json: the summary ---- */

/* What changed in one segment (or the part of one after a reload). */
struct span {
	const struct rec_header *h;	/* the first sample's */
	const struct kstat_sample *first, *last;	/* taken */
	uint64_t samples, lost;
	unsigned long line;		/* of the first sample */
	bool after_reload;
};

/*
 * What changed from the span's first sample to its last, through
 * delta.c, kstat run's printer: IRQs matched by identity, a STATE column
 * for the ones that came or went.  -ENOMEM, or 0.
 */
static int print_changes(const struct span *sp)
{
	struct kstat_delta d;

	if (delta_compute(&d, sp->first, sp->last, sp->h->nr_cpus))
		return -ENOMEM;
	print_string(PRINT_FP, NULL, "%s", "\n");
	print_delta(&d);
	delta_free(&d);
	return 0;
}

static const char *sections_text(uint32_t bits, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", bits & KSTAT_SECTION_CPU ? ",cpu" : "",
		 bits & KSTAT_SECTION_IRQ ? ",irq" : "",
		 bits & KSTAT_SECTION_SOFTIRQ ? ",softirq" : "");
	return buf[0] ? buf + 1 : "none";
}

static void print_header_fields(const struct rec_header *h)
{
	char buf[64];
	size_t i;

	print_string(PRINT_ANY, "host", "host %s", h->host ? h->host : "?");
	print_string(PRINT_ANY, "kernel", ", kernel %s", h->kernel ? h->kernel : "?");
	print_string(PRINT_ANY, "machine", " (%s)", h->machine ? h->machine : "?");
	print_uint(PRINT_ANY, "nr_cpus", ", %u CPUs", h->nr_cpus);
	if (h->interval_ms >= 0)
		print_u64(PRINT_ANY, "interval_ms", ", interval %" PRIu64 "ms",
			  (uint64_t)h->interval_ms);
	else
		print_null(PRINT_ANY, "interval_ms", ", %s", "no interval");
	print_string(PRINT_FP, NULL, ", sections %s",
		     sections_text(h->sections, buf, sizeof(buf)));
	open_json_array("sections");
	if (h->sections & KSTAT_SECTION_CPU)
		print_string(PRINT_JSON, NULL, NULL, "cpu");
	if (h->sections & KSTAT_SECTION_IRQ)
		print_string(PRINT_JSON, NULL, NULL, "irq");
	if (h->sections & KSTAT_SECTION_SOFTIRQ)
		print_string(PRINT_JSON, NULL, NULL, "softirq");
	close_json_array();
	print_bool(PRINT_JSON, "percpu", NULL, h->percpu);
	if (h->percpu)
		print_string(PRINT_FP, NULL, "%s", ", percpu");
	if (!h->command) {
		print_null(PRINT_JSON, "command", NULL, NULL);
		return;
	}
	print_string(PRINT_FP, NULL, "%s", ", command:");
	open_json_array("command");
	for (i = 0; i < h->nr_command; i++)
		print_string(PRINT_ANY, NULL, " %s", h->command[i]);
	close_json_array();
}

static int print_span(const struct span *sp)
{
	int ret = 0;

	open_json_object(NULL);
	print_uint(PRINT_ANY, "segment", "\nsegment %u", sp->h->segment);
	print_u64(PRINT_ANY, "line", " (line %" PRIu64 ")", sp->h->line);
	print_bool(PRINT_JSON, "after_reload", NULL, sp->after_reload);
	if (sp->after_reload)
		print_u64(PRINT_FP, NULL, ", after the module's reload at line %" PRIu64,
			  sp->line);
	print_string(PRINT_FP, NULL, "%s", ": ");
	print_header_fields(sp->h);
	print_nl();
	print_u64(PRINT_ANY, "samples", "%" PRIu64 " samples", sp->samples);
	print_u64(PRINT_ANY, "lost", ", %" PRIu64 " lost", sp->lost);
	print_u64(PRINT_ANY, "first_ns", ", from %" PRIu64 " ns",
		  sp->first->timestamp_ns);
	print_u64(PRINT_ANY, "last_ns", " to %" PRIu64 " ns (CLOCK_BOOTTIME)",
		  sp->last->timestamp_ns);
	print_nl();
	if (sp->first != sp->last)
		ret = print_changes(sp);
	else
		print_string(PRINT_FP, NULL, "%s\n",
			     "one sample: no changes to show");
	close_json_object();
	return ret;
}

/* The spans of a recording, printed once all of it was read. */
struct summary {
	struct span *spans;
	size_t nr, cap;
	uint64_t samples, lost, segments;
};

static void summary_free(struct summary *sm)
{
	size_t i;

	for (i = 0; i < sm->nr; i++) {
		if (sm->spans[i].last != sm->spans[i].first)
			rec_sample_free(sm->spans[i].last);
		rec_sample_free(sm->spans[i].first);
	}
	free(sm->spans);
}

/* A new span (a header, a reload): -ENOMEM or 0. */
static int span_start(struct summary *sm, bool after_reload)
{
	if (sm->nr && !sm->spans[sm->nr - 1].first)
		sm->nr--;	/* no sample: nothing to show */
	if (!grow_array((void **)&sm->spans, &sm->cap, sm->nr + 1,
			sizeof(*sm->spans)))
		return -ENOMEM;
	sm->spans[sm->nr++] = (struct span){ .after_reload = after_reload };
	return 0;
}

/* The sample of @ev: the span's first, or its last so far. */
static void span_sample(struct summary *sm, struct rec_reader *r,
			const struct rec_event *ev)
{
	const struct kstat_sample *s = rec_sample_take(r);
	struct span *sp = &sm->spans[sm->nr - 1];

	if (!sp->first) {
		sp->first = s;
		sp->h = rec_sample_header(s);
		sp->line = ev->line;
	} else if (sp->last != sp->first) {
		rec_sample_free(sp->last);
	}
	sp->last = s;
	sp->samples++;
	sm->samples++;
}

/* Every line into @sm: 0, or -errno (rec_error() says why). */
static int summary_read(struct summary *sm, struct rec_reader *r)
{
	struct rec_event ev;
	int ret;

	while ((ret = rec_next(r, &ev)) > 0) {
		if (ev.kind == REC_HEADER) {
			sm->segments++;
			ret = span_start(sm, false);
		} else if (ev.kind == REC_SAMPLE) {
			span_sample(sm, r, &ev);
		} else if (ev.kind == REC_LOST) {
			sm->lost += ev.lost.lost;
			sm->spans[sm->nr - 1].lost += ev.lost.lost;
			/* counts restarted: never subtract across */
			if (ev.lost.reload)
				ret = span_start(sm, true);
		}
		if (ret < 0)
			return ret;
	}
	if (sm->nr && !sm->spans[sm->nr - 1].first)
		sm->nr--;
	return ret;
}

static int summary(const struct report *rp, struct rec_reader *r)
{
	struct summary sm = { 0 };
	size_t i;
	int ret;

	ret = summary_read(&sm, r);
	if (ret < 0) {
		summary_free(&sm);
		kstat_err("%s", ret == -ENOMEM && !rec_error(r)[0] ?
			  "out of memory" : rec_error(r));
		return EXIT_FAIL;
	}
	open_json_object(NULL);
	print_string(PRINT_ANY, "file", "kstat recording %s\n", rp->file);
	open_json_array("segments");
	for (i = 0; !ret && i < sm.nr; i++)
		ret = print_span(&sm.spans[i]);
	close_json_array();
	print_u64(PRINT_ANY, "nr_segments", "\n%" PRIu64 " segments", sm.segments);
	print_u64(PRINT_ANY, "samples", ", %" PRIu64 " samples", sm.samples);
	print_u64(PRINT_ANY, "lost", ", %" PRIu64 " lost", sm.lost);
	print_bool(PRINT_JSON, "ended", NULL, rec_ended(r));
	print_bool(PRINT_JSON, "cut_short", NULL, rec_cut_short(r));
	print_string(PRINT_FP, NULL, ", %s\n", rec_cut_short(r) ?
		     "cut short (its last line was partial)" : rec_ended(r) ?
		     "ended cleanly" : "cut short (no end line)");
	close_json_object();
	summary_free(&sm);
	if (ret) {
		kstat_err("out of memory");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* ---- the command ---- */

static int per_sample(const struct report *rp, struct rec_reader *r)
{
	struct rec_event ev;
	int ret;

	while ((ret = rec_next(r, &ev)) > 0) {
		if (ev.kind == REC_HEADER && check_header(rp, ev.header))
			return EXIT_FAIL;
		if (ev.kind != REC_SAMPLE)
			continue;
		if (!sample_has_percpu(ev.sample)) {
			kstat_err("%s:%lu: a sample without per-CPU detail: format %s prints per-CPU counts",
				  rp->file, ev.line, rp->fmt == FMT_LKP ? "lkp" : "proc");
			return EXIT_FAIL;
		}
		if (rp->fmt == FMT_PROC)
			proc_sample(rp, ev.header, ev.sample);
		else if (lkp_sample(rp, ev.header, ev.sample))
			ret = -ENOMEM;
		if (ret < 0)
			break;
	}
	if (ret == -ENOMEM && !rec_error(r)[0]) {
		kstat_err("out of memory");
		return EXIT_FAIL;
	}
	if (ret < 0) {
		kstat_err("%s", rec_error(r));
		return EXIT_FAIL;
	}
	if (!rec_ended(r))
		fprintf(stderr, "kstat: note: %s was cut short (%s): its samples are all above\n",
			rp->file, rec_cut_short(r) ? "its last line was partial" :
			"no end line");
	return EXIT_OK;
}

static int report_args(struct report *rp, int argc, char **argv)
{
	static const char *const words[] = { "format", "sections", NULL };
	static const char *const formats[] = { "text", "json", "lkp", "proc", NULL };
	int a, w;

	rp->fmt = opts.json ? FMT_JSON : FMT_TEXT;
	rp->sections = KSTAT_SECTION_IRQ;
	for (a = 1; a < argc; a += 2) {
		w = word_match(words, argv[a]);
		if (w < 0)
			return usage_err("report", "unexpected argument \"%s\"", argv[a]);
		if (a + 1 >= argc)
			return usage_err("report", "\"%s\" needs a value", words[w]);
		if (w == 0) {
			int f = word_match(formats, argv[a + 1]);

			if (f < 0)
				return usage_err("report", "bad format \"%s\" (text, json, lkp, proc)",
						 argv[a + 1]);
			rp->fmt = (enum report_format)f;
		} else if (parse_sections(argv[a + 1], &rp->sections) ||
			   (rp->sections & KSTAT_SECTION_CPU)) {
			return usage_err("report", "bad sections \"%s\" (irq, softirq or irq,softirq)",
					 argv[a + 1]);
		} else {
			rp->sections_given = true;
		}
	}
	if (rp->fmt == FMT_TEXT && opts.json)
		return usage_err("report", "format text and -j disagree: give one of them");
	if ((rp->fmt == FMT_LKP || rp->fmt == FMT_PROC) && opts.json)
		return usage_err("report", "format %s is text by definition: it has no JSON output",
				 rp->fmt == FMT_LKP ? "lkp" : "proc");
	if (rp->sections_given && rp->fmt != FMT_LKP && rp->fmt != FMT_PROC)
		return usage_err("report", "sections is for format lkp and proc: text and json summarise every section");
	return EXIT_OK;
}

static int report_run(int argc, char **argv)
{
	struct report rp = { 0 };
	struct rec_reader *r;
	int ret;

	if (!argc || !*argv[0])
		return usage_err("report", "which recording? (kstat report FILE)");
	rp.file = argv[0];
	ret = report_args(&rp, argc, argv);
	if (ret)
		return ret;
	if (rec_open(rp.file, &r)) {
		kstat_err("cannot open the recording: %s", rec_error(r));
		rec_close(r);
		return EXIT_FAIL;
	}
	if (rp.fmt == FMT_JSON)
		new_json_obj(true, opts.pretty);
	if (rp.fmt == FMT_LKP || rp.fmt == FMT_PROC)
		ret = per_sample(&rp, r);
	else
		ret = summary(&rp, r);
	rec_close(r);
	return ret;
}

static int report_help(int argc, char **argv)
{
	(void)argv;
	return show_help("report", report_usage, argc);
}

int do_report(int argc, char **argv)
{
	/* a recording named "help" is ./help */
	if (argc && !strcmp(argv[0], "help"))
		return report_help(argc - 1, argv + 1);
	return report_run(argc, argv);
}
