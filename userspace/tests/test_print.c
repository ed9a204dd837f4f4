// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the CLI's object printers (cli/print.c): an IRQ and a
 * softirq vector print with the same JSON keys and shapes in every view
 * (show, watch / top -b, monitor), and each view's text layout is pinned.
 * Objects are read from a struct kstat_sample through its element sizes;
 * sparse per-CPU lists print as arrays indexed by CPU id; CPU times as
 * rows, then the total.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/print.h"
#include "unit.h"

static const char *const timer[] = { "timer" }, *const acpi[] = { "acpi", "x" };
static struct kstat_irq irqs[] = {
	{ .irq = 0, .count = 5, .chip = "IO-APIC", .has_hwirq = 1, .hwirq = 2,
	  .name = "edge", .actions = timer, .nr_actions = 1 },
	{ .irq = 9, .count = 123456, .level = 1, .actions = acpi,
	  .nr_actions = 2 },
};
static struct kstat_softirq vecs[] = {
	{ .vec = 0, .count = 7, .name = "HI" },
	{ .vec = 3, .count = 1234, .name = "NET_RX" },
};
static const struct kstat_sample sample = {
	.size = sizeof(struct kstat_sample),
	.irqs = irqs, .nr_irqs = 2, .irq_size = sizeof(struct kstat_irq),
	.softirqs = vecs, .nr_softirqs = 2,
	.softirq_size = sizeof(struct kstat_softirq),
};

enum view { SHOW, RATES, MONITOR, LINE };

static char *render(bool json, enum view v)
{
	struct softirq_cols sw;
	struct irq_cols iw;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len), *old;

	if (!f)
		exit(1);
	old = json_print_output(f);
	new_json_obj(json, false);
	if (v == SHOW)
		irq_cols_show(&iw, &sample, false);
	else if (v == MONITOR)
		irq_cols_json(&iw, &sample);
	else
		irq_cols_rates(&iw);
	if (v != LINE) {
		open_json_object(NULL);
		open_json_array("irq");
		print_irq_header(&iw);
		for (i = 0; i < 2; i++)
			print_irq(&irqs[i], v == MONITOR ? NULL : &irqs[i], 1.5,
				  &iw);
		close_json_array();
	} else {
		open_json_object(NULL);
	}
	if (v == SHOW)
		softirq_cols_show(&sw, &sample, false);
	else if (v == MONITOR)
		softirq_cols_json(&sw, &sample);
	else if (v == LINE)
		softirq_cols_line(&sw);
	else
		softirq_cols_rates(&sw);
	print_softirq_header(&sw);
	open_json_array("softirq");
	for (i = 0; i < 2; i++)
		print_softirq(&vecs[i], 2.25, &sw);
	close_json_array();
	close_json_object();
	if (v == LINE)
		print_nl();
	delete_json_obj();
	json_print_output(old);
	fclose(f);
	return buf;
}

static const char *const view_names[] = { "show", "watch/top -b",
					  "monitor", "top's softirq line" };

static void check(bool json, enum view v, const char *want)
{
	char *s = render(json, v);

	if (strcmp(s, want))
		fprintf(stderr, "got:\n%s---\nwanted:\n%s---\n", s, want);
	CHECK(!strcmp(s, want), "%s, %s", view_names[v],
	      json ? "JSON" : "text");
	free(s);
}

/* What @fn printed, to free(). */
static char *capture(bool json, void (*fn)(const struct kstat_sample *),
		     const struct kstat_sample *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len), *old;

	if (!f)
		exit(1);
	old = json_print_output(f);
	new_json_obj(json, false);
	fn(s);
	delete_json_obj();
	json_print_output(old);
	fclose(f);
	return buf;
}

static void show_irqs_percpu(const struct kstat_sample *s)
{
	struct irq_cols w;

	irq_cols_show(&w, s, true);
	open_json_array(NULL);
	print_irq_header(&w);
	print_irq(kstat_sample_irq(s, 0), NULL, 0, &w);
	close_json_array();
}

