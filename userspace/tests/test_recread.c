// SPDX-License-Identifier: GPL-2.0
/*
 * The recording reader (cli/recread.c) on small hand-written recordings,
 * tests/fixtures/rec-*.jsonl and run-*.json: the header, the identity
 * line's descriptions in each sample, a sample read into a struct
 * kstat_sample the printers read (sparse per-CPU lists, the total, the
 * online CPUs), loss, family and end lines, two segments, a sample kept
 * past the reader; a cut-short last line (no newline, or not JSON) read
 * as such, a bad line elsewhere an error naming FILE:LINE, a greater
 * format version refused naming it, no header refused; a `kstat -j run`
 * object read into its delta sample with its IRQs' states.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "../cli/recread.h"

static char fixture[PATH_MAX + 64];

/* tests/fixtures/NAME, beside the test's tree ($KSTAT_FIXTURES: elsewhere) */
static const char *fx(const char *name)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (getenv("KSTAT_FIXTURES")) {
		snprintf(fixture, sizeof(fixture), "%s/%s",
			 getenv("KSTAT_FIXTURES"), name);
		return fixture;
	}
	if (n <= 0) {
		snprintf(fixture, sizeof(fixture), "tests/fixtures/%s", name);
		return fixture;
	}
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(fixture, sizeof(fixture), "%s/../../tests/fixtures/%s", exe, name);
	return fixture;
}

/* Every event of @name, kinds into @kinds (as letters); the last return. */
static int kinds_of(const char *name, char *kinds, size_t len, char *err,
		    size_t err_len)
{
	static const char letter[] = "HISLFECO";
	struct rec_reader *r;
	struct rec_event ev;
	size_t n = 0;
	int ret;

	ret = rec_open(fx(name), &r);
	while (ret == 0 && (ret = rec_next(r, &ev)) > 0 && n + 1 < len) {
		kinds[n++] = letter[ev.kind];
		ret = 0;
	}
	kinds[n] = '\0';
	snprintf(err, err_len, "%s", rec_error(r));
	rec_close(r);
	return ret;
}

static void test_sample(const struct kstat_sample *s)
{
	const struct kstat_irq *q;
	const struct kstat_arch *a;
	const struct kstat_softirq *v;

	CHECK(s->sections == (KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ |
			      KSTAT_SECTION_SOFTIRQ), "sample: all three sections");
	CHECK(s->flags == (KSTAT_F_PERCPU | KSTAT_F_META), "sample: percpu and meta flags");
	CHECK(s->seq == 0 && s->from_get && s->timestamp_ns == 82000000000ULL &&
	      s->generation == 7, "sample: seq, from_get, timestamp, generation");
	CHECK(s->nr_cpus == 2 && kstat_sample_cpu(s, 1)->cpu == 1 &&
	      kstat_sample_cpu(s, 0)->ns[KSTAT_CPUTIME_USER] == 10,
	      "sample: a row per CPU");
	CHECK(s->cpu_total && s->cpu_total->cpu == -1 &&
	      s->cpu_total->ns[KSTAT_CPUTIME_USER] == 30, "sample: the total");
	CHECK(kstat_cpu_is_online(s, 0) && kstat_cpu_is_online(s, 1) &&
	      !kstat_cpu_is_online(s, 2), "sample: online CPUs from the cpu rows");
	CHECK(s->nr_irqs == 3 && s->irq_size == sizeof(struct kstat_irq),
	      "sample: three IRQs");
	q = kstat_sample_find_irq(s, 25);
	CHECK(q && q->count == 105 && q->nr_percpu == 2 &&
	      q->percpu[0].cpu == 0 && q->percpu[0].count == 100 &&
	      q->percpu[1].cpu == 1 && q->percpu[1].count == 5,
	      "sample: IRQ 25's count and per-CPU list");
	CHECK(q && q->has_meta && !strcmp(q->chip, "PCI-MSI") && q->has_hwirq &&
	      q->hwirq == 524288 && !strcmp(q->name, "edge") &&
	      q->nr_actions == 2 && !strcmp(q->actions[0], "eth0") &&
	      !strcmp(q->actions[1], "eth0-rx"),
	      "sample: IRQ 25's description from the identity line");
	q = kstat_sample_find_irq(s, 0);
	CHECK(q && q->nr_percpu == 1 && q->percpu[0].cpu == 0,
	      "sample: zeros left out of a per-CPU list");
	q = kstat_sample_find_irq(s, 9);
	CHECK(q && q->has_meta && !q->has_hwirq && !q->nr_actions && !q->percpu &&
	      !strcmp(q->name, "fasteoi"),
	      "sample: IRQ 9 without hwirq, actions or counts");
	CHECK(s->nr_arch == 2, "sample: two arch rows");
	a = kstat_sample_arch(s, 1);
	CHECK(!strcmp(a->name, "LOC") && a->count == 3000 && a->nr_percpu == 2 &&
	      a->desc && !strcmp(a->desc, "Local timer interrupts"),
	      "sample: LOC with its description from the identity line");
	CHECK(s->intr_sum == 138, "sample: intr");
	CHECK(s->kernel_nr_irqs == 0, "sample: no nr_irqs without one in the identity line or header");
	CHECK(s->nr_softirqs == 2, "sample: two softirqs");
	v = kstat_sample_softirq(s, 1);
	CHECK(!strcmp(v->name, "TIMER") && v->vec == 1 && v->count == 47 &&
	      v->nr_percpu == 2 && v->percpu[1].count == 7,
	      "sample: TIMER and its per-CPU list");
}

