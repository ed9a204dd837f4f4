// SPDX-License-Identifier: GPL-2.0
/*
 * kstat compare: the counters of two sets of runs, side by side, in the
 * manner of LKP's compare: each counter's mean and spread per side and
 * the change of the means, the most significant first.  The inputs are
 * read by recread.c; the arithmetic is cmpstat.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "kstat.h"
#include "print.h"
#include "recread.h"

static const char compare_usage[] =
	"Usage: kstat compare FILE... -- FILE... [ threshold N ]\n"
	"       kstat compare help\n"
	"\n"
	"Compares the runs of side A (the files before \"--\") with those of\n"
	"side B (after it).  A FILE is a recording (kstat record, kstat run -o:\n"
	"each segment is a run, its last sample less its first) or the output\n"
	"of kstat -j run (one run).  For every counter: the mean over the\n"
	"side's runs, the sample standard deviation as a % of the mean (\"±\"),\n"
	"and the change of B's mean against A's in %; the rows are sorted by\n"
	"significance (the change in units of the two sides' pooled standard\n"
	"deviation), then by the size of the change.\n"
	"\n"
	"Counters are named as LKP's parse steps name them, but without the\n"
	"IRQ's number: IRQs are matched by identity (chip, hwirq, type,\n"
	"actions), so runs from two boots, kernels or hosts compare:\n"
	"  interrupts.PCI-MSI_524288-edge_eth0        an IRQ's total\n"
	"  interrupts.CPU3.PCI-MSI_524288-edge_eth0   on one CPU (with percpu)\n"
	"  interrupts.LOC:Local_timer_interrupts      an arch row (and CPUn.)\n"
	"  softirqs.TIMER, softirqs.CPU3.TIMER\n"
	"  cputime.user, cputime.CPU3.user           nanoseconds\n"
	"A run lists only what changed, so a counter a run lacks is 0 in it; a\n"
	"counter no run of one side has is shown as on the other side only\n"
	"(\"-\" for the side without it).  An IRQ that went during a run\n"
	"(\"gone\") has no count there.\n"
	"\n"
	"threshold N hides the counters whose means differ by less than N\n"
	"(absolute).  LKP reports changes of interrupt counts only above\n"
	"10,000: \"threshold 10000\" is that choice.\n"
	"\n"
	"Text: a table  A ±%stddev  %change  B ±%stddev  NAME.  JSON (-j): one\n"
	"object: \"a\" and \"b\" ({\"runs\", \"files\"}), \"threshold\", \"counters\"\n"
	"(an array of {\"name\", \"a\" and \"b\" ({\"mean\", \"stddev_pct\"}, or\n"
	"null when that side lacks it), \"change\", \"change_pct\" (null when\n"
	"A's mean is 0), \"significance\" (null when the change has no spread\n"
	"to compare with: infinitely significant)}).\n";

struct compare {
	char **files[2];
	unsigned int nr_files[2];
	double threshold;
	struct cmp_set set;
};

/* ---- the inputs ---- */

/* One segment's first and last sample, if it has two: one run. */
static int segment_done(struct compare *c, unsigned int side,
			const struct kstat_sample **first,
			const struct kstat_sample **last)
{
	struct kstat_delta d;
	int err = 0;

	if (*first && *last) {
		err = delta_compute(&d, *first, *last,
				    rec_sample_header(*last)->nr_cpus);
		if (!err) {
			cmp_run_begin(&c->set, side);
			cmp_add_delta(&c->set, side, &d);
			delta_free(&d);
		}
	}
	rec_sample_free(*first);
	rec_sample_free(*last);
	*first = *last = NULL;
	return err;
}