/* A sparse per-CPU list: a dense array over every CPU id, 0 unlisted. */
static void test_percpu(void)
{
	static const struct kstat_cpu_count pc[] = { { 1, 7 }, { 2, 40000 } };
	struct kstat_irq q = { .irq = 5, .count = 40007, .percpu = pc,
			       .nr_percpu = 2, .chip = "x", .name = "edge" };
	static const uint8_t online = 0x7;	/* CPUs 0-2: the span >= 3 */
	struct kstat_sample s = { .size = sizeof(s), .irqs = &q, .nr_irqs = 1,
				  .irq_size = sizeof(q), .online = &online,
				  .online_len = 1 };
	uint32_t span = sample_cpu_span(&s), c;
	char want[4096], *p = want, *got;

	CHECK(span >= 3, "the CPU span holds the online CPUs (%u)", span);
	if (span < 3 || span > 256)
		return;
	p += sprintf(p, "[{\"irq\":5,\"count\":40007,\"percpu\":[");
	for (c = 0; c < span; c++)
		p += sprintf(p, "%s%u", c ? "," : "", c == 1 ? 7 : c == 2 ? 40000 : 0);
	sprintf(p, "],\"chip\":null,\"hwirq\":null,\"type\":null,\"actions\":[]}]\n");
	got = capture(true, show_irqs_percpu, &s);
	CHECK(!strcmp(got, want), "percpu JSON is dense by CPU id: %s", got);
	free(got);
	/* libkstat gives a list of no count as NULL: zeros, not no key */
	q.percpu = NULL;
	q.nr_percpu = 0;
	got = capture(true, show_irqs_percpu, &s);
	CHECK(strstr(got, "\"percpu\":[0,0,0") != NULL,
	      "an IRQ without a per-CPU count still has its array: %s", got);
	free(got);
	q.percpu = pc;
	q.nr_percpu = 2;
	got = capture(false, show_irqs_percpu, &s);
	CHECK(!strncmp(got, "IRQ COUNT  CPU0  CPU1  CPU2", 27) &&
	      strstr(got, "\n  5 40007     0     7 40000"),
	      "percpu text columns: %s", got);
	free(got);
}

static void monitor_irqs(const struct kstat_sample *s)
{
	struct irq_cols w;

	irq_cols_json(&w, s);
	open_json_array(NULL);
	print_irq(kstat_sample_irq(s, 0), NULL, 0, &w);
	close_json_array();
}

/* monitor: per-CPU arrays when the sample has per-CPU detail, only then. */
static void test_monitor_percpu(void)
{
	static const struct kstat_cpu_count pc[] = { { 0, 3 } };
	struct kstat_irq q[2] = { { .irq = 1, .count = 3, .percpu = pc,
				    .nr_percpu = 1 },
				  { .irq = 2 } };
	struct kstat_sample s = { .size = sizeof(s), .irqs = &q[1],
				  .nr_irqs = 1, .irq_size = sizeof(q[0]) };
	char *got;

	got = capture(true, monitor_irqs, &s);
	CHECK(!strcmp(got, "[{\"irq\":2,\"count\":0}]\n"),
	      "no per-CPU detail: no percpu key: %s", got);
	free(got);
	s.irqs = &q[0];
	s.flags = KSTAT_F_PERCPU;	/* as libkstat says of a record */
	got = capture(true, monitor_irqs, &s);
	CHECK(strstr(got, "\"percpu\":[3") != NULL,
	      "per-CPU detail: its array: %s", got);
	free(got);
}

static void show_cpus(const struct kstat_sample *s)
{
	print_cputimes(NULL, s, false, true);
}

static void show_cpus_ns(const struct kstat_sample *s)
{
	print_cputimes_in(NULL, s, false, true, CPUTIME_NS);
}

static void show_cpus_total_json(const struct kstat_sample *s)
{
	print_cputimes_in(NULL, s, true, true, CPUTIME_SECS);
}

static void monitor_cpus(const struct kstat_sample *s)
{
	open_json_object(NULL);
	print_cputimes("cpu", s, true, false);
	close_json_object();
}

