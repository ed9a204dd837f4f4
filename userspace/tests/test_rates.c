// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the rates of kstat watch and top (cli/rates.c): an
 * entry the baseline does not know has no rate and no row, the same in
 * every section.  The case of the issue: the softirq section turned off
 * and on again, so the baseline holds no vector; the rate printed was the
 * whole total over one interval (987654321/s).  The IRQ and CPU sections
 * are checked beside it, and a known entry's rate still prints.  An IRQ
 * whose count fell (the generation changed: its number has a new
 * descriptor) is a new IRQ: no rate.  The baseline is a struct
 * sample_copy of the first sample, read back through its element sizes.
 * CPU shares are mpstat's: %usr and %nice without the guest time the
 * kernel also counts in user and nice, so that the ten add up to 100.
 */
#include <stdlib.h>
#include <string.h>

#include "../cli/json_print.h"
#include "../cli/rates.h"
#include "unit.h"

/* irqlabels.o asks for the handle only to load names: not here. */
struct kstat_handle *kstat_handle(void);
struct kstat_handle *kstat_handle(void)
{
	return NULL;
}

static const char *const names[] = { "HI", "TIMER", "NET_RX" };

/*
 * A sample at @secs s: CPU rows (nr_cpus, then the total), @nr_irqs
 * IRQs, @nr_vec vectors.
 */
static void make_sample(struct kstat_sample *s, struct kstat_cputime *cpus,
			size_t nr_cpus, struct kstat_irq *irqs, size_t nr_irqs,
			struct kstat_softirq *vecs, size_t nr_vec, double secs)
{
	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
	s->timestamp_ns = (uint64_t)(secs * 1e9);
	s->cpus = cpus;
	s->nr_cpus = nr_cpus;
	s->cpu_total = &cpus[nr_cpus];
	s->cputime_size = sizeof(*cpus);
	s->irqs = irqs;
	s->nr_irqs = nr_irqs;
	s->irq_size = sizeof(*irqs);
	s->softirqs = vecs;
	s->nr_softirqs = nr_vec;
	s->softirq_size = sizeof(*vecs);
}

/* What a printer wrote, as JSON, to free(). */
static char *capture(void (*fn)(const struct kstat_sample *,
				const struct kstat_sample *, double),
		     const struct kstat_sample *s, const struct sample_copy *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len), *old;

	if (!f)
		exit(1);
	old = json_print_output(f);
	new_json_obj(true, false);
	open_json_object(NULL);
	fn(s, &b->s, 1.0);
	close_json_object();
	delete_json_obj();
	json_print_output(old);
	fclose(f);
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}

static void softirqs(const struct kstat_sample *s, const struct kstat_sample *b,
		     double secs)
{
	print_softirq_rates(s, b, secs);
}

static void cpus(const struct kstat_sample *s, const struct kstat_sample *b,
		 double secs)
{
	(void)secs;
	print_cpu_rates(s, b, false);
}

static void irqs_of(const struct kstat_sample *s, const struct kstat_sample *b,
		    double secs)
{
	struct irq_labels none = { 0 };
	struct irq_rate *r;
	size_t nr = irq_rates(s, b, &none, IRQ_SORT_IRQ, &r);

	print_irq_rates(r, nr, nr, secs);
	free(r);
}

/*
 * mpstat's %usr: user - guest, %nice: nice - guest_nice, beside %guest and
 * %gnice; the shares add up to 100.  A guest delta above user's (two
 * counters read at different instants) is a %usr of 0, not a wrap.
 */
