// SPDX-License-Identifier: GPL-2.0
/*
 * kstat top: a full-screen view of CPU shares, softirq and IRQ rates, like
 * util-linux's irqtop, driven by the kernel's samples (no /proc read, no
 * GET per refresh; one GET with descriptions for the names, again when the
 * generation changes).  The rates and their printers are those of kstat
 * watch (rates.c).  On the screen, the CPU and IRQ tables are laid out
 * by libsmartcols to the terminal's width (columns as wide as their data,
 * the chip and action names cut rather than the line), printed into
 * memory and drawn with ncurses, as util-linux's irqtop does.  Batch mode
 * (-b) prints each frame to stdout through the print path of watch, as
 * plain text or JSON, one frame per refresh.
 */
#include <curses.h>
#include <inttypes.h>
#include <libsmartcols.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <poll.h>

#include "irqlabels.h"
#include "json_print.h"
#include "kstat.h"
#include "print.h"
#include "rates.h"

static const char top_usage[] =
	"Usage: kstat top [ -d | delay TIME ] [ -s | sort { rate | delta |\n"
	"                 total | irq | name } ] [ -c | percpu ] [ -b | batch ]\n"
	"                 [ -n | count N ] [ -r | rows N ]\n"
	"       kstat top help\n"
	"\n"
	"A full-screen view refreshed every TIME, with a unit (250ms, 2s, 1m),\n"
	"10ms to 24h (default 1s); a bare number is milliseconds, as in every\n"
	"kstat command (for 2 seconds write 2s).  With delay or percpu it reads a\n"
	"subscription of its own at that interval (60 s at most) with every\n"
	"section; users without CAP_NET_ADMIN may not go below the floor kstat\n"
	"config shows (min_interval_ms, 250 ms by default).  Without, the\n"
	"default stream, as kstat config shows it.  It shows CPU time shares\n"
	"for all CPUs (percent, as mpstat: %usr and %nice without the guest\n"
	"time; one row per CPU with percpu or the c key, which\n"
	"takes a subscription of its own with per-CPU rows if needed),\n"
	"softirq runs per second, and the IRQs by rate with their totals, chip\n"
	"and actions.  Keys: q quit; r or d (irqtop's delta: the increase over\n"
	"the frame, the same order) sort by rate, t, i, n by total, IRQ number,\n"
	"action name; c per-CPU rows on/off; arrows, PgUp/PgDn, Home/End scroll\n"
	"the IRQs.  Losses are shown in the header; when the module is unloaded\n"
	"the screen says \"kstat module gone\" and resumes once it is back.\n"
	"With batch, no screen: one plain-text frame per refresh on stdout (all\n"
	"IRQs, or the first N rows); with count, N frames, then it exits (also\n"
	"on the screen).  Short options combine as procps top takes them:\n"
	"-bn1 is -b -n 1, -n1 is -n 1.  With -j one\n"
	"JSON object per frame: \"timestamp_ns\", \"interval_ns\", \"cpu\",\n"
	"\"softirq\", \"irq\" (the keys of kstat watch).  With -t (kstat -t top\n"
	"-b) each text frame starts with a line with the local time.\n";

/* Lines of the screen that are not IRQ rows: the key line at the bottom. */
#define FOOTER_LINES 1

struct top {
	/* options */
	uint64_t delay_ns;
	uint64_t count;			/* frames, 0: until q */
	uint64_t rows;			/* batch: IRQ rows per frame, 0: all */
	enum irq_sort sort;
	bool percpu, batch;
	bool own;			/* delay or percpu: our own subscription */
	/* state */
	bool done, gone, curses;
	uint64_t frames, lost;
	const char *lost_why;
	uint32_t generation;
	struct irq_labels names;
	struct kstat_sub_opts *sub;	/* what sub_run() reads */
	bool restart;			/* ... changed: subscribe again */
	struct sample_copy base;	/* start of the next frame */
	uint64_t prev_ns;		/* the sample before the latest */
	struct sample_copy then;	/* start of the frame shown */
	struct sample_copy now;		/* the end of the frame shown */
	bool have_frame;
	size_t scroll;
	/* the rendered frame: header part and IRQ part */
	char *head, *irqs;
	size_t head_len, irqs_len;
	size_t nr_irq_rows;
};