/* CPU times: the rows, then the total ("cpu": null) where it is asked. */
static void test_cputimes(void)
{
	struct kstat_cputime rows[2] = { { .cpu = 0 }, { .cpu = 3 } };
	struct kstat_cputime total = { .cpu = -1 };
	struct kstat_sample s = { .size = sizeof(s), .cpus = rows, .nr_cpus = 2,
				  .cputime_size = sizeof(rows[0]),
				  .cpu_total = &total };
	char *got;

	rows[0].ns[KSTAT_CPUTIME_USER] = 10;
	rows[1].ns[KSTAT_CPUTIME_USER] = 20;
	total.ns[KSTAT_CPUTIME_USER] = 30;
	got = capture(false, show_cpus_ns, &s);
	CHECK(!strcmp(got, "CPU user nice system idle iowait irq softirq steal guest guest_nice\n"
			   "  0   10    0      0    0      0   0       0     0     0          0\n"
			   "  3   20    0      0    0      0   0       0     0     0          0\n"),
	      "cpu show ns: the rows in nanoseconds, no total: %s", got);
	free(got);
	got = capture(false, show_cpus, &s);
	CHECK(!strcmp(got, "CPU user(s) nice(s) system(s) idle(s) iowait(s) irq(s) softirq(s) steal(s) guest(s) guest_nice(s)\n"
			   "  0    0.00    0.00      0.00    0.00      0.00   0.00       0.00     0.00     0.00          0.00\n"
			   "  3    0.00    0.00      0.00    0.00      0.00   0.00       0.00     0.00     0.00          0.00\n"),
	      "cpu show: seconds under headers with the unit: %s", got);
	free(got);
	/* rounded to 10 ms in integers: 4 ms is 0.00, 5 ms 0.01, 1.995 s 2.00 */
	rows[0].ns[KSTAT_CPUTIME_USER] = 4000000;
	rows[0].ns[KSTAT_CPUTIME_NICE] = 5000000;
	rows[0].ns[KSTAT_CPUTIME_SYSTEM] = 1995000000;
	rows[0].ns[KSTAT_CPUTIME_IDLE] = 123456789012345678ULL;
	rows[1].ns[KSTAT_CPUTIME_USER] = 1234564000000ULL;
	got = capture(false, show_cpus, &s);
	CHECK(!strcmp(got, "CPU user(s) nice(s) system(s)      idle(s) iowait(s) irq(s) softirq(s) steal(s) guest(s) guest_nice(s)\n"
			   "  0    0.00    0.01      2.00 123456789.01      0.00   0.00       0.00     0.00     0.00          0.00\n"
			   "  3 1234.56    0.00      0.00         0.00      0.00   0.00       0.00     0.00     0.00          0.00\n"),
	      "cpu show: seconds rounded to 10 ms, columns as wide as they need: %s", got);
	free(got);
	/* JSON stays nanoseconds whatever the text's unit */
	got = capture(true, show_cpus_total_json, &s);
	CHECK(strstr(got, "{\"cpu\":0,\"user\":4000000,\"nice\":5000000,\"system\":1995000000,\"idle\":123456789012345678,") &&
	      strstr(got, "{\"cpu\":null,\"user\":30,"),
	      "cpu show -j: nanoseconds, the total last: %s", got);
	free(got);
	rows[0].ns[KSTAT_CPUTIME_USER] = 10;
	rows[0].ns[KSTAT_CPUTIME_NICE] = 0;
	rows[0].ns[KSTAT_CPUTIME_SYSTEM] = 0;
	rows[0].ns[KSTAT_CPUTIME_IDLE] = 0;
	rows[1].ns[KSTAT_CPUTIME_USER] = 20;
	got = capture(true, monitor_cpus, &s);
	CHECK(!strcmp(got, "{\"cpu\":[{\"cpu\":0,\"user\":10,\"nice\":0,\"system\":0,\"idle\":0,\"iowait\":0,\"irq\":0,\"softirq\":0,\"steal\":0,\"guest\":0,\"guest_nice\":0},"
			   "{\"cpu\":3,\"user\":20,\"nice\":0,\"system\":0,\"idle\":0,\"iowait\":0,\"irq\":0,\"softirq\":0,\"steal\":0,\"guest\":0,\"guest_nice\":0},"
			   "{\"cpu\":null,\"user\":30,\"nice\":0,\"system\":0,\"idle\":0,\"iowait\":0,\"irq\":0,\"softirq\":0,\"steal\":0,\"guest\":0,\"guest_nice\":0}]}\n"),
	      "monitor: the rows, then the total: %s", got);
	free(got);
}

/* irq show -o @list [-n], in text or JSON; NULL if -o refused it. */
static char *show_cols(bool json, const char *list, bool no_header)
{
	struct irq_col_list l;
	struct irq_cols w;
	char *buf = NULL, err[160];
	size_t len = 0, i;
	FILE *f;

	if (irq_col_list_parse(&l, list, err, sizeof(err)))
		return NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		exit(1);
	json_print_output(f);
	new_json_obj(json, false);
	irq_cols_show(&w, &sample, false);
	w.cols = l;
	w.no_header = no_header;
	open_json_array(NULL);
	print_irq_header(&w);
	for (i = 0; i < 2; i++)
		print_irq(&irqs[i], &irqs[i], 0, &w);
	close_json_array();
	delete_json_obj();
	json_print_output(NULL);
	fclose(f);
	return buf;
}

static void check_cols(bool json, const char *list, bool no_header,
		       const char *want)
{
	char *s = show_cols(json, list, no_header);

	CHECK(s && !strcmp(s, want), "irq show -o %s%s%s: %s", list,
	      no_header ? " -n" : "", json ? " -j" : "", s ? s : "(refused)");
	free(s);
}