static void test_mpstat_shares(void)
{
	struct kstat_cputime then[1] = { { .cpu = -1 } };
	struct kstat_cputime now[1] = { { .cpu = -1 } };
	struct sample_copy base = { 0 };
	struct kstat_sample b, n;
	double pct[KSTAT_CPUTIME_NR], sum = 0;
	char *out;
	int f;

	then[0].ns[KSTAT_CPUTIME_USER] = 1000;
	then[0].ns[KSTAT_CPUTIME_GUEST] = 500;
	now[0].ns[KSTAT_CPUTIME_USER] = 1000 + 600;
	now[0].ns[KSTAT_CPUTIME_GUEST] = 500 + 200;
	now[0].ns[KSTAT_CPUTIME_NICE] = 300;
	now[0].ns[KSTAT_CPUTIME_GUEST_NICE] = 100;
	now[0].ns[KSTAT_CPUTIME_SYSTEM] = 100;
	make_sample(&b, then, 0, NULL, 0, NULL, 0, 1.0);
	make_sample(&n, now, 0, NULL, 0, NULL, 0, 2.0);
	if (sample_copy(&base, &b))
		exit(1);
	CHECK(cpu_shares(&now[0], &base.s, pct), "the total's shares");
	for (f = 0; f < KSTAT_CPUTIME_NR; f++)
		sum += pct[f];
	CHECK(pct[KSTAT_CPUTIME_USER] == 40.0 && pct[KSTAT_CPUTIME_NICE] == 20.0 &&
	      pct[KSTAT_CPUTIME_SYSTEM] == 10.0 && pct[KSTAT_CPUTIME_GUEST] == 20.0 &&
	      pct[KSTAT_CPUTIME_GUEST_NICE] == 10.0,
	      "usr %g nice %g sys %g guest %g gnice %g: want 40 20 10 20 10",
	      pct[KSTAT_CPUTIME_USER], pct[KSTAT_CPUTIME_NICE],
	      pct[KSTAT_CPUTIME_SYSTEM], pct[KSTAT_CPUTIME_GUEST],
	      pct[KSTAT_CPUTIME_GUEST_NICE]);
	CHECK(sum > 99.999 && sum < 100.001, "the shares add up to 100: %g", sum);
	out = capture(cpus, &n, &base);
	CHECK(strstr(out, "\"user_pct\":40.00") && strstr(out, "\"guest_pct\":20.00"),
	      "JSON user_pct is mpstat's %%usr: %s", out);
	free(out);

	now[0].ns[KSTAT_CPUTIME_GUEST] = 500 + 700;	/* above user's 600 */
	CHECK(cpu_shares(&now[0], &base.s, pct) && pct[KSTAT_CPUTIME_USER] == 0.0,
	      "guest above user: %%usr 0, got %g", pct[KSTAT_CPUTIME_USER]);
	sample_copy_free(&base);
}

/* print_irq_percpu_rates() from @b to @s over 2 s, led by "Average:". */
static char *percpu_table(bool json, const struct kstat_sample *s,
			  const struct kstat_sample *b)
{
	struct irq_labels none = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		exit(1);
	json_print_output(f);
	new_json_obj(json, false);
	open_json_object(NULL);
	print_irq_percpu_rates(s, b, &none, 2.0, "Average:");
	close_json_object();
	delete_json_obj();
	json_print_output(NULL);
	fclose(f);
	return buf;
}

/*
 * watch irq percpu, mpstat -I CPU's table: a row per online CPU, a column
 * per IRQ with a rate (the rule above: IRQ 9, new, has none); per-CPU
 * rates from the kernel's 32-bit counts, a wrap included.
 */
static void test_percpu_rates(void)
{
	static const struct kstat_cpu_count then_pc[] = { { 0, 10 }, { 1, 0xfffffff0u } };
	static const struct kstat_cpu_count now_pc[] = { { 0, 30 }, { 1, 0x10 } };
	static const uint8_t online = 0x3;
	struct kstat_irq then_q[1] = { { .irq = 7, .count = 100, .percpu = then_pc,
					 .nr_percpu = 2 } };
	struct kstat_irq now_q[2] = { { .irq = 7, .count = 152, .percpu = now_pc,
					.nr_percpu = 2 }, { .irq = 9, .count = 5 } };
	struct kstat_cputime cpu[1] = { { .cpu = -1 } };
	struct sample_copy b = { 0 }, e = { 0 };
	struct kstat_sample then, now;
	const char *want;
	char *out;

	make_sample(&then, cpu, 0, then_q, 1, NULL, 0, 1.0);
	make_sample(&now, cpu, 0, now_q, 2, NULL, 0, 3.0);
	then.online = now.online = &online;
	then.online_len = now.online_len = 1;
	/* copies, as watch's Average table reads them */
	if (sample_copy(&b, &then) || sample_copy(&e, &now))
		exit(1);
	then = b.s;
	now = e.s;
	out = percpu_table(false, &now, &then);
	CHECK(!strcmp(out, "Average:  CPU       7/s\n"
			   "Average:    0     10.00\n"
			   "Average:    1     16.00\n"),
	      "irq percpu: mpstat's table, a wrap on CPU 1:\n%s", out);
	free(out);
	out = percpu_table(true, &now, &then);
	want = "{\"irq\":[{\"irq\":7,\"rate\":26.00,\"percpu_rate\":[10.00,16.00";
	CHECK(!strncmp(out, want, strlen(want)), "irq percpu JSON: %s", out);
	free(out);
	sample_copy_free(&b);
	sample_copy_free(&e);
}