static void test_segments(void)
{
	const struct kstat_sample *kept = NULL;
	unsigned int samples = 0, seg2 = 0;
	struct rec_reader *r;
	struct rec_event ev;
	char kinds[64];
	size_t n = 0;
	int ret;

	ret = rec_open(fx("rec-segments.jsonl"), &r);
	CHECK(ret == 0, "open rec-segments.jsonl (%s)", rec_error(r));
	while (!ret && (ret = rec_next(r, &ev)) > 0) {
		ret = 0;
		kinds[n++] = "HISLFECO"[ev.kind];
		if (ev.kind == REC_HEADER && ev.header->segment == 1) {
			CHECK(ev.line == 1 && ev.header->version == 1 &&
			      !strcmp(ev.header->host, "node1") &&
			      !strcmp(ev.header->kernel, "6.1.0-28-amd64") &&
			      !strcmp(ev.header->machine, "x86_64") &&
			      ev.header->nr_cpus == 2 && ev.header->interval_ms == 1000 &&
			      ev.header->realtime_offset_ns == 1733380000000000000LL &&
			      ev.header->percpu && ev.header->sections == 7 &&
			      ev.header->nr_command == 2 &&
			      !strcmp(ev.header->command[1], "-j4"),
			      "header: every field");
		}
		if (ev.kind == REC_HEADER && ev.header->segment == 2)
			CHECK(ev.line == 9 && !ev.header->command &&
			      ev.header->interval_ms == 500,
			      "second header: segment 2, line 9, command null");
		if (ev.kind == REC_IDENTITY)
			CHECK(ev.generation == (ev.header->segment == 1 ? 7u : 9u),
			      "identity: generation %u", ev.generation);
		if (ev.kind == REC_SAMPLE && !samples++) {
			test_sample(ev.sample);
			kept = rec_sample_take(r);
		}
		if (ev.kind == REC_SAMPLE && ev.header->segment == 2 && !seg2)
			CHECK(ev.sample->generation == 10 &&
			      kstat_sample_find_irq(ev.sample, 25)->has_meta &&
			      !strcmp(kstat_sample_find_irq(ev.sample, 25)->chip, "PCI-MSI") &&
			      ev.sample->kernel_nr_irqs == 1024,
			      "segment 2: the identity line before names the IRQs of a sample of a later generation, and gives nr_irqs");
		if (ev.kind == REC_SAMPLE && ev.header->segment == 2)
			seg2++;
		if (ev.kind == REC_LOST)
			CHECK(ev.lost.lost == 2 && !strcmp(ev.lost.reason, "overrun") &&
			      !ev.lost.reload, "lost: 2, overrun");
		if (ev.kind == REC_FAMILY)
			CHECK(!ev.family.present && ev.family.timestamp_ns == 87000000000ULL,
			      "family: gone");
		if (ev.kind == REC_END)
			CHECK(ev.end.samples == 3 && ev.end.lost == 2 &&
			      ev.end.has_status && ev.end.status == 0 &&
			      !ev.end.has_signal && ev.end.timestamp_ns == 88000000000ULL,
			      "end: samples, lost, status, no signal");
	}
	kinds[n] = '\0';
	CHECK(ret == 0 && !strcmp(kinds, "HISSLSFEHISS"),
	      "rec-segments.jsonl: every line's kind in order (%s)", kinds);
	CHECK(seg2 == 2, "two samples in segment 2");
	CHECK(rec_ended(r) && !rec_cut_short(r), "ended, not cut short");
	rec_close(r);
	/* the kept sample outlives the reader, descriptions and header too */
	CHECK(kept && kstat_sample_find_irq(kept, 25)->actions[1][0] == 'e' &&
	      rec_sample_header(kept)->nr_cpus == 2 &&
	      !strcmp(kstat_sample_arch(kept, 1)->desc, "Local timer interrupts"),
	      "a taken sample outlives rec_close()");
	rec_sample_free(kept);
}

