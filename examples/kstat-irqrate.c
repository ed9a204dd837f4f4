// SPDX-License-Identifier: MIT
/*
 * kstat-irqrate: a small daemon built on libkstat.
 *
 * It subscribes to the kernel's periodic samples and prints, for every
 * interval, the N IRQs that fired most, in interrupts per second.  No
 * /proc is read and nothing is polled: the kernel reads the counters once
 * for all subscribers, and every sample carries absolute 64-bit counts.
 *
 * One epoll set waits for the subscription's socket and for a signalfd, so
 * SIGINT and SIGTERM end the loop between two dispatches: there is no
 * signal handler, and no race between checking a flag and going to sleep.
 *
 * Build:  cc -o kstat-irqrate kstat-irqrate.c $(pkg-config --cflags --libs libkstat)
 * Usage:  kstat-irqrate [-n TOP] [-c COUNT] [-b RCVBUF] [-i MS] [-w]
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
	unsigned long printed;
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
		if (kstat_sample_irq(s, i)->irq >= max)
			max = kstat_sample_irq(s, i)->irq + 1;
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
		r->base[kstat_sample_irq(s, i)->irq] = kstat_sample_irq(s, i)->count;
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
		/* Array elements grow with the library: step with its macro. */
		const struct kstat_irq *q = kstat_sample_irq(s, i);

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

/*
 * libkstat calls this once per whole sample, from kstat_sub_dispatch().
 * The first one (from_get) is the state on joining, read by a GET: the
 * baseline of the first interval.
 */
static void on_sample(const struct kstat_sample *s, void *arg)
{
	struct irqrate *r = arg;

	if (!(s->sections & KSTAT_SECTION_IRQ)) {
		fprintf(stderr, "kstat-irqrate: %s\n",
			"the samples carry no IRQs (kstat config set sections irq, or -i MS)");
		r->failed = 1;
		return;
	}
	if (r->base_ts && s->timestamp_ns > r->base_ts)
		print_interval(r, s);
	if (take_baseline(r, s)) {
		fprintf(stderr, "kstat-irqrate: out of memory\n");
		r->failed = 1;
	}
	if (r->count && r->printed >= r->count)
		r->done = 1;
}

/*
 * Samples were lost (a sequence gap, or our socket overflowed).  Each
 * sample is whole, so the next interval simply spans the hole: its rate
 * is still interrupts over time.  Only a reload restarts every count.
 */
static void on_lost(uint64_t lost, enum kstat_lost_reason why, void *arg)
{
	struct irqrate *r = arg;

	printf("lost %" PRIu64 " samples (%s)\n", lost, kstat_lost_reason_name(why));
	if (why == KSTAT_LOST_RELOAD)
		r->base_ts = 0;
}

static void on_family(int present, void *arg)
{
	(void)arg;
	printf("the kstat module %s\n", present ? "is back" : "went away");
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
				/* at most 16 messages a call: epoll comes back */
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
	struct kstat_sub_ops ops = { .sample = on_sample, .lost = on_lost,
				     .family = on_family };
	struct kstat_sub_opts opts = KSTAT_SUB_OPTS_INIT;
	struct irqrate r = { .top = 5 };
	struct kstat_sub *sub;
	sigset_t mask;
	int opt, err, sfd;

	while ((opt = getopt(argc, argv, "n:c:b:i:wh")) != -1) {
		switch (opt) {
		case 'n':
			r.top = strtoul(optarg, NULL, 10);
			break;
		case 'c':
			r.count = strtoul(optarg, NULL, 10);
			break;
		case 'b':
			opts.rcvbuf = atoi(optarg);
			break;
		case 'i':
			/* a subscription of our own: our interval, IRQs only */
			opts.fields = KSTAT_CONFIG_INTERVAL | KSTAT_CONFIG_SECTIONS |
				      KSTAT_CONFIG_PERCPU;
			opts.interval_ms = strtoul(optarg, NULL, 10);
			opts.sections = KSTAT_SECTION_IRQ;
			opts.percpu = 0;
			break;
		case 'w':
			opts.flags |= KSTAT_SUB_WAIT;
			break;
		default:
			fprintf(opt == 'h' ? stdout : stderr,
				"Usage: %s [-n TOP] [-c COUNT] [-b RCVBUF] [-i MS] [-w]\n"
				"Print the TOP IRQs (default 5) by rate every sampling\n"
				"interval, COUNT times (default: until SIGINT/SIGTERM).\n"
				"RCVBUF: the socket's receive buffer in bytes (default\n"
				"4 MiB); too small a buffer loses samples.  -i MS: samples\n"
				"of our own every MS ms (default: the kstat config's\n"
				"stream).  -w: wait for the kstat module to be loaded.\n",
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

	/* No handle needed: the subscription has its own socket. */
	err = kstat_subscribe(&ops, &opts, &r, &sub);
	if (err) {
		fprintf(stderr, "kstat-irqrate: %s\n", err == -ENOENT ?
			"the kstat module is not loaded (modprobe kstat, or -w)" :
			kstat_open_error());
		close(sfd);
		return 1;
	}

	err = run(&r, sub, sfd);

	kstat_unsubscribe(sub);
	close(sfd);
	free(r.base);
	free(r.rates);
	return err ? 1 : 0;
}