/* The same for vectors, whose per-CPU lists a copy keeps too. */
static void test_softirq_percpu_rates(void)
{
	static const struct kstat_cpu_count then_pc[] = { { 1, 100 } };
	static const struct kstat_cpu_count now_pc[] = { { 0, 4 }, { 1, 110 } };
	static const uint8_t online = 0x3;
	struct kstat_softirq then_v[1] = { { .vec = 3, .name = "NET_RX",
		.count = 100, .percpu = then_pc, .nr_percpu = 1 } };
	struct kstat_softirq now_v[1] = { { .vec = 3, .name = "NET_RX",
		.count = 114, .percpu = now_pc, .nr_percpu = 2 } };
	struct kstat_cputime cpu[1] = { { .cpu = -1 } };
	struct sample_copy b = { 0 };
	struct kstat_sample then, now;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	make_sample(&then, cpu, 0, NULL, 0, then_v, 1, 1.0);
	make_sample(&now, cpu, 0, NULL, 0, now_v, 1, 3.0);
	then.online = now.online = &online;
	then.online_len = now.online_len = 1;
	if (!f || sample_copy(&b, &then))
		exit(1);
	json_print_output(f);
	new_json_obj(false, false);
	print_softirq_percpu_rates(&now, &b.s, 2.0, NULL);
	delete_json_obj();
	json_print_output(NULL);
	fclose(f);
	CHECK(!strcmp(buf, " CPU  NET_RX/s\n"
			   "   0      2.00\n"
			   "   1      5.00\n"),
	      "softirq percpu: mpstat -I SCPU's table from a copied baseline:\n%s", buf);
	free(buf);
	sample_copy_free(&b);
}

int main(void)
{
	test_percpu_rates();
	test_softirq_percpu_rates();
	/* the baseline has no CPU row, only the total */
	struct kstat_cputime cpu_then[1] = { { .cpu = -1 } };
	struct kstat_cputime cpu_now[2] = { { .cpu = 0 }, { .cpu = -1 } };
	struct kstat_irq irq_then[2] = { { .irq = 1, .count = 100 },
					 { .irq = 3, .count = 5000 } };
	struct kstat_irq irq_now[3] = { { .irq = 1, .count = 150 },
					{ .irq = 2, .count = 987654321 },
					{ .irq = 3, .count = 40 } };
	struct kstat_softirq vec_then[1] = { { .vec = 1, .count = 1000 } };
	struct kstat_softirq vec_now[3] = {
		{ .vec = 0, .count = 987654321 }, { .vec = 1, .count = 1010 },
		{ .vec = 2, .count = 987654321 },
	};
	struct sample_copy base = { 0 };
	struct kstat_sample then, now;
	char *out;
	size_t i;

	for (i = 0; i < 3; i++) {
		vec_now[i].name = names[vec_now[i].vec];
		if (i < 1)
			vec_then[i].name = names[vec_then[i].vec];
	}
	cpu_now[0].ns[KSTAT_CPUTIME_USER] = 987654321;
	cpu_now[1].ns[KSTAT_CPUTIME_USER] = 500;
	cpu_now[1].ns[KSTAT_CPUTIME_IDLE] = 500;

	/* The baseline knows TIMER, IRQs 1 and 3 and the total; not CPU 0. */
	make_sample(&then, cpu_then, 0, irq_then, 2, vec_then, 1, 1.0);
	make_sample(&now, cpu_now, 1, irq_now, 3, vec_now, 3, 2.0);
	if (sample_copy(&base, &then))
		return 1;

	out = capture(softirqs, &now, &base);
	CHECK(strstr(out, "\"name\":\"TIMER\",\"rate\":10") != NULL,
	      "softirq: a vector the baseline knows has its rate: %s", out);
	CHECK(!strstr(out, "\"HI\"") && !strstr(out, "\"NET_RX\""),
	      "softirq: vectors the baseline does not know have no row: %s", out);
	CHECK(!strstr(out, "987654321"),
	      "softirq: no total printed as a rate (the issue's 987654321/s)");
	free(out);

	out = capture(irqs_of, &now, &base);
	CHECK(strstr(out, "\"irq\":1,\"rate\":50") != NULL,
	      "irq: an IRQ the baseline knows has its rate: %s", out);
	CHECK(!strstr(out, "\"irq\":2,"),
	      "irq: an IRQ the baseline does not know has no row: %s", out);
	CHECK(!strstr(out, "\"irq\":3,"),
	      "irq: an IRQ whose count fell (a new descriptor) has no row: %s", out);
	free(out);

	out = capture(cpus, &now, &base);
	CHECK(strstr(out, "\"cpu\":null") != NULL,
	      "cpu: the total, which the baseline knows, has its row: %s", out);
	CHECK(!strstr(out, "\"cpu\":0"),
	      "cpu: a CPU the baseline does not know has no row: %s", out);
	free(out);

	/* A section off in the baseline (no vector at all): no row either. */
	make_sample(&then, cpu_then, 0, irq_then, 2, NULL, 0, 1.0);
	if (sample_copy(&base, &then))
		return 1;
	out = capture(softirqs, &now, &base);
	CHECK(!strstr(out, "\"rate\""),
	      "softirq: the section turned on again: no rate this interval: %s", out);
	free(out);

	sample_copy_free(&base);
	test_mpstat_shares();
	return unit_exit();
}
