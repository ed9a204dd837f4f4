/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One printer per object, after iproute2 (ip/ipmonitor.c hands each event
 * to the print_*() that "show" uses): CPU times, IRQs, softirqs, arch
 * rows and the intr sum.  Every command that shows one of these objects
 * (show, monitor, watch, top -b) prints it through the function here, so
 * its JSON keys and shapes are the same everywhere; what differs between
 * views is only the text layout, which the view passes in as a struct
 * *_cols of printf formats (see json_print.h: a NULL format prints the
 * value in JSON only).  The label helpers serve top's libsmartcols
 * screen and the exporter's Prometheus labels too.
 *
 * Objects are read from a struct kstat_sample (a GET's answer, a
 * subscription's sample or a struct sample_copy's), whose per-CPU counts
 * are sparse lists: printed as arrays "percpu" indexed by CPU id, of
 * sample_cpu_span() entries, a CPU not listed 0.
 */
#ifndef KSTAT_CLI_PRINT_H
#define KSTAT_CLI_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libkstat.h>

#include "json_print.h"
#include "utils.h"

/*
 * How many CPU ids a per-CPU array of @s spans: every possible CPU
 * (/sys/devices/system/cpu/possible), and every online one of @s.
 */
uint32_t sample_cpu_span(const struct kstat_sample *s);

/* Does @s carry per-CPU detail (then an absent per-CPU list is all zeros)? */
bool sample_has_percpu(const struct kstat_sample *s);

/*
 * An arch row with one count for all CPUs and none per CPU (x86's ERR
 * and MIS), which the kernel sends without a per-CPU record.
 */
bool arch_is_global(const struct kstat_arch *a);

/* "CPU0 CPU1 ..." right-aligned in columns of @width (text only). */
void print_cpu_labels(uint32_t nr, int width);
/*
 * Array "percpu": the count of each CPU id below @nr_cpus from the sparse
 * list @v of @nr (sorted by CPU), 0 where it has none; text columns of
 * @width.
 */
void print_percpu(enum output_type t, const struct kstat_cpu_count *v,
		  uint32_t nr, uint32_t nr_cpus, int width);

/* ---- CPU times (nanoseconds in JSON; text in seconds or ns) ---- */

struct cpu_cols {
	int cpu;			/* text widths */
	int ns[KSTAT_CPUTIME_NR];
};

/* The unit of CPU times in text; JSON keeps nanoseconds in both. */
enum cputime_unit {
	CPUTIME_SECS,	/* "user(s)": seconds with two decimals */
	CPUTIME_NS,	/* "user": the kernel's nanoseconds */
};

/*
 * An array @key (NULL inside an array or at the top) of one object per
 * CPU of @s, then with @total the total's, whose "cpu" is null; in text
 * a header and a row each, in widths that fit them, in seconds.  @text
 * false: JSON only (monitor, whose text line summarises instead).
 */
void print_cputimes(const char *key, const struct kstat_sample *s,
		    bool total, bool text);
/* The same with the text in @unit. */
void print_cputimes_in(const char *key, const struct kstat_sample *s,
		       bool total, bool text, enum cputime_unit unit);

/* ---- IRQs ---- */

/* The flow handler's name, else "level" or "edge". */
const char *irq_type(const struct kstat_irq *q);
/*
 * The actions, each escaped by name_esc_next()'s rule, joined by @sep; ""
 * without any (malloc'd; NULL: no memory).
 */
char *irq_actions_join(const struct kstat_irq *q, const char *sep);
/* strcmp() of the actions joined by ",", without joining them. */
int irq_actions_cmp(const struct kstat_irq *a, const struct kstat_irq *b);

/*
 * The columns of `irq show -o`, in the default table's order; their names
 * (irq_col_names) are the text headings, PERCPU standing for CPU0 CPU1 ...
 */
enum irq_col {
	IRQ_COL_IRQ, IRQ_COL_COUNT, IRQ_COL_PERCPU, IRQ_COL_CHIP,
	IRQ_COL_HWIRQ, IRQ_COL_TYPE, IRQ_COL_ACTIONS, IRQ_COL_NR
};

struct irq_col_list {
	enum irq_col c[IRQ_COL_NR];	/* each at most once */
	size_t nr;
};

/*
 * What a view shows of an IRQ and how its text lays it out.  The JSON
 * object is {irq[, rate], count[, percpu][, chip, hwirq, type, actions]}
 * in every view: rate with @rate, percpu with @percpu, the labels with
 * @labels.
 */
