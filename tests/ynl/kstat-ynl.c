// SPDX-License-Identifier: GPL-2.0
/*
 * kstat-ynl - a kstat client on the C library the kernel's YNL generator
 * (ynl-gen-c.py of Linux 6.12) makes from docs/netlink/specs/kstat.yaml,
 * and the YNL C library (tools/net/ynl/lib/ynl.c).  No libnl, no libkstat:
 * everything that knows the protocol here was generated from the spec.
 *
 *   kstat-ynl cpu [CPU]          cpu-get do: "cpu ID|total", then the
 *                                10 values in ns, user .. guest_nice
 *   kstat-ynl irq IRQ            irq-get do with the meta flag: "irq ID
 *                                COUNT", "chip NAME", then "action NAME"
 *                                per action, in order (a multi-attr
 *                                string: the generator's patch)
 *   kstat-ynl irqs FIRST LAST    irq-get dump: "IRQ COUNT" per IRQ of
 *                                FIRST..LAST from the packed chunks,
 *                                then "intr_sum N" and "nr_irqs N"
 *
 * The generated irq-get dump takes no request: the spec's per-op policy
 * is the do's request (see docs/protocol.md, "The YNL spec"), so the dump
 * is of every IRQ and the range is kept here.
 *
 * Built and run by tests/ynl-c.sh; see tests/ynl/Makefile.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ynl.h>
#include "kstat-user.h"

static int usage(void)
{
	fprintf(stderr, "usage: kstat-ynl { cpu [CPU] | irq IRQ | irqs FIRST LAST }\n");
	return 2;
}

static int fail(struct ynl_sock *ys, const char *what)
{
	fprintf(stderr, "kstat-ynl: %s: %s\n", what, ys->err.msg);
	return 1;
}

static void print_cpu(const struct kstat_cpu *c)
{
	if (c->_present.id)
		printf("cpu %u", c->id);
	else
		printf("cpu total");
	printf(" %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
	       c->user, c->nice, c->system, c->idle, c->iowait, c->irq,
	       c->softirq, c->steal, c->guest, c->guest_nice);
}

static int cpu_get(struct ynl_sock *ys, int argc, char **argv)
{
	struct kstat_cpu_get_req *req = kstat_cpu_get_req_alloc();
	struct kstat_cpu_get_rsp *rsp;

	if (argc > 0)
		kstat_cpu_get_req_set_sel_cpu(req, strtoul(argv[0], NULL, 0));
	rsp = kstat_cpu_get(ys, req);
	kstat_cpu_get_req_free(req);
	if (!rsp)
		return fail(ys, "cpu-get");
	for (unsigned int i = 0; i < rsp->n_cpu; i++)
		print_cpu(&rsp->cpu[i]);
	kstat_cpu_get_rsp_free(rsp);
	return 0;
}

/* A dense chunk: bit i of present (byte i / 8) is IRQ first + i. */
static int irq_get(struct ynl_sock *ys, int argc, char **argv)
{
	struct kstat_irq_get_req *req;
	struct kstat_irq_get_rsp *rsp;

	if (argc != 1)
		return usage();
	req = kstat_irq_get_req_alloc();
	kstat_irq_get_req_set_sel_irq(req, strtoul(argv[0], NULL, 0));
	kstat_irq_get_req_set_sel_flags(req, KSTAT_F_META);
	rsp = kstat_irq_get(ys, req);
	kstat_irq_get_req_free(req);
	if (!rsp)
		return fail(ys, "irq-get");
	for (unsigned int i = 0; i < rsp->n_irq; i++) {
		const struct kstat_irq *q = &rsp->irq[i];

		printf("irq %u %llu\n", q->id, q->count);
		if (q->_present.chip_len)
			printf("chip %s\n", q->chip);
		for (unsigned int k = 0; k < q->n_action; k++)
			printf("action %s\n", q->action[k]);
	}
	kstat_irq_get_rsp_free(rsp);
	return 0;
}

/*
 * A chunk's counts are counts32 (one __u32 each: every dump chunk, the
 * kernel's totals being 32 bits) or counts (one __u64 each), never both.
 */
static __u64 chunk_count(const struct kstat_irqs *c, unsigned int k)
{
	__u64 count;
	__u32 count32;

	if (!c->_present.counts32_len) {
		memcpy(&count, (const char *)c->counts + k * sizeof(count),
		       sizeof(count));
		return count;
	}
	memcpy(&count32, (const char *)c->counts32 + k * sizeof(count32),
	       sizeof(count32));
	return count32;
}

static int print_chunk(const struct kstat_irqs *c, __u32 first, __u32 last)
{
	const unsigned char *present = c->present;
	unsigned int n, k = 0;

	if (c->_present.counts32_len && c->_present.counts_len)
		return -1;
	n = c->_present.counts32_len ? c->_present.counts32_len / sizeof(__u32) :
				       c->_present.counts_len / sizeof(__u64);
	for (unsigned int i = 0; i < c->_present.present_len * 8; i++) {
		if (!(present[i / 8] >> (i % 8) & 1))
			continue;
		if (k == n)
			return -1;
		if (c->first + i >= first && c->first + i <= last)
			printf("%u %llu\n", c->first + i, chunk_count(c, k));
		k++;
	}
	return k == n ? 0 : -1;
}

static int irq_dump(struct ynl_sock *ys, int argc, char **argv)
{
	struct kstat_irq_get_rsp_list *rsp;
	__u32 first, last;
	int err = 0;

	if (argc != 2)
		return usage();
	first = strtoul(argv[0], NULL, 0);
	last = strtoul(argv[1], NULL, 0);
	rsp = kstat_irq_get_dump(ys);
	if (!rsp)
		return fail(ys, "irq-get dump");
	ynl_dump_foreach(rsp, m) {
		for (unsigned int i = 0; i < m->n_irqs && !err; i++)
			err = print_chunk(&m->irqs[i], first, last);
		if (m->_present.intr_sum)
			printf("intr_sum %llu\n", m->intr_sum);
		if (m->_present.nr_irqs)
			printf("nr_irqs %u\n", m->nr_irqs);
	}
	kstat_irq_get_rsp_list_free(rsp);
	if (err)
		fprintf(stderr, "kstat-ynl: a chunk whose present bits and counts disagree\n");
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct ynl_error yerr;
	struct ynl_sock *ys;
	int ret;

	if (argc < 2)
		return usage();
	ys = ynl_sock_create(&ynl_kstat_family, &yerr);
	if (!ys) {
		fprintf(stderr, "kstat-ynl: %s (is kstat.ko loaded?)\n", yerr.msg);
		return 1;
	}
	if (!strcmp(argv[1], "cpu"))
		ret = cpu_get(ys, argc - 2, argv + 2);
	else if (!strcmp(argv[1], "irq"))
		ret = irq_get(ys, argc - 2, argv + 2);
	else if (!strcmp(argv[1], "irqs"))
		ret = irq_dump(ys, argc - 2, argv + 2);
	else
		ret = usage();
	ynl_sock_destroy(ys);
	return ret;
}