static const char *const sort_names[] = {
	[IRQ_SORT_RATE] = "rate", [IRQ_SORT_TOTAL] = "total",
	[IRQ_SORT_IRQ] = "irq", [IRQ_SORT_NAME] = "name",
};

/* ---- rendering ---- */

/* "SOFTIRQ/s NAME RATE ...": the softirq printer, on one line. */
static void print_softirq_line(const struct top *t, double secs)
{
	const struct kstat_softirq *v;
	struct softirq_cols w;
	double rate;
	size_t i;

	softirq_cols_line(&w);
	print_softirq_header(&w);
	open_json_array("softirq");
	for (i = 0; i < t->now.s.nr_softirqs; i++) {
		v = kstat_sample_softirq(&t->now.s, i);
		if (softirq_rate(v, &t->then.s, secs, &rate))
			print_softirq(v, rate, &w);
	}
	close_json_array();
	print_nl();
}

static void print_header(const struct top *t)
{
	const struct kstat_sample *s = &t->now.s;
	char buf[64];

	print_string(PRINT_FP, NULL, "%s", "kstat top");
	if (t->gone)
		print_string(PRINT_FP, NULL, " - %s", "kstat module gone, "
			     "waiting for it to come back");
	else if (t->have_frame) {
		snprintf(buf, sizeof(buf), "%.2f",
			 (s->timestamp_ns - t->then.s.timestamp_ns) / 1e9);
		print_string(PRINT_FP, NULL, " - interval %s s", buf);
		print_u64(PRINT_FP, NULL, ", seq %" PRIu64, s->seq);
		print_u64(PRINT_FP, NULL, ", %" PRIu64 " IRQs", s->nr_irqs);
	}
	print_string(PRINT_FP, NULL, ", sort %s", sort_names[t->sort]);
	if (t->lost) {
		print_u64(PRINT_FP, NULL, ", LOST %" PRIu64, t->lost);
		print_string(PRINT_FP, NULL, " samples (%s)", t->lost_why);
	}
	print_nl();
}

/* A batch frame, text or JSON, to the print path's current output. */
static void print_frame(const struct top *t, const struct irq_rate *r,
			size_t nr, size_t max)
{
	double secs = (t->now.s.timestamp_ns - t->then.s.timestamp_ns) / 1e9;

	print_header(t);
	print_u64(PRINT_JSON, "timestamp_ns", NULL, t->now.s.timestamp_ns);
	print_u64(PRINT_JSON, "interval_ns", NULL,
		  t->now.s.timestamp_ns - t->then.s.timestamp_ns);
	print_cpu_rates(&t->now.s, &t->then.s, !t->percpu);
	print_softirq_line(t, secs);
	print_nl();
	print_irq_rates(r, nr, max, secs);
}

/* ---- the screen's tables (libsmartcols) ---- */

/* A table as wide as the screen at most, one line per row, never wrapped. */
static struct libscols_table *screen_table(void)
{
	struct libscols_table *tb = scols_new_table();

	if (!tb)
		return NULL;
	scols_table_enable_nowrap(tb, 1);
	scols_table_set_termforce(tb, SCOLS_TERMFORCE_ALWAYS);
	scols_table_set_termwidth(tb, COLS > 0 ? COLS : 80);
	return tb;
}

/* A column; numbers (SCOLS_FL_RIGHT) get their header right-aligned too. */
static int add_column(struct libscols_table *tb, const char *name, int flags)
{
	struct libscols_column *cl = scols_table_new_column(tb, name, 0, flags);

	if (!cl)
		return -1;
	if (flags & SCOLS_FL_RIGHT)
		scols_cell_set_flags(scols_column_get_header(cl),
				     SCOLS_CELL_FL_RIGHT);
	return 0;
}

