// SPDX-License-Identifier: GPL-2.0
/*
 * kstat-ynl - a kstat client on the C library the kernel's YNL generator
 * (ynl-gen-c.py of Linux 6.12) makes from docs/netlink/specs/kstat.yaml,
 * and the YNL C library (tools/net/ynl/lib/ynl.c).  No libnl, no libkstat:
 * everything that knows the protocol here was generated from the spec.
 *
 *   kstat-ynl cpu [CPU]          get do, sections cpu: "cpu total", then
 *                                the 10 values in ns, user .. guest_nice;
 *                                with CPU, per-CPU rows of that CPU id
 *                                too ("cpu ID ...")
 *   kstat-ynl irq IRQ            get do, sections irq, flags meta, the
 *                                range IRQ..IRQ: "irq ID COUNT" (from the
 *                                irqs run), "chip NAME", then "action
 *                                NAME" per action, in order (a multi-attr
 *                                string: the generator's patch)
 *   kstat-ynl irqs FIRST LAST    get dump: "IRQ COUNT" per IRQ of
 *                                FIRST..LAST from the irqs runs, then
 *                                "intr_sum N" and "nr_irqs N"
 *   kstat-ynl sample [INTERVAL_MS]
 *                                one sample, whole: of the default stream
 *                                (joins "summary", subscribe), or with
 *                                INTERVAL_MS a subscription of its own;
 *                                the notifications read until every part
 *                                of one seq came, from a part 0 on:
 *                                "sample SEQ parts P generation G", then
 *                                "IRQ COUNT" per IRQ and "intr_sum N",
 *                                from that sample's messages only
 *
 * The generated get dump takes no request: the spec's per-op policy is
 * the do's request (see docs/protocol.md), so the dump is of everything
 * and the range is kept here.
 *
 * Built and run by tests/ynl-c.sh; see tests/ynl/Makefile.
 */
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ynl.h>
#include "kstat-user.h"

static int usage(void)
{
	fprintf(stderr, "usage: kstat-ynl { cpu [CPU] | irq IRQ | irqs FIRST LAST | sample [INTERVAL_MS] }\n");
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
	struct kstat_get_req *req = kstat_get_req_alloc();
	struct kstat_get_rsp *rsp;

	kstat_get_req_set_sections(req, KSTAT_SECTION_CPU);
	if (argc > 0) {
		__u32 cpu = strtoul(argv[0], NULL, 0);

		kstat_get_req_set_flags(req, KSTAT_F_PERCPU);
		kstat_get_req_set_cpu_first(req, cpu);
		kstat_get_req_set_cpu_last(req, cpu);
	}
	rsp = kstat_get(ys, req);
	kstat_get_req_free(req);
	if (!rsp)
		return fail(ys, "get");
	for (unsigned int i = 0; i < rsp->n_cpu; i++)
		print_cpu(&rsp->cpu[i]);
	kstat_get_rsp_free(rsp);
	return 0;
}

/*
 * An irqs run: ids (__u32[n]) and counts (__u64[n]), host order, only
 * 4-byte aligned: copied out.  Prints the IRQs of FIRST..LAST; -1 when
 * the arrays disagree.
 */
static int print_run(const struct kstat_irqs *r, __u32 first, __u32 last)
{
	unsigned int n = r->_present.ids_len / sizeof(__u32);

	if (r->_present.ids_len % sizeof(__u32) ||
	    r->_present.counts_len != n * sizeof(__u64))
		return -1;
	for (unsigned int i = 0; i < n; i++) {
		__u32 id;
		__u64 count;

		memcpy(&id, (const char *)r->ids + i * sizeof(id), sizeof(id));
		memcpy(&count, (const char *)r->counts + i * sizeof(count),
		       sizeof(count));
		if (id >= first && id <= last)
			printf("%u %llu\n", id, count);
	}
	return 0;
}

static int irq_get(struct ynl_sock *ys, int argc, char **argv)
{
	struct kstat_get_req *req;
	struct kstat_get_rsp *rsp;
	__u32 irq;
	int err = 0;

	if (argc != 1)
		return usage();
	irq = strtoul(argv[0], NULL, 0);
	req = kstat_get_req_alloc();
	kstat_get_req_set_sections(req, KSTAT_SECTION_IRQ);
	kstat_get_req_set_flags(req, KSTAT_F_META);
	kstat_get_req_set_irq_first(req, irq);
	kstat_get_req_set_irq_last(req, irq);
	rsp = kstat_get(ys, req);
	kstat_get_req_free(req);
	if (!rsp)
		return fail(ys, "get");
	for (unsigned int i = 0; i < rsp->n_irqs && !err; i++) {
		printf("irq ");
		err = print_run(&rsp->irqs[i], irq, irq);
	}
	for (unsigned int i = 0; i < rsp->n_irq; i++) {
		const struct kstat_irq *q = &rsp->irq[i];

		if (q->_present.chip_len)
			printf("chip %s\n", q->chip);
		for (unsigned int k = 0; k < q->n_action; k++)
			printf("action %s\n", q->action[k]);
	}
	kstat_get_rsp_free(rsp);
	if (err)
		fprintf(stderr, "kstat-ynl: a run whose ids and counts disagree\n");
	return err ? 1 : 0;
}