static void test_errors(void)
{
	char kinds[64], err[512];
	int ret;

	ret = kinds_of("rec-cut.jsonl", kinds, sizeof(kinds), err, sizeof(err));
	CHECK(ret == 0 && !strcmp(kinds, "HISC"),
	      "last line without a newline: cut short, not an error (%s)", kinds);
	ret = kinds_of("rec-cut-line.jsonl", kinds, sizeof(kinds), err, sizeof(err));
	CHECK(ret == 0 && !strcmp(kinds, "HISC"),
	      "last line not JSON: cut short, not an error (%s)", kinds);
	ret = kinds_of("rec-bad-line.jsonl", kinds, sizeof(kinds), err, sizeof(err));
	CHECK(ret == -EINVAL && !strcmp(kinds, "HIS") &&
	      strstr(err, "rec-bad-line.jsonl:4: not a JSON object"),
	      "a bad line before the last: an error naming FILE:LINE (%s)", err);
	ret = kinds_of("rec-version.jsonl", kinds, sizeof(kinds), err, sizeof(err));
	CHECK(ret == -EPROTO && !kinds[0] &&
	      strstr(err, "rec-version.jsonl:1: recording format version 2 is newer"),
	      "format version 2: refused, naming it (%s)", err);
	ret = kinds_of("rec-no-header.jsonl", kinds, sizeof(kinds), err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, ":1: not a kstat recording"),
	      "no header first: refused (%s)", err);
	ret = kinds_of("no-such-file.jsonl", kinds, sizeof(kinds), err, sizeof(err));
	CHECK(ret == -ENOENT && strstr(err, "No such file"),
	      "a missing file: -ENOENT (%s)", err);
}

static void test_run(void)
{
	const struct kstat_sample *d;
	const struct kstat_irq *q;
	struct rec_run *run;
	char err[256];
	int ret;

	ret = rec_run_read(fx("run-basic.json"), &run, err, sizeof(err));
	CHECK(ret == 0, "read run-basic.json (%s)", ret ? err : "");
	if (ret)
		return;
	d = run->delta;
	CHECK(run->nr_command == 2 && !strcmp(run->command[0], "sleep") &&
	      run->has_status && !run->status && !run->has_signal &&
	      run->start_ns == 1000 && run->end_ns == 2000001000ULL &&
	      run->nr_cpus == 2 && run->percpu && !strcmp(run->host, "node1"),
	      "run: command, status, times, host");
	CHECK(d->nr_cpus == 1 && kstat_sample_cpu(d, 0)->cpu == 1 &&
	      d->cpu_total && d->cpu_total->ns[KSTAT_CPUTIME_USER] == 900,
	      "run: the CPU rows that changed and the total");
	CHECK(d->nr_irqs == 3 && run->irq_state[0] == REC_IRQ_SAME &&
	      run->irq_state[1] == REC_IRQ_NEW && run->irq_state[2] == REC_IRQ_GONE,
	      "run: IRQ rows with their states");
	q = kstat_sample_irq(d, 0);
	CHECK(q->irq == 25 && q->count == 12 && q->has_meta &&
	      !strcmp(q->chip, "PCI-MSI") && q->nr_actions == 1 &&
	      q->nr_percpu == 1 && q->percpu[0].cpu == 1,
	      "run: IRQ 25's change and its description from its row");
	q = kstat_sample_irq(d, 2);
	CHECK(q->irq == 31 && q->count == 0 && !strcmp(q->actions[0], "irqsim0"),
	      "run: a gone IRQ, count null");
	CHECK(d->nr_arch == 1 && !strcmp(kstat_sample_arch(d, 0)->desc,
					 "Local timer interrupts"),
	      "run: arch row with its desc");
	CHECK(d->nr_softirqs == 1 && kstat_sample_softirq(d, 0)->count == 7,
	      "run: softirq row");
	CHECK(rec_file_type(fx("run-basic.json"), err, sizeof(err)) == REC_FILE_RUN &&
	      rec_file_type(fx("rec-segments.jsonl"), err, sizeof(err)) == REC_FILE_RECORDING &&
	      rec_file_type(fx("rec-no-header.jsonl"), err, sizeof(err)) == REC_FILE_UNKNOWN,
	      "rec_file_type tells recordings from run outputs");
	rec_run_free(run);
	ret = rec_run_read(fx("rec-segments.jsonl"), &run, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "rec-segments.jsonl: "),
	      "a recording is not a run output (%s)", err);
}

int main(void)
{
	test_segments();
	test_errors();
	test_run();
	return unit_exit();
}