static int set_cell(struct libscols_line *ln, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_cell(struct libscols_line *ln, size_t col, const char *fmt, ...)
{
	char buf[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return scols_line_set_data(ln, col, buf);
}

/* The table's text (to free()), NULL if out of memory; @tb is released. */
static char *table_text(struct libscols_table *tb)
{
	char *text = NULL;

	if (scols_print_table_to_string(tb, &text))
		text = NULL;
	scols_unref_table(tb);
	return text;
}

/* CPU shares: the total ("all"), and each CPU's row when per-CPU is on. */
static char *cpu_table(const struct top *t)
{
	struct libscols_table *tb = screen_table();
	double pct[KSTAT_CPUTIME_NR];
	struct libscols_line *ln;
	size_t i;
	int f, err = !tb || add_column(tb, "CPU", 0);

	for (f = 0; !err && f < KSTAT_CPUTIME_NR; f++)
		err = add_column(tb, cpu_share_header(f), SCOLS_FL_RIGHT);
	/* the rows, then the total */
	for (i = 0; !err && i <= t->now.s.nr_cpus; i++) {
		const struct kstat_cputime *c = i < t->now.s.nr_cpus ?
			kstat_sample_cpu(&t->now.s, i) : t->now.s.cpu_total;

		if (!c || (!t->percpu && c->cpu >= 0) ||
		    !cpu_shares(c, &t->then.s, pct))
			continue;
		ln = scols_table_new_line(tb, NULL);
		err = !ln || (c->cpu < 0 ? scols_line_set_data(ln, 0, "all")
					 : set_cell(ln, 0, "%d", c->cpu));
		for (f = 0; !err && f < KSTAT_CPUTIME_NR; f++)
			err = set_cell(ln, f + 1, "%.2f", pct[f]);
	}
	if (err) {
		scols_unref_table(tb);
		return NULL;
	}
	return table_text(tb);
}

/* Every IRQ in @r, in order: the screen scrolls through them. */
static char *irq_table(const struct irq_rate *r, size_t nr, double secs)
{
	struct libscols_table *tb = screen_table();
	const struct kstat_irq *l;
	struct libscols_line *ln;
	char *actions, *chip;
	size_t i;
	int err = !tb || add_column(tb, "IRQ", SCOLS_FL_RIGHT) ||
		  add_column(tb, "RATE/s", SCOLS_FL_RIGHT) ||
		  add_column(tb, "TOTAL", SCOLS_FL_RIGHT) ||
		  add_column(tb, "CHIP", SCOLS_FL_TRUNC) ||
		  add_column(tb, "ACTIONS", SCOLS_FL_TRUNC);

	for (i = 0; !err && i < nr; i++) {
		/* the cells of the IRQ printer's text (print.c) */
		l = r[i].label;
		/* escaped as every output does (print_string()) */
		actions = l ? irq_actions_join(l, ",") : strdup("");
		chip = name_escape(l && l->chip ? l->chip : "-");
		ln = scols_table_new_line(tb, NULL);
		err = !ln || !actions || !chip ||
		      set_cell(ln, 0, "%u", r[i].q->irq) ||
		      set_cell(ln, 1, "%.1f", r[i].delta / secs) ||
		      set_cell(ln, 2, "%" PRIu64, r[i].q->count) ||
		      scols_line_set_data(ln, 3, chip) ||
		      scols_line_set_data(ln, 4, actions);
		free(actions);
		free(chip);
	}
	if (err) {
		scols_unref_table(tb);
		return NULL;
	}
	return table_text(tb);
}

/* The header part: title, CPU table, softirq rates, a blank line. */
static int render_head(struct top *t, char *cpus)
{
	FILE *f = open_memstream(&t->head, &t->head_len), *old;

	if (!f)
		return -1;
	old = json_print_output(f);
	new_json_obj(false, false);
	print_header(t);
	if (t->have_frame) {
		fprintf(f, "%s\n", cpus);	/* the print path writes to f too */
		print_softirq_line(t, (t->now.s.timestamp_ns - t->then.s.timestamp_ns) / 1e9);
		print_nl();
	} else {
		print_string(PRINT_FP, NULL, "%s\n", "waiting for samples...");
	}
	delete_json_obj();
	json_print_output(old);
	fclose(f);
	return 0;
}

/* Render the frame into t->head and t->irqs (text), for the screen. */
static int render(struct top *t)
{
	double secs = (t->now.s.timestamp_ns - t->then.s.timestamp_ns) / 1e9;
	struct irq_rate *r = NULL;
	char *cpus = NULL;
	size_t nr = 0;
	int err = 0;

	free(t->head);
	free(t->irqs);
	t->head = t->irqs = NULL;
	t->nr_irq_rows = 0;
	if (t->have_frame) {
		nr = irq_rates(&t->now.s, &t->then.s, &t->names, t->sort, &r);
		cpus = cpu_table(t);
		t->irqs = irq_table(r, nr, secs);
		err = !cpus || !t->irqs;
	}
	if (!err)
		err = render_head(t, cpus);
	if (!err)
		t->nr_irq_rows = nr;
	free(cpus);
	free(r);
	return err ? -1 : 0;
}

/* Characters of the line from @p to @nl (NULL: its end) that fit. */
static int line_len(const char *p, const char *nl)
{
	size_t n = nl ? (size_t)(nl - p) : strlen(p);

	return n < (size_t)COLS ? (int)n : COLS;
}

/* Draw the lines of @text from @y on, @skip lines skipped; next free y. */
static int draw_lines(const char *text, int y, int ymax, size_t skip,
		      attr_t attr)
{
	const char *p = text, *nl;

	while (p && *p && y < ymax) {
		nl = strchr(p, '\n');
		if (skip) {
			skip--;
		} else {
			attrset(attr);
			mvaddnstr(y++, 0, p, line_len(p, nl));
			attrset(A_NORMAL);
		}
		p = nl ? nl + 1 : NULL;
	}
	return y;
}

static int irq_rows_visible(const struct top *t, int y0)
{
	int n = LINES - FOOTER_LINES - y0 - 1;	/* - the IRQ header */

	(void)t;
	return n > 0 ? n : 0;
}

static int head_height(const struct top *t)
{
	int n = 0;
	const char *p;

	for (p = t->head; p && *p; p++)
		n += *p == '\n';
	return n;
}

static void clamp_scroll(struct top *t)
{
	int vis = irq_rows_visible(t, head_height(t));

	if (t->nr_irq_rows <= (size_t)vis)
		t->scroll = 0;
	else if (t->scroll > t->nr_irq_rows - vis)
		t->scroll = t->nr_irq_rows - vis;
}

static void draw(struct top *t)
{
	char foot[256];
	const char *nl;
	int y, vis;

	erase();
	clamp_scroll(t);
	y = draw_lines(t->head, 0, LINES - FOOTER_LINES, 0, A_NORMAL);
	if (t->gone)
		mvchgat(0, 0, -1, A_BOLD, 0, NULL);
	vis = irq_rows_visible(t, y);
	if (t->irqs && *t->irqs && y < LINES - FOOTER_LINES) {
		/* the IRQ header, then the rows from the scroll position */
		nl = strchr(t->irqs, '\n');
		attrset(A_REVERSE);
		mvaddnstr(y++, 0, t->irqs, line_len(t->irqs, nl));
		attrset(A_NORMAL);
		if (nl)
			draw_lines(nl + 1, y, LINES - FOOTER_LINES, t->scroll,
				   A_NORMAL);
	}
	snprintf(foot, sizeof(foot),
		 "q quit  r/d rate  t/i/n sort  c per-CPU  PgUp/PgDn scroll   IRQs %zu-%zu of %zu",
		 t->nr_irq_rows ? t->scroll + 1 : 0,
		 t->scroll + ((size_t)vis < t->nr_irq_rows - t->scroll ?
			      (size_t)vis : t->nr_irq_rows - t->scroll),
		 t->nr_irq_rows);
	attrset(A_REVERSE);
	mvaddnstr(LINES - 1, 0, foot, COLS);
	attrset(A_NORMAL);
	refresh();
}

static void show(struct top *t)
{
	if (!t->curses)
		return;
	if (render(t) == 0)
		draw(t);
}

/* ---- batch frames ---- */

static void print_batch_frame(struct top *t)
{
	struct irq_rate *r;
	size_t nr = irq_rates(&t->now.s, &t->then.s, &t->names, t->sort, &r);

	new_json_obj(opts.json, opts.pretty);
	open_json_object(NULL);
	print_timestamp_line();
	print_frame(t, r, nr, t->rows ? t->rows : nr);
	close_json_object();
	delete_json_obj();
	if (!opts.json)
		putchar('\n');
	fflush(stdout);
	free(r);
}

/* ---- subscription callbacks ---- */

static void on_sample(const struct kstat_sample *s, void *arg)
{
	struct top *t = arg;
	struct sample_copy tmp;
	bool due;

	if (t->done)
		return;
	t->gone = false;
	/* The IRQ set changed: rather no names than the old set's. */
	if (!t->names.s || s->generation != t->generation) {
		irq_labels_free(&t->names);
		irq_labels_load(&t->names);
		t->generation = s->generation;
	}
	if (!t->base.valid) {		/* the first sample */
		sample_copy(&t->base, s);
		t->prev_ns = s->timestamp_ns;
		if (!t->have_frame)
			show(t);
		return;
	}
	/* The rule of kstat watch too (rates.h). */
	due = frame_due(t->base.s.timestamp_ns, t->prev_ns, s->timestamp_ns,
			t->delay_ns);
	t->prev_ns = s->timestamp_ns;
	if (!due)
		return;
	if (sample_copy(&t->now, s))
		return;
	/* this frame runs from base to s; the next one from s */
	tmp = t->then;
	t->then = t->base;
	t->base = tmp;
	sample_copy(&t->base, s);
	t->have_frame = true;
	if (t->batch)
		print_batch_frame(t);
	else
		show(t);
	if (t->count && ++t->frames >= t->count)
		t->done = true;
}

static void on_lost(uint64_t lost, enum kstat_lost_reason why, void *arg)
{
	struct top *t = arg;

	if (t->done)
		return;
	/* Samples are whole: a rate spans a loss, except a reload's. */
	if (why == KSTAT_LOST_RELOAD)
		t->base.valid = false;
	t->lost += lost;
	t->lost_why = kstat_lost_reason_name(why);
	if (t->batch)
		print_lost(lost, why, false);
	show(t);
}

static void on_family(int present, void *arg)
{
	struct top *t = arg;

	if (t->done)
		return;
	t->base.valid = false;
	t->gone = !present;
	irq_labels_free(&t->names);
	kstat_handle_drop();
	if (t->batch)
		print_family_event(present);
	show(t);
}

/*
 * Per-CPU rows on: a stream without them (the default stream's percpu
 * off, or ours) gives way to a subscription of our own with them.
 */
static void want_percpu(struct top *t)
{
	if (!t->percpu || t->base.s.nr_cpus ||
	    (t->sub->fields && t->sub->percpu))
		return;
	sub_own_at(t->sub, t->delay_ns, cli_sections_all(), true);
	t->base.valid = false;
	t->restart = true;
}

/* ---- keys ---- */

static unsigned int top_fill(struct pollfd *pfd, int *timeout_ms, void *arg)
{
	(void)timeout_ms;
	(void)arg;
	pfd[0] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
	return 1;
}

static int top_ready(const struct pollfd *pfd, unsigned int n, void *arg)
{
	struct top *t = arg;
	bool rerender = false, redraw = false;
	int ch, page = irq_rows_visible(t, head_height(t));

	/*
	 * The terminal hung up (its window closed, ssh gone): getch() would
	 * fail at once on every poll, keeping the subscription for nobody.
	 */
	if (n && (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))) {
		t->done = true;
		return 0;
	}
	/* also after a SIGWINCH interrupted the poll: KEY_RESIZE */
	while (!t->done && (ch = getch()) != ERR) {
		switch (ch) {
		case 'q': case 'Q':
			t->done = true;
			break;
		/* d: irqtop's key for its delta sort, which is our rate */
		case 'r': case 'd': t->sort = IRQ_SORT_RATE; rerender = true; break;
		case 't': t->sort = IRQ_SORT_TOTAL; rerender = true; break;
		case 'i': t->sort = IRQ_SORT_IRQ; rerender = true; break;
		case 'n': t->sort = IRQ_SORT_NAME; rerender = true; break;
		case 'c':
			t->percpu = !t->percpu;
			want_percpu(t);
			rerender = true;
			break;
		/* the tables fit the new width now, not at the next sample */
		case KEY_RESIZE: rerender = true; break;
		case KEY_DOWN: case 'j': t->scroll++; redraw = true; break;
		case KEY_UP: case 'k':
			if (t->scroll)
				t->scroll--;
			redraw = true;
			break;
		case KEY_NPAGE: case ' ':
			t->scroll += page ? page : 1;
			redraw = true;
			break;
		case KEY_PPAGE:
			t->scroll = t->scroll > (size_t)page ? t->scroll - page : 0;
			redraw = true;
			break;
		case KEY_HOME: t->scroll = 0; redraw = true; break;
		case KEY_END: t->scroll = SIZE_MAX; redraw = true; break;
		default:
			break;
		}
	}
	if (t->done)
		return 0;
	if (rerender)
		show(t);
	else if (redraw)
		draw(t);
	return 0;
}

/* ---- command line ---- */

/*
 * A sort key's name or a unique prefix; "delta" is irqtop's name for
 * the rate sort (the increase over the frame: every IRQ's frame is the
 * same, so the two orders are one).
 */
static int parse_sort(const char *s, enum irq_sort *by)
{
	static const struct {
		const char *name;
		enum irq_sort by;
	} keys[] = {
		{ "rate", IRQ_SORT_RATE }, { "delta", IRQ_SORT_RATE },
		{ "total", IRQ_SORT_TOTAL }, { "irq", IRQ_SORT_IRQ },
		{ "name", IRQ_SORT_NAME },
	};
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (!strcmp(s, keys[i].name)) {
			*by = keys[i].by;
			return 0;
		}
		if (is_prefix(s, keys[i].name)) {
			*by = keys[i].by;
			n++;
		}
	}
	return n == 1 ? 0 : -1;
}

