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

int main(void)
{
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
	return unit_exit();
}
