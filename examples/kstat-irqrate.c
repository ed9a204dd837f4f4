// SPDX-License-Identifier: MIT
/*
 * kstat-irqrate: a small daemon built on libkstat.
 *
 * It subscribes to the kernel's periodic summaries and prints, for every
 * sampling interval, the N IRQs that fired most, in interrupts per second.
 * No /proc is read and nothing is polled: the kernel samples once for all
 * subscribers and the library hands us complete, absolute counters.
 *
 * One epoll set waits for the subscription's socket and for a signalfd, so
 * SIGINT and SIGTERM end the loop between two dispatches: there is no
 * signal handler, and no race between checking a flag and going to sleep.
 *
 * Build:  cc -o kstat-irqrate kstat-irqrate.c $(pkg-config --cflags --libs libkstat)
 * Usage:  kstat-irqrate [-n TOP] [-c COUNT] [-b RCVBUF]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <libkstat.h>

#define NO_COUNT UINT64_MAX	/* baseline slot of an IRQ not seen yet */

struct rate {
	uint32_t irq;
	uint64_t delta;		/* interrupts in the interval */
};

struct irqrate {
	unsigned int top;	/* -n: IRQs per interval */
	unsigned long count;	/* -c: intervals to print, 0 = forever */
	int rcvbuf;		/* -b: socket buffer bytes, 0 = library default */
	unsigned long printed;
	int resync;		/* samples were lost: restart the baseline */
	int done, failed;	/* stop: -c reached or a signal; an error */

	/* The previous sample: its time and every IRQ's count. */
	uint64_t base_ts;	/* 0: no baseline yet */
	uint64_t *base;		/* indexed by IRQ number */
	size_t nr_base;
	struct rate *rates;	/* scratch, one per IRQ of the sample */
};

static void print_ts(uint64_t ns)
{
	printf("%" PRIu64 ".%06" PRIu64, ns / 1000000000, ns % 1000000000 / 1000);
}

/* Remember every IRQ's count; the next interval is measured from here. */
static int take_baseline(struct irqrate *r, const struct kstat_sample *s)
{
	size_t i, max = 0;

	for (i = 0; i < s->nr_irqs; i++)
		if (s->irqs[i].irq >= max)
			max = s->irqs[i].irq + 1;
	if (max > r->nr_base) {
		uint64_t *b = realloc(r->base, max * sizeof(*b));
		struct rate *q = realloc(r->rates, max * sizeof(*q));

		if (b)
			r->base = b;
		if (q)
			r->rates = q;
		if (!b || !q)
			return -1;
		r->nr_base = max;
	}
	for (i = 0; i < r->nr_base; i++)
		r->base[i] = NO_COUNT;
	for (i = 0; i < s->nr_irqs; i++)
		r->base[s->irqs[i].irq] = s->irqs[i].count;
	r->base_ts = s->timestamp_ns;
	return 0;
}

static int by_delta(const void *a, const void *b)
{
	const struct rate *x = a, *y = b;

	if (x->delta != y->delta)
		return x->delta < y->delta ? 1 : -1;
	return x->irq < y->irq ? -1 : x->irq > y->irq;
}

/* One interval: the top N IRQs by rate since the baseline. */
static void print_interval(struct irqrate *r, const struct kstat_sample *s)
{
	uint64_t dt = s->timestamp_ns - r->base_ts;
	size_t i, n = 0;

	for (i = 0; i < s->nr_irqs; i++) {
		const struct kstat_irq *q = &s->irqs[i];

		/*
		 * Skip IRQs without a baseline: new since the last sample (the
		 * IRQ set changed, which the generation number announces).
		 * A count below its baseline is a reused IRQ number.
		 */
		if (q->irq >= r->nr_base || r->base[q->irq] == NO_COUNT ||
		    q->count <= r->base[q->irq])
			continue;
		r->rates[n].irq = q->irq;
		r->rates[n].delta = q->count - r->base[q->irq];
		n++;
	}
	qsort(r->rates, n, sizeof(*r->rates), by_delta);

	print_ts(s->timestamp_ns);
	printf(" seq %" PRIu64 " interval %.3f s, %zu IRQs fired\n", s->seq,
	       dt / 1e9, n);
	for (i = 0; i < n && i < r->top; i++)
		printf("  irq %-6" PRIu32 " %12.1f/s %10" PRIu64 "\n",
		       r->rates[i].irq, r->rates[i].delta * 1e9 / dt,
		       r->rates[i].delta);
	r->printed++;
}