static int read_recording(struct compare *c, unsigned int side,
			  const char *path)
{
	const struct kstat_sample *first = NULL, *last = NULL;
	unsigned int runs = c->set.runs[side];
	struct rec_reader *r;
	struct rec_event ev;
	int ret;

	ret = rec_open(path, &r);
	while (ret >= 0 && (ret = rec_next(r, &ev)) > 0) {
		/* never subtract across a new header or a module reload */
		if (ev.kind == REC_HEADER || ev.kind == REC_FAMILY ||
		    (ev.kind == REC_LOST && ev.lost.reload))
			ret = segment_done(c, side, &first, &last);
		if (ev.kind != REC_SAMPLE)
			continue;
		if (!first) {
			first = rec_sample_take(r);
		} else {
			rec_sample_free(last);
			last = rec_sample_take(r);
		}
	}
	if (ret < 0) {
		kstat_err("%s", ret == -ENOMEM ? "out of memory" : rec_error(r));
		rec_sample_free(first);
		rec_sample_free(last);
	} else if (segment_done(c, side, &first, &last)) {
		kstat_err("out of memory");
		ret = -ENOMEM;
	}
	rec_close(r);
	if (ret >= 0 && runs == c->set.runs[side]) {
		kstat_err("%s: no segment with two samples to subtract: "
			  "give a recording of at least two samples", path);
		ret = -EINVAL;
	}
	return ret < 0 ? EXIT_FAIL : EXIT_OK;
}

static int read_run(struct compare *c, unsigned int side, const char *path)
{
	struct rec_run *run;
	char err[512];
	bool *gone;
	size_t i, n;

	if (rec_run_read(path, &run, err, sizeof(err))) {
		kstat_err("%s", err);
		return EXIT_FAIL;
	}
	n = run->delta->nr_irqs;
	gone = calloc(n + 1, sizeof(*gone));
	if (!gone) {
		rec_run_free(run);
		kstat_err("out of memory");
		return EXIT_FAIL;
	}
	for (i = 0; i < n; i++)
		gone[i] = run->irq_state[i] == REC_IRQ_GONE;
	cmp_run_begin(&c->set, side);
	cmp_add_sample(&c->set, side, run->delta, gone);
	free(gone);
	rec_run_free(run);
	return EXIT_OK;
}

static int read_input(struct compare *c, unsigned int side, const char *path)
{
	char err[512];
	int type = rec_file_type(path, err, sizeof(err));

	if (type < 0) {
		kstat_err("%s", err);
		return EXIT_FAIL;
	}
	if (type == REC_FILE_RECORDING)
		return read_recording(c, side, path);
	if (type == REC_FILE_RUN)
		return read_run(c, side, path);
	kstat_err("%s: neither a recording nor kstat -j run output: "
		  "give files of kstat record, kstat run -o or kstat -j run", path);
	return EXIT_FAIL;
}

/* ---- the command line ---- */

/* "A... -- B... [threshold N]" into @c; EXIT_USAGE after the message. */
static int compare_parse(int argc, char **argv, struct compare *c)
{
	char why[EXPLAIN_LEN];
	unsigned int side = CMP_A;
	uint64_t v;
	int a, err;

	for (a = 0; a < argc; a++) {
		if (!strcmp(argv[a], "--") && side == CMP_A) {
			side = CMP_B;
		} else if (!strcmp(argv[a], "threshold")) {
			if (a + 1 >= argc)
				return usage_err("compare", "\"threshold\" needs a value");
			err = parse_uint(argv[++a], 0, UINT64_MAX, &v);
			if (err)
				return usage_err("compare", "bad threshold \"%s\" (%s)",
						 argv[a], uint_explain(why, sizeof(why), err,
								       0, UINT64_MAX));
			c->threshold = (double)v;
		} else {
			c->files[side][c->nr_files[side]++] = argv[a];
		}
	}
	if (side == CMP_A)
		return usage_err("compare", "no \"--\" between the two sides (kstat compare A... -- B...)");
	if (!c->nr_files[CMP_A] || !c->nr_files[CMP_B])
		return usage_err("compare", "side %s has no files", c->nr_files[CMP_A] ? "B" : "A");
	return EXIT_OK;
}

/* ---- the output ---- */

static void print_side_info(const struct compare *c, unsigned int side)
{
	unsigned int i;

	open_json_object(side == CMP_A ? "a" : "b");
	print_string(PRINT_FP, NULL, "%s:", side == CMP_A ? "A" : "B");
	print_uint(PRINT_ANY, "runs", " %u run(s) from", c->set.runs[side]);
	open_json_array("files");
	for (i = 0; i < c->nr_files[side]; i++)
		print_string(PRINT_ANY, NULL, " %s", c->files[side][i]);
	close_json_array();
	close_json_object();
	print_nl();
}