/* -o: the columns named, any case, in their order; -n: no headings. */
static void test_columns(void)
{
	struct irq_col_list l;
	char err[160];

	check_cols(false, "irq,Count,actions", false,
		   "IRQ  COUNT ACTIONS\n"
		   "  0      5 timer\n"
		   "  9 123456 acpi, x\n");
	check_cols(false, "ACTIONS,TYPE,IRQ", true,
		   "timer   edge    0\n"
		   "acpi, x level   9\n");
	check_cols(false, "chip,hwirq", false,
		   "CHIP    HWIRQ\n"
		   "IO-APIC     2\n"
		   "-           -\n");
	check_cols(true, "count,irq,chip", true,
		   "[{\"count\":5,\"irq\":0,\"chip\":\"IO-APIC\"},"
		   "{\"count\":123456,\"irq\":9,\"chip\":null}]\n");
	CHECK(irq_col_list_parse(&l, "IRQ,NAME", err, sizeof(err)) == -1 &&
	      !strcmp(err, "unknown column 'NAME'; columns are: IRQ, COUNT, "
		      "PERCPU, CHIP, HWIRQ, TYPE, ACTIONS"),
	      "an unknown column: %s", err);
	CHECK(irq_col_list_parse(&l, "IRQ,", err, sizeof(err)) == -1 &&
	      !strcmp(err, "unknown column ''; columns are: IRQ, COUNT, "
		      "PERCPU, CHIP, HWIRQ, TYPE, ACTIONS"),
	      "an empty column: %s", err);
	CHECK(irq_col_list_parse(&l, "irq,IRQ", err, sizeof(err)) == -1 &&
	      !strcmp(err, "column 'IRQ' given twice"), "a column twice: %s", err);
}

int main(void)
{
	test_columns();
	test_percpu();
	test_monitor_percpu();
	test_cputimes();

	/* JSON: one shape per object; rate only where a view has one */
	check(true, SHOW,
	      "{\"irq\":[{\"irq\":0,\"count\":5,\"chip\":\"IO-APIC\",\"hwirq\":2,\"type\":\"edge\",\"actions\":[\"timer\"]},"
	      "{\"irq\":9,\"count\":123456,\"chip\":null,\"hwirq\":null,\"type\":\"level\",\"actions\":[\"acpi\",\"x\"]}],"
	      "\"softirq\":[{\"name\":\"HI\",\"count\":7},{\"name\":\"NET_RX\",\"count\":1234}]}\n");
	check(true, RATES,
	      "{\"irq\":[{\"irq\":0,\"rate\":1.50,\"count\":5,\"chip\":\"IO-APIC\",\"hwirq\":2,\"type\":\"edge\",\"actions\":[\"timer\"]},"
	      "{\"irq\":9,\"rate\":1.50,\"count\":123456,\"chip\":null,\"hwirq\":null,\"type\":\"level\",\"actions\":[\"acpi\",\"x\"]}],"
	      "\"softirq\":[{\"name\":\"HI\",\"rate\":2.25,\"count\":7},{\"name\":\"NET_RX\",\"rate\":2.25,\"count\":1234}]}\n");
	check(true, MONITOR,
	      "{\"irq\":[{\"irq\":0,\"count\":5},{\"irq\":9,\"count\":123456}],"
	      "\"softirq\":[{\"name\":\"HI\",\"count\":7},{\"name\":\"NET_RX\",\"count\":1234}]}\n");
	check(true, LINE,
	      "{\"softirq\":[{\"name\":\"HI\",\"rate\":2.25,\"count\":7},{\"name\":\"NET_RX\",\"rate\":2.25,\"count\":1234}]}\n");

	/* text: each view's layout, as before the printers were shared */
	check(false, SHOW,
	      "IRQ  COUNT CHIP    HWIRQ TYPE  ACTIONS\n"
	      "  0      5 IO-APIC     2 edge  timer\n"
	      "  9 123456 -           - level acpi, x\n"
	      "NAME   COUNT\n"
	      "HI         7\n"
	      "NET_RX  1234\n");
	check(false, RATES,
	      "     IRQ       RATE/s          TOTAL  CHIP       ACTIONS\n"
	      "       0          1.5              5  IO-APIC    timer\n"
	      "       9          1.5         123456  -          acpi,x\n"
	      "NAME             RATE/s          TOTAL\n"
	      "HI                  2.2              7\n"
	      "NET_RX              2.2           1234\n");
	check(false, MONITOR, "");
	check(false, LINE, "SOFTIRQ/s HI 2 NET_RX 2\n");
	return unit_exit();
}