/* libkstat calls this once per complete sample, from kstat_sub_dispatch(). */
static void on_sample(const struct kstat_sample *s, void *arg)
{
	struct irqrate *r = arg;

	if (!(s->sections & KSTAT_SECTION_IRQ)) {
		fprintf(stderr, "kstat-irqrate: %s\n",
			"the summaries carry no IRQs (kstat config set sections irq)");
		r->failed = 1;
		return;
	}
	if (r->resync) {
		/* After a loss the library waits for a keyframe: this one. */
		print_ts(s->timestamp_ns);
		printf(" seq %" PRIu64 " resynchronised (keyframe %d)\n",
		       s->seq, s->keyframe);
		r->resync = 0;
	} else if (r->base_ts && s->timestamp_ns > r->base_ts) {
		print_interval(r, s);
	}
	if (take_baseline(r, s)) {
		fprintf(stderr, "kstat-irqrate: out of memory\n");
		r->failed = 1;
	}
	if (r->count && r->printed >= r->count)
		r->done = 1;
}

/*
 * Samples were lost (a sequence gap, or our socket overflowed).  Nothing
 * more is delivered until a keyframe has rebuilt the state; a rate across
 * the hole would average over an unknown stretch, so start afresh.
 */
static void on_lost(uint64_t lost, enum kstat_lost_reason why, void *arg)
{
	struct irqrate *r = arg;

	/* lost is 0 for an overrun: how many is known at the next sample. */
	printf("lost %" PRIu64 " samples (%s), waiting for a keyframe\n",
	       lost, kstat_lost_reason_name(why));
	r->resync = 1;
	r->base_ts = 0;
}

/* Wait for samples and signals until done; 0 or -1. */
static int run(struct irqrate *r, struct kstat_sub *sub, int sfd)
{
	int fds[2] = { kstat_sub_fd(sub), sfd }, ep, i, n;
	struct epoll_event evs[2];
	struct signalfd_siginfo si;

	ep = epoll_create1(EPOLL_CLOEXEC);
	for (i = 0; ep >= 0 && i < 2; i++) {
		evs[i] = (struct epoll_event){ .events = EPOLLIN, .data.fd = fds[i] };
		if (epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &evs[i]))
			r->failed = 1;
	}
	if (ep < 0 || r->failed) {
		perror("kstat-irqrate: epoll");
		if (ep >= 0)
			close(ep);
		return -1;
	}
	while (!r->done && !r->failed) {
		n = epoll_wait(ep, evs, 2, -1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			perror("kstat-irqrate: epoll_wait");
			r->failed = 1;
			break;
		}
		for (i = 0; i < n && !r->done && !r->failed; i++) {
			if (evs[i].data.fd == sfd) {
				if (read(sfd, &si, sizeof(si)) == sizeof(si))
					fprintf(stderr, "kstat-irqrate: %s, exiting\n",
						strsignal(si.ssi_signo));
				r->done = 1;
			} else if (kstat_sub_dispatch(sub) < 0) {
				fprintf(stderr, "kstat-irqrate: %s\n",
					kstat_sub_last_error(sub));
				r->failed = 1;
			}
		}
	}
	close(ep);
	return r->failed ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct kstat_sub_ops ops = { .sample = on_sample, .lost = on_lost };
	struct irqrate r = { .top = 5 };
	struct kstat_handle *h;
	struct kstat_sub *sub;
	sigset_t mask;
	int opt, err, sfd;

	while ((opt = getopt(argc, argv, "n:c:b:h")) != -1) {
		switch (opt) {
		case 'n':
			r.top = strtoul(optarg, NULL, 10);
			break;
		case 'c':
			r.count = strtoul(optarg, NULL, 10);
			break;
		case 'b':
			r.rcvbuf = atoi(optarg);
			break;
		default:
			fprintf(opt == 'h' ? stdout : stderr,
				"Usage: %s [-n TOP] [-c COUNT] [-b RCVBUF]\n"
				"Print the TOP IRQs (default 5) by rate every sampling\n"
				"interval, COUNT times (default: until SIGINT/SIGTERM).\n"
				"RCVBUF: the socket's receive buffer in bytes (default\n"
				"4 MiB); too small a buffer loses samples.\n",
				argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);	/* lines reach a log at once */

	/* Signals arrive through the signalfd only, so block them first. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		perror("kstat-irqrate: signalfd");
		return 1;
	}

	err = kstat_open(&h);
	if (err) {
		fprintf(stderr, "kstat-irqrate: %s\n", err == -ENOENT ?
			"the kstat module is not loaded (modprobe kstat)" :
			strerror(-err));
		return 1;
	}
	err = kstat_subscribe(h, &ops, &r, r.rcvbuf, &sub);
	if (err) {
		fprintf(stderr, "kstat-irqrate: cannot subscribe: %s\n",
			kstat_last_error(h));
		kstat_close(h);
		return 1;
	}

	err = run(&r, sub, sfd);

	kstat_unsubscribe(sub);
	kstat_close(h);
	close(sfd);
	free(r.base);
	free(r.rates);
	return err ? 1 : 0;
}