/*
 * The options, as words ("delay 2s") or procps top's short options
 * ("-d 2s"); the short ones combine as procps takes them: "-bn1" is
 * "-b -n 1", "-n1" is "-n 1" (a value glued to its letter or the next
 * word).  Letters without a value first, those with one after.
 */
static const struct {
	char letter;
	const char *word;
	bool value;
} top_opts[] = {
	{ 'b', "batch", false }, { 'c', "percpu", false },
	{ 'd', "delay", true }, { 'n', "count", true },
	{ 's', "sort", true }, { 'r', "rows", true },
};

/* The option a word names ("del", a prefix) or a short letter: -1 if none. */
static int top_opt_word(const char *w)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(top_opts); i++)
		if (is_prefix(w, top_opts[i].word))
			return (int)i;
	return -1;
}

static int top_opt_letter(char c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(top_opts); i++)
		if (top_opts[i].letter == c)
			return (int)i;
	return -1;
}

/* Option @i with @val (NULL for a flag). */
static int top_set(struct top *t, int i, const char *val)
{
	char why[EXPLAIN_LEN];
	uint64_t v;
	int err;

	switch (top_opts[i].letter) {
	case 'b':
		t->batch = true;
		return EXIT_OK;
	case 'c':
		t->percpu = t->own = true;
		return EXIT_OK;
	case 'd':
		t->own = true;
		err = parse_duration(val, &frame_length, &t->delay_ns);
		if (err)
			return usage_err("top", "bad delay \"%s\" (%s)", val,
					 duration_explain(why, sizeof(why), err, &frame_length));
		return EXIT_OK;
	case 's':
		if (parse_sort(val, &t->sort))
			return usage_err("top", "bad sort key \"%s\" (rate or delta, total, irq, name)",
					 val);
		return EXIT_OK;
	}
	err = parse_uint(val, 1, UINT32_MAX, &v);
	if (err)
		return usage_err("top", "bad %s \"%s\" (%s)", top_opts[i].word, val,
				 uint_explain(why, sizeof(why), err, 1, UINT32_MAX));
	if (top_opts[i].letter == 'n')
		t->count = v;
	else
		t->rows = v;
	return EXIT_OK;
}