struct irq_cols {
	enum output_type t;		/* PRINT_ANY, or PRINT_JSON only */
	bool rate, percpu, labels;
	bool detail;			/* text: the HWIRQ and TYPE columns */
	bool state;			/* "state" (kstat run's deltas) */
	int irq, rate_w, count, cpu, chip, hwirq, type;	/* text widths */
	const char *count_head;		/* "COUNT" or "TOTAL" */
	const char *chip_lead;		/* " " or "  " */
	const char *actions_sep;	/* text: ", " or "," */
	const char *no_actions;		/* text: "-" or "" */
	uint32_t nr_cpus;		/* per-CPU columns, from CPU 0 */
	/*
	 * show: these columns in this order, text and JSON keys alike
	 * (show -o changes them); nr 0: the view's fixed layout.
	 */
	struct irq_col_list cols;
	int actions;			/* text width of ACTIONS (show) */
	bool no_header;			/* show -n: no headings */
};

/*
 * The comma-separated column names of -o @list (any case) into @l: 0, or
 * -1 with why in @err (without "kstat: ").
 */
int irq_col_list_parse(struct irq_col_list *l, const char *list, char *err,
		       size_t len);
bool irq_col_list_has(const struct irq_col_list *l, enum irq_col c);

/* show's layout: widths that fit @s's IRQs, per-CPU columns with @percpu. */
void irq_cols_show(struct irq_cols *w, const struct kstat_sample *s,
		   bool percpu);
/* watch's and top -b's layout: fixed widths, a rate, chip and actions. */
void irq_cols_rates(struct irq_cols *w);
/* JSON only, counts and per-CPU counts if @s has them, no labels (monitor). */
void irq_cols_json(struct irq_cols *w, const struct kstat_sample *s);

void print_irq_header(const struct irq_cols *w);
/*
 * An IRQ's labels alone, inside its object: chip, hwirq, type, actions;
 * all null / none without @l (a recording's identity lines).
 */
void print_irq_labels(const struct kstat_irq *l, const struct irq_cols *w);
/*
 * One IRQ: counts from @q, labels (chip, hwirq, type, actions) from
 * @label (NULL: unknown, printed as null / none), @rate per second.
 */
void print_irq(const struct kstat_irq *q, const struct kstat_irq *label,
	       double rate, const struct irq_cols *w);

/*
 * The same with "state" (w->state): "same", "new" or "gone"; a gone
 * IRQ's counts are unknown, null in JSON and "-" in text.
 */
void print_irq_state(const struct kstat_irq *q, const struct kstat_irq *label,
		     const char *state, const struct irq_cols *w);

/* ---- softirqs ---- */

/*
 * What a view shows of a vector and how its text lays it out; the JSON
 * object is {name[, rate], count[, percpu]} in every view.
 */
struct softirq_cols {
	enum output_type t;		/* PRINT_ANY, or PRINT_JSON only */
	bool rate, percpu;
	bool line;			/* text: all vectors on one line (top) */
	char name_fmt[COL_FMT_LEN], rate_fmt[COL_FMT_LEN];
	char count_fmt[COL_FMT_LEN];	/* "": the count in JSON only */
	int name, rate_w, count, cpu;	/* text widths */
	uint32_t nr_cpus;		/* per-CPU columns, from CPU 0 */
};

/* show's layout: widths that fit @s's vectors, per-CPU columns with @percpu. */
void softirq_cols_show(struct softirq_cols *w, const struct kstat_sample *s,
		       bool percpu);
/* watch's table: NAME RATE/s TOTAL. */
void softirq_cols_rates(struct softirq_cols *w);
/* top's line: "SOFTIRQ/s NAME RATE NAME RATE ...". */
void softirq_cols_line(struct softirq_cols *w);
/* JSON only, per-CPU counts if @s has them, no rate (monitor). */
void softirq_cols_json(struct softirq_cols *w, const struct kstat_sample *s);

void print_softirq_header(const struct softirq_cols *w);
void print_softirq(const struct kstat_softirq *v, double rate,
		   const struct softirq_cols *w);

/* ---- arch rows, the intr sum ---- */

/*
 * {name, count[, percpu]}, percpu over @nr_cpus when not 0 (JSON only:
 * the /proc printers have their own).
 */
void print_arch(const struct kstat_arch *a, uint32_t nr_cpus);
/* "intr": the /proc/stat intr total; " intr N" in text. */
void print_intr(uint64_t sum);

#endif /* KSTAT_CLI_PRINT_H */