static int irq_dump(struct ynl_sock *ys, int argc, char **argv)
{
	struct kstat_get_list *rsp;
	__u32 first, last;
	int err = 0;

	if (argc != 2)
		return usage();
	first = strtoul(argv[0], NULL, 0);
	last = strtoul(argv[1], NULL, 0);
	rsp = kstat_get_dump(ys);
	if (!rsp)
		return fail(ys, "get dump");
	ynl_dump_foreach(rsp, m) {
		for (unsigned int i = 0; i < m->n_irqs && !err; i++)
			err = print_run(&m->irqs[i], first, last);
		if (m->_present.intr_sum)
			printf("intr_sum %llu\n", m->intr_sum);
		if (m->_present.nr_irqs)
			printf("nr_irqs %u\n", m->nr_irqs);
	}
	kstat_get_list_free(rsp);
	if (err)
		fprintf(stderr, "kstat-ynl: a run whose ids and counts disagree\n");
	return err ? 1 : 0;
}

#define PARTS_MAX	64

/* The notifications until one sample's parts all came; 0, or 1. */
static int sample(struct ynl_sock *ys, int argc, char **argv)
{
	struct kstat_subscribe_req *req = kstat_subscribe_req_alloc();
	struct kstat_summary_ntf *part[PARTS_MAX] = { NULL };
	struct pollfd pfd = { .fd = ynl_socket_get_fd(ys), .events = POLLIN };
	unsigned int got = 0, waits = 0, i;
	int err = 0;

	if (argc > 1)
		return usage();
	if (argc)
		kstat_subscribe_req_set_config_interval_ms(req,
			strtoul(argv[0], NULL, 0));
	else if (ynl_subscribe(ys, "summary"))
		return fail(ys, "join summary");
	if (kstat_subscribe(ys, req)) {
		kstat_subscribe_req_free(req);
		return fail(ys, "subscribe");
	}
	kstat_subscribe_req_free(req);
	while (waits < 300) {
		struct ynl_ntf_base_type *b;
		struct kstat_summary_ntf *n;

		if (!ynl_has_ntf(ys)) {
			waits += poll(&pfd, 1, 100) == 0;
			if (ynl_ntf_check(ys) < 0)
				return fail(ys, "read");
			continue;
		}
		b = ynl_ntf_dequeue(ys);
		if (b->cmd != KSTAT_CMD_SUMMARY_NTF) {
			ynl_ntf_free(b);
			continue;
		}
		n = (struct kstat_summary_ntf *)b;
		/* from a part 0 on; another seq starts over */
		if ((!got && n->obj.part) ||
		    (got && n->obj.seq != part[0]->obj.seq) ||
		    n->obj.part != got || got == PARTS_MAX) {
			ynl_ntf_free(b);
			for (i = 0; i < got; i++)
				ynl_ntf_free((struct ynl_ntf_base_type *)part[i]);
			got = 0;
			continue;
		}
		part[got++] = n;
		if (got == n->obj.parts)
			break;
	}
	if (!got || got != part[0]->obj.parts) {
		fprintf(stderr, "kstat-ynl: no whole sample within 30 s\n");
		return 1;
	}
	printf("sample %llu parts %u generation %u\n", part[0]->obj.seq, got,
	       part[0]->obj.generation);
	for (i = 0; i < got; i++) {
		for (unsigned int k = 0; k < part[i]->obj.n_irqs && !err; k++)
			err = print_run(&part[i]->obj.irqs[k], 0, UINT32_MAX);
		if (part[i]->obj._present.intr_sum)
			printf("intr_sum %llu\n", part[i]->obj.intr_sum);
	}
	for (i = 0; i < got; i++)
		ynl_ntf_free((struct ynl_ntf_base_type *)part[i]);
	if (err)
		fprintf(stderr, "kstat-ynl: a run whose ids and counts disagree\n");
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
	else if (!strcmp(argv[1], "sample"))
		ret = sample(ys, argc - 2, argv + 2);
	else
		ret = usage();
	ynl_sock_destroy(ys);
	return ret;
}