/*
 * "-bn1": each letter of a cluster; the first that takes a value takes
 * the rest of the word, or else the next word (*@a moves past it).
 */
static int top_parse_short(struct top *t, int argc, char **argv, int *a)
{
	const char *w = argv[*a], *p;
	int i, ret;

	for (p = w + 1; *p; p++) {
		i = top_opt_letter(*p);
		if (i < 0)
			return usage_err("top", "unknown option \"-%c\" in \"%s\"", *p, w);
		if (!top_opts[i].value) {
			ret = top_set(t, i, NULL);
			if (ret)
				return ret;
			continue;
		}
		if (p[1])
			return top_set(t, i, p + 1);
		if (*a + 1 >= argc)
			return usage_err("top", "\"-%c\" needs a value", *p);
		return top_set(t, i, argv[++*a]);
	}
	return EXIT_OK;
}

static int top_parse(struct top *t, int argc, char **argv)
{
	int a, i, ret;

	for (a = 0; a < argc; a++) {
		const char *w = argv[a];

		if (w[0] == '-' && w[1] && w[1] != '-') {
			ret = top_parse_short(t, argc, argv, &a);
		} else if (w[0] == '-' || (i = top_opt_word(w)) < 0) {
			return usage_err("top", "unexpected argument \"%s\"", w);
		} else if (!top_opts[i].value) {
			ret = top_set(t, i, NULL);
		} else if (a + 1 >= argc) {
			return usage_err("top", "\"%s\" needs a value", w);
		} else {
			ret = top_set(t, i, argv[++a]);
		}
		if (ret)
			return ret;
	}
	if (opts.json && !t->batch)
		return usage_err("top", "-j needs batch mode (-b)");
	if (!t->batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		return usage_err("top", "not a terminal: use -b for plain text frames");
	return EXIT_OK;
}

/*
 * What goes to stderr while the screen is up (our errors, the library's)
 * would be written on the alternate screen and vanish with it at
 * endwin(): it is held in a temporary file and printed after.
 */
struct held_stderr {
	FILE *f;	/* NULL: not held */
	int saved;	/* the real stderr */
};

static void stderr_hold(struct held_stderr *h)
{
	fflush(stderr);
	h->f = tmpfile();
	h->saved = h->f ? dup(STDERR_FILENO) : -1;
	if (h->saved < 0 || dup2(fileno(h->f), STDERR_FILENO) < 0) {
		if (h->saved >= 0)
			close(h->saved);
		if (h->f)
			fclose(h->f);
		h->f = NULL;	/* then it goes on the screen, as before */
	}
}

static void stderr_release(struct held_stderr *h)
{
	char buf[4096];
	size_t n;

	if (!h->f)
		return;
	fflush(stderr);
	dup2(h->saved, STDERR_FILENO);
	close(h->saved);
	rewind(h->f);
	while ((n = fread(buf, 1, sizeof(buf), h->f)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(h->f);
	h->f = NULL;
}

/*
 * The screen: the user's locale for ncursesw and libsmartcols, so that
 * non-ASCII action names show as characters, not as M- escapes; numbers
 * keep the C locale's point, as in batch frames and watch.
 */
static bool screen_start(struct top *t)
{
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	if (!initscr())
		return false;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	t->curses = true;
	return true;
}

static void top_free(struct top *t)
{
	irq_labels_free(&t->names);
	sample_copy_free(&t->base);
	sample_copy_free(&t->then);
	sample_copy_free(&t->now);
	free(t->head);
	free(t->irqs);
}

int do_top(int argc, char **argv)
{
	static const struct kstat_sub_ops ops = {
		.sample = on_sample,
		.lost = on_lost,
		.family = on_family,
	};
	static const struct sub_poll_ops keys = {
		.max_fds = 1, .fill = top_fill, .ready = top_ready,
	};
	struct kstat_sub_opts so = KSTAT_SUB_OPTS_INIT;
	struct top t = { .delay_ns = 1000000000ULL, .sort = IRQ_SORT_RATE,
			 .sub = &so };
	struct sub_run_opts o = { .ops = &ops, .arg = &t, .done = &t.done,
				  .sub = &so, .restart = &t.restart };
	struct held_stderr err = { 0 };
	int ret;

	if (argc && is_prefix(argv[0], "help"))
		return show_help("top", top_usage, argc - 1);
	ret = top_parse(&t, argc, argv);
	if (ret)
		return ret;
	/* samples at our refresh, not the admin's interval */
	if (t.own)
		sub_own_at(&so, t.delay_ns, cli_sections_all(), t.percpu);
	/* the module first: its error is clearer on a plain terminal */
	if (!kstat_handle())
		return EXIT_FAIL;
	if (!t.batch) {
		if (!screen_start(&t)) {
			kstat_err("cannot initialise the terminal");
			return EXIT_FAIL;
		}
		stderr_hold(&err);
		o.poll = &keys;
		show(&t);
	}
	ret = sub_run(&o);
	if (t.curses) {
		endwin();
		stderr_release(&err);
		setlocale(LC_ALL, "C");	/* what the next batch line expects */
	}
	top_free(&t);
	return ret;
}