static void print_side(const struct cmp_row *r, unsigned int side)
{
	const char *key = side == CMP_A ? "a" : "b";

	if (!r->present[side]) {
		print_null(PRINT_ANY, key, "%14s", "-");
		print_string(PRINT_FP, NULL, "%7s", "");
		return;
	}
	open_json_object(key);
	print_float(PRINT_ANY, "mean", "%14.0f", r->mean[side]);
	if (r->stddev_pct[side] >= 0.5)
		print_float(PRINT_ANY, "stddev_pct", " ±%4.0f%%", r->stddev_pct[side]);
	else
		print_float(PRINT_JSON, "stddev_pct", NULL, r->stddev_pct[side]);
	if (r->stddev_pct[side] < 0.5)
		print_string(PRINT_FP, NULL, "%7s", "");
	close_json_object();
}

static void print_row(const struct cmp_row *r)
{
	open_json_object(NULL);
	print_side(r, CMP_A);
	if (!r->present[CMP_A] || !r->present[CMP_B])
		print_string(PRINT_FP, NULL, "  %10s ",
			     r->present[CMP_A] ? "(A only)" : "(B only)");
	else if (isnan(r->change_pct))
		print_string(PRINT_FP, NULL, "  %10s ", "(from 0)");
	else
		print_float(PRINT_FP, NULL, "  %+9.1f%% ", r->change_pct);
	print_side(r, CMP_B);
	print_string(PRINT_ANY, "name", "  %s", r->name);
	print_float(PRINT_JSON, "change", NULL, r->change);
	print_float(PRINT_JSON, "change_pct", NULL, r->change_pct);
	print_float(PRINT_JSON, "significance", NULL, r->significance);
	close_json_object();
	print_nl();
}

static void print_compare(const struct compare *c, const struct cmp_row *rows,
			  long n)
{
	long i;

	open_json_object(NULL);
	print_side_info(c, CMP_A);
	print_side_info(c, CMP_B);
	print_float(PRINT_JSON, "threshold", NULL, c->threshold);
	print_string(PRINT_FP, NULL, "%s",
		     "\n             A  ±%stddev     %change              B  ±%stddev  NAME\n");
	open_json_array("counters");
	for (i = 0; i < n; i++)
		print_row(&rows[i]);
	close_json_array();
	close_json_object();
}

static int compare_run(int argc, char **argv)
{
	struct compare c = { 0 };
	struct cmp_row *rows = NULL;
	unsigned int side, i;
	int ret = EXIT_OK;
	long n;

	c.files[CMP_A] = calloc((size_t)argc + 1, sizeof(char *));
	c.files[CMP_B] = calloc((size_t)argc + 1, sizeof(char *));
	if (!c.files[CMP_A] || !c.files[CMP_B]) {
		kstat_err("out of memory");
		ret = EXIT_FAIL;
		goto out;
	}
	ret = compare_parse(argc, argv, &c);
	for (side = CMP_A; !ret && side <= CMP_B; side++)
		for (i = 0; !ret && i < c.nr_files[side]; i++)
			ret = read_input(&c, side, c.files[side][i]);
	if (ret)
		goto out;
	n = cmp_rows(&c.set, c.threshold, &rows);
	if (n < 0) {
		kstat_err("out of memory");
		ret = EXIT_FAIL;
		goto out;
	}
	print_compare(&c, rows, n);
out:
	free(rows);
	cmp_set_free(&c.set);
	free(c.files[CMP_A]);
	free(c.files[CMP_B]);
	return ret;
}

static int compare_help(int argc, char **argv)
{
	(void)argv;
	return show_help("compare", compare_usage, argc);
}

int do_compare(int argc, char **argv)
{
	if (argc && !strcmp(argv[0], "help"))
		return compare_help(argc - 1, argv + 1);
	return compare_run(argc, argv);
}
