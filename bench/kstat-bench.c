// SPDX-License-Identifier: GPL-2.0
/*
 * kstat-bench: kstat against /proc, side by side, in one run.
 *
 *   kstat-bench [-r REPEATS] [-n OPS] [-s SECONDS] [-N READS] [-S SUBS]
 *               [METRIC...]
 *
 * Metrics (default: all):
 *   cpu      per-CPU cputime: pread+parse of /proc/stat's cpu lines vs a
 *            KSTAT_CMD_CPU_GET with KSTAT_F_PERCPU (libkstat)
 *   irq      all IRQ totals: /proc/interrupts read+parsed, and the intr
 *            line of /proc/stat, vs a totals-only IRQ_GET dump; also the
 *            same dump over a raw socket that only counts the IRQs, which
 *            splits the kernel's share from libkstat's
 *   agent    what a monitoring agent wants each second: reading and
 *            parsing the three procfs files vs one subscriber receiving
 *            and applying one summary sample (thread CPU time, which
 *            includes the reader's syscalls)
 *   floor    an empty round trip (KSTAT_CMD_CONFIG_GET)
 *   summary  kernel cost per summary with 1, 16 and 64 subscribers, and
 *            bytes per sample for a keyframe and a delta
 *   idle     samples the producer takes in SECONDS with no subscriber
 *
 * Not in the default set (name them), for `make bench-seed`:
 *   seed     the seed thread's experiment: READS (default 10000) times
 *            open, read to the end and close /proc/stat; wall and system
 *            time of the whole loop, and wall time per read
 *   raw      CPU_GET (every CPU) and the empty round trip (CONFIG_GET) through
 *            libkstat and over a raw netlink socket, side by side
 *   files    one read+parse of each of the three procfs files alone
 *   sections the producer's cost per sample with one section at a time
 *   percpu   per-CPU IRQ counts against totals only, side by side (their
 *            rounds alternate): an IRQ dump with KSTAT_F_PERCPU vs a
 *            totals dump, through libkstat and over a raw socket, in
 *            time, bytes and dumpit calls, and a summary keyframe's
 *            bytes with the config's percpu on and off
 * SUBS is a comma-separated list of subscriber counts for "summary"
 * (default 1,16,64).
 *
 * Every timed figure is the median over REPEATS runs of OPS operations
 * (after a warm-up), with the standard deviation over those runs, in
 * microseconds per operation.  Output: one line per figure,
 *   metric NAME base MED SD kstat MED SD unit UNIT
 * or for a single timed figure
 *   time NAME MED SD unit UNIT
 * or for single values
 *   value NAME V unit UNIT
 * for bench/report.py to turn into a table.  Must run as root (it changes
 * the summary interval), with the kstat module loaded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <libkstat.h>

static int repeats = 7, ops = 20, idle_secs = 10, seed_reads = 10000;
static int subs[16] = { 1, 16, 64 }, nr_subs = 3;
static struct kstat_handle *h;
static char *buf;
static const size_t buf_size = 16 << 20;
static volatile uint64_t sink;	/* keeps parsed values alive */

/* ---- timing ---- */

static double now_us(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

struct stat_result {
	double med, sd;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static struct stat_result summarize(double *v, int n)
{
	struct stat_result r = { 0 };
	double mean = 0, var = 0;
	int i;

	for (i = 0; i < n; i++)
		mean += v[i] / n;
	for (i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean) / (n > 1 ? n - 1 : 1);
	qsort(v, n, sizeof(*v), cmp_double);
	r.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	r.sd = sqrt(var);
	return r;
}

typedef void (*op_fn)(void);

/* @fn's per-op time over @ops calls, in us. */
static double time_ops(op_fn fn, clockid_t clk)
{
	double t0 = now_us(clk);
	int i;

	for (i = 0; i < ops; i++)
		fn();
	return (now_us(clk) - t0) / ops;
}

/* Median and stddev of the per-op time of @fn, in us. */
static struct stat_result measure(op_fn fn, clockid_t clk)
{
	double v[64];
	int r;

	fn();	/* warm-up: caches, page faults, lazy allocations */
	fn();
	for (r = 0; r < repeats && r < 64; r++)
		v[r] = time_ops(fn, clk);
	return summarize(v, r);
}

/*
 * As measure(), for @a and @b side by side: their rounds alternate, so
 * that what else the machine does (a 96-vCPU guest on 2 host cores)
 * weighs on both alike, not on whichever ran second.
 */
static void measure_pair(op_fn a, op_fn b, clockid_t clk,
			 struct stat_result *ra, struct stat_result *rb)
{
	double va[64], vb[64];
	int r;

	a();	/* warm-up, as measure() */
	b();
	a();
	b();
	for (r = 0; r < repeats && r < 64; r++) {
		va[r] = time_ops(a, clk);
		vb[r] = time_ops(b, clk);
	}
	*ra = summarize(va, r);
	*rb = summarize(vb, r);
}

static void report(const char *name, struct stat_result base,
		   struct stat_result k, const char *unit)
{
	printf("metric %s base %.3f %.3f kstat %.3f %.3f unit %s\n", name,
	       base.med, base.sd, k.med, k.sd, unit);
	fflush(stdout);
}

static void timed(const char *name, struct stat_result r, const char *unit)
{
	printf("time %s %.3f %.3f unit %s\n", name, r.med, r.sd, unit);
	fflush(stdout);
}

static void value(const char *name, double v, const char *unit)
{
	printf("value %s %.3f unit %s\n", name, v, unit);
	fflush(stdout);
}

static void die(const char *what, int err)
{
	fprintf(stderr, "kstat-bench: %s: %s (%s)\n", what, strerror(-err),
		h ? kstat_last_error(h) : "");
	exit(1);
}

/* ---- procfs baselines: read the whole file, parse what is needed ---- */

static int fd_stat, fd_interrupts, fd_softirqs;

static size_t pread_all(int fd)
{
	size_t len = 0;
	ssize_t n;

	while ((n = pread(fd, buf + len, buf_size - 1 - len, len)) > 0)
		len += n;
	buf[len] = '\0';
	return len;
}

/* Sum of every number on a line, from @p; returns the end of the line. */
static const char *sum_line(const char *p, uint64_t *sum)
{
	char *end;

	while (*p && *p != '\n') {
		if (*p >= '0' && *p <= '9') {
			*sum += strtoull(p, &end, 10);
			p = end;
		} else {
			p++;
		}
	}
	return *p ? p + 1 : p;
}

static void proc_stat_cpu(void)
{
	const char *p = buf;
	uint64_t sum = 0;

	pread_all(fd_stat);
	while (!strncmp(p, "cpu", 3))
		p = sum_line(p + 3, &sum);
	sink = sum;
}

static void proc_stat_intr(void)
{
	const char *p;
	uint64_t sum = 0;

	pread_all(fd_stat);
	p = strstr(buf, "\nintr ");
	if (p)
		sum_line(p + 6, &sum);
	sink = sum;
}

static void proc_interrupts(void)
{
	const char *p = buf;
	uint64_t sum = 0;

	pread_all(fd_interrupts);
	p = strchr(p, '\n');	/* the CPU header */
	while (p && *++p) {
		p = strchr(p, ':');	/* counts follow the label */
		if (!p)
			break;
		p = sum_line(p + 1, &sum) - 1;
	}
	sink = sum;
}

static void proc_softirqs(void)
{
	uint64_t sum = 0;
	const char *p;

	pread_all(fd_softirqs);
	p = strchr(buf, '\n');
	while (p && *++p)
		p = sum_line(strchr(p, ':') ? strchr(p, ':') + 1 : p, &sum) - 1;
	sink = sum;
}

static void proc_agent(void)
{
	proc_stat_cpu();	/* cpu lines; the same read has intr, softirq */
	proc_interrupts();
	proc_softirqs();
}

/* ---- kstat requests ---- */

static void kstat_cpu(void)
{
	struct kstat_cpu_list *l;
	int err = kstat_cpu_list_get(h, &l);

	if (err)
		die("CPU dump", err);
	sink = l->cpus[0].ns[0];
	kstat_cpu_list_free(l);
}

static void kstat_irq_totals(void)
{
	struct kstat_filter f = KSTAT_FILTER_INIT;
	struct kstat_irq_list *l;
	int err = kstat_irq_list_get(h, &f, &l);

	if (err)
		die("IRQ dump", err);
	sink = l->intr_sum;
	kstat_irq_list_free(l);
}

static void kstat_floor(void)
{
	struct kstat_config c;
	int err = kstat_config_get(h, &c);

	if (err)
		die("CONFIG_GET", err);
	sink = c.interval_ms;
}

/*
 * The same requests on a plain netlink socket: send, read, count the
 * top-level attributes of type @count (a dump ends at NLMSG_DONE, a do
 * at its one reply).
 */
static int raw_fd;
static uint16_t raw_family;

static uint64_t raw_request(uint8_t cmd, int dump, int count, uint32_t flags)
{
	struct {
		struct nlmsghdr nlh;
		struct genlmsghdr g;
		struct nlattr a;
		uint32_t flags;
	} req = {
		.nlh = { .nlmsg_type = raw_family,
			 .nlmsg_flags = NLM_F_REQUEST | (dump ? NLM_F_DUMP : 0) },
		.g = { .cmd = cmd, .version = KSTAT_FAMILY_VERSION },
		.a = { .nla_len = NLA_HDRLEN + sizeof(uint32_t),
		       .nla_type = KSTAT_A_SEL_FLAGS },
		.flags = flags,
	};
	uint64_t found = 0;
	ssize_t n;

	/* KSTAT_A_SEL_FLAGS only when there are flags */
	req.nlh.nlmsg_len = flags ? sizeof(req) : NLMSG_HDRLEN + GENL_HDRLEN;
	if (send(raw_fd, &req, req.nlh.nlmsg_len, 0) < 0)
		die("raw send", -errno);
	for (;;) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

		n = recv(raw_fd, buf, 64 * 1024, MSG_TRUNC);
		if (n < 0)
			die("raw recv", -errno);
		if (n > 64 * 1024)
			die("raw recv: message over 64 KiB", -EMSGSIZE);
		for (; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			const struct nlattr *a;
			int rem;

			if (nlh->nlmsg_type == NLMSG_DONE)
				return found;
			if (nlh->nlmsg_type == NLMSG_ERROR)
				die("raw request", -EIO);
			a = (const void *)((char *)NLMSG_DATA(nlh) + GENL_HDRLEN);
			rem = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
			while (rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
			       a->nla_len <= rem) {
				found += (a->nla_type & NLA_TYPE_MASK) == count;
				rem -= NLA_ALIGN(a->nla_len);
				a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len));
			}
			if (!dump)
				return found;
		}
	}
}

static void raw_irq_totals(void)
{
	sink = raw_request(KSTAT_CMD_IRQ_GET, 1, KSTAT_A_IRQS, 0);
}

/* The request kstat_cpu_list_get() makes: every CPU in one reply. */
static void raw_cpu(void)
{
	sink = raw_request(KSTAT_CMD_CPU_GET, 0, KSTAT_A_CPU, KSTAT_F_PERCPU);
}

static void raw_floor(void)
{
	sink = raw_request(KSTAT_CMD_CONFIG_GET, 0, 0, 0);
}

static void raw_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	if (raw_fd > 0)
		return;
	raw_family = kstat_family_id(h);
	raw_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (raw_fd < 0 || bind(raw_fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("raw socket", -errno);
}

/* ---- summaries ---- */

static int samples_seen;

static void on_sample(const struct kstat_sample *s, void *arg)
{
	(void)arg;
	sink = s->nr_irqs + s->intr_sum;
	samples_seen++;
}

static void on_lost(uint64_t n, enum kstat_lost_reason why, void *arg)
{
	(void)arg;
	fprintf(stderr, "kstat-bench: %llu samples lost (%d)\n",
		(unsigned long long)n, why);
}

static const struct kstat_sub_ops sub_ops = {
	.sample = on_sample,
	.lost = on_lost,
};

static void set_config(uint32_t interval_ms, uint32_t keyframe)
{
	struct kstat_config c = { .interval_ms = interval_ms,
				  .keyframe = keyframe, .batch = 1 };
	int err = kstat_config_set(h, &c, KSTAT_CONFIG_INTERVAL |
				   KSTAT_CONFIG_KEYFRAME | KSTAT_CONFIG_BATCH);

	if (err)
		die("CONFIG_SET", err);
}

/* Wait for @n samples; the thread CPU time they cost, in us. */
static double receive(struct kstat_sub *sub, int n)
{
	struct pollfd pfd = { .fd = kstat_sub_fd(sub), .events = POLLIN };
	double t0 = now_us(CLOCK_THREAD_CPUTIME_ID);

	samples_seen = 0;
	while (samples_seen < n) {
		if (poll(&pfd, 1, 5000) <= 0) {
			fprintf(stderr, "kstat-bench: no summary for 5 s\n");
			exit(1);
		}
		if (kstat_sub_dispatch(sub) < 0)
			die("dispatch", -EIO);
	}
	return now_us(CLOCK_THREAD_CPUTIME_ID) - t0;
}

static void metric_agent(void)
{
	struct stat_result base, k;
	struct kstat_sub *sub;
	double v[64];
	int r, err, per = 5;

	base = measure(proc_agent, CLOCK_THREAD_CPUTIME_ID);
	set_config(50, 10);
	err = kstat_subscribe(h, &sub_ops, NULL, 0, &sub);
	if (err)
		die("subscribe", err);
	receive(sub, 12);	/* warm-up, past the first keyframe */
	for (r = 0; r < repeats && r < 64; r++)
		v[r] = receive(sub, per) / per;
	k = summarize(v, r);
	kstat_unsubscribe(sub);
	report("agent", base, k, "us-cpu/read");
}

static int stats(struct kstat_stats *st)
{
	return kstat_stats_get(h, st);
}

/* A child that subscribes and reads until killed. */
static pid_t spawn_subscriber(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct kstat_handle *ch;
		struct kstat_sub *sub;

		if (kstat_open(&ch) || kstat_subscribe(ch, &sub_ops, NULL, 0, &sub))
			_exit(1);
		for (;;)
			if (kstat_sub_loop(sub))
				_exit(1);
	}
	return pid;
}

/* Mean ns per sample (whole tick, multicast included) with @n listeners. */
static double summary_cost(int n, double secs)
{
	struct kstat_stats a, b;
	pid_t pids[64];
	int i;

	for (i = 0; i < n; i++)
		pids[i] = spawn_subscriber();
	usleep(1500000);	/* all joined, producer running */
	stats(&a);
	usleep(secs * 1e6);
	stats(&b);
	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
	if (b.samples_taken == a.samples_taken)
		return 0;
	return (double)(b.build_ns_total - a.build_ns_total) /
	       (b.samples_taken - a.samples_taken);
}

static void metric_summary(void)
{
	struct kstat_stats st;
	char name[64];
	int i;

	set_config(100, 10);
	for (i = 0; i < nr_subs; i++) {
		snprintf(name, sizeof(name), "summary_cost_%d_subscribers",
			 subs[i]);
		value(name, summary_cost(subs[i], 4) / 1e3, "us/sample");
	}
	stats(&st);
	value("summary_bytes_keyframe", st.keyframe_bytes, "bytes/sample");
	value("summary_bytes_delta", st.delta_bytes, "bytes/sample");
}

static void set_sections(uint32_t sections)
{
	struct kstat_config c = { .sections = sections };
	int err = kstat_config_set(h, &c, KSTAT_CONFIG_SECTIONS);

	if (err)
		die("CONFIG_SET sections", err);
}

/*
 * The producer's cost per sample with one section at a time, one
 * subscriber: where its time goes.  The sections are then restored.
 */
static void metric_sections(void)
{
	static const struct { const char *name; uint32_t bit; } secs[] = {
		{ "cpu", KSTAT_SECTION_CPU },
		{ "irq", KSTAT_SECTION_IRQ },
		{ "softirq", KSTAT_SECTION_SOFTIRQ },
	};
	char name[64];
	unsigned int i;

	set_config(100, 10);
	for (i = 0; i < sizeof(secs) / sizeof(secs[0]); i++) {
		set_sections(secs[i].bit);
		snprintf(name, sizeof(name), "summary_cost_only_%s",
			 secs[i].name);
		value(name, summary_cost(1, 4) / 1e3, "us/sample");
	}
	set_sections(KSTAT_SECTION_ALL);
}

/* The same over a raw socket: the kernel's share, without libkstat's. */
static void raw_irq_percpu(void)
{
	sink = raw_request(KSTAT_CMD_IRQ_GET, 1, KSTAT_A_IRQS, KSTAT_F_PERCPU);
}

static void kstat_irq_percpu(void)
{
	struct kstat_filter f = KSTAT_FILTER_INIT;
	struct kstat_irq_list *l;
	int err;

	f.flags = KSTAT_F_PERCPU;
	err = kstat_irq_list_get(h, &f, &l);
	if (err)
		die("IRQ dump with per-CPU counts", err);
	sink = l->nr ? l->irqs[l->nr - 1].nr_percpu : 0;
	kstat_irq_list_free(l);
}

/*
 * The shape of one IRQ dump with @flags, over a raw socket: its bytes,
 * its messages and the reads it took (one per skb, that is one per
 * dumpit call: a completed dump's NLMSG_DONE rides in its last skb).
 */
struct dump_shape {
	uint64_t bytes, msgs, reads;
};

static struct dump_shape raw_dump_shape(uint32_t flags)
{
	struct {
		struct nlmsghdr nlh;
		struct genlmsghdr g;
		struct nlattr a;
		uint32_t flags;
	} req = {
		.nlh = { .nlmsg_len = sizeof(req), .nlmsg_type = raw_family,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.g = { .cmd = KSTAT_CMD_IRQ_GET, .version = KSTAT_FAMILY_VERSION },
		.a = { .nla_len = NLA_HDRLEN + sizeof(uint32_t),
		       .nla_type = KSTAT_A_SEL_FLAGS },
		.flags = flags,
	};
	struct dump_shape d = { 0 };
	ssize_t n;

	if (!flags)
		req.nlh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	if (send(raw_fd, &req, req.nlh.nlmsg_len, 0) < 0)
		die("raw send", -errno);
	for (;;) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

		n = recv(raw_fd, buf, 64 * 1024, 0);
		if (n < 0)
			die("raw recv", -errno);
		d.reads++;
		for (; NLMSG_OK(nlh, n); nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_type == NLMSG_DONE)
				return d;
			if (nlh->nlmsg_type == NLMSG_ERROR)
				die("raw dump", -EIO);
			d.bytes += nlh->nlmsg_len;
			d.msgs++;
		}
	}
}

/* What a totals dump takes: bytes, messages, dumpit calls. */
static void dump_shape_values(const char *name, uint32_t flags)
{
	struct dump_shape d = raw_dump_shape(flags);
	char n[64];

	snprintf(n, sizeof(n), "%s_bytes", name);
	value(n, d.bytes, "bytes");
	snprintf(n, sizeof(n), "%s_msgs", name);
	value(n, d.msgs, "messages");
	snprintf(n, sizeof(n), "%s_reads", name);
	value(n, d.reads, "dumpit-calls");
}

static void set_percpu(int on)
{
	struct kstat_config c = { .percpu = on };
	int err = kstat_config_set(h, &c, KSTAT_CONFIG_PERCPU);

	if (err)
		die("CONFIG_SET percpu", err);
}

/* The last keyframe's bytes with every sample a keyframe, percpu @on. */
static uint64_t keyframe_bytes(int on)
{
	struct kstat_stats st;
	struct kstat_sub *sub;
	int err;

	set_config(100, 1);
	set_percpu(on);
	err = kstat_subscribe(h, &sub_ops, NULL, 0, &sub);
	if (err)
		die("subscribe", err);
	receive(sub, 4);
	kstat_unsubscribe(sub);
	stats(&st);
	return st.keyframe_bytes;
}

static void metric_percpu(void)
{
	struct dump_shape totals, percpu;
	struct stat_result a, b;

	raw_open();
	measure_pair(kstat_irq_totals, kstat_irq_percpu, CLOCK_MONOTONIC, &a, &b);
	report("percpu_dump_vs_totals", a, b, "us/read");
	measure_pair(raw_irq_totals, raw_irq_percpu, CLOCK_MONOTONIC, &a, &b);
	report("percpu_dump_vs_totals_raw", a, b, "us/read");
	totals = raw_dump_shape(0);
	percpu = raw_dump_shape(KSTAT_F_PERCPU);
	value("dump_bytes_totals", totals.bytes, "bytes");
	value("dump_bytes_percpu", percpu.bytes, "bytes");
	value("dump_reads_totals", totals.reads, "dumpit-calls");
	value("dump_reads_percpu", percpu.reads, "dumpit-calls");
	value("keyframe_bytes_totals", keyframe_bytes(0), "bytes");
	value("keyframe_bytes_percpu", keyframe_bytes(1), "bytes");
	set_percpu(0);
}

static void metric_idle(void)
{
	struct kstat_stats a, b;

	set_config(100, 10);
	usleep(1500000);	/* a running producer notices it is alone */
	stats(&a);
	sleep(idle_secs);
	stats(&b);
	value("idle_samples", b.samples_taken - a.samples_taken, "samples");
}

static double cpu_s(const struct rusage *ru, int sys)
{
	const struct timeval *tv = sys ? &ru->ru_stime : &ru->ru_utime;

	return tv->tv_sec + tv->tv_usec / 1e6;
}

/*
 * The seed's experiment: read /proc/stat @seed_reads times, each a fresh
 * open (as cat(1) or any agent does), to the end, then close.  Nothing is
 * parsed: the seed timed the reads alone.
 */
static void metric_seed(void)
{
	struct rusage a, b;
	double t0, wall;
	int i, fd;

	getrusage(RUSAGE_SELF, &a);
	t0 = now_us(CLOCK_MONOTONIC);
	for (i = 0; i < seed_reads; i++) {
		fd = open("/proc/stat", O_RDONLY);
		if (fd < 0)
			die("/proc/stat", -errno);
		while (read(fd, buf, buf_size) > 0)
			;
		close(fd);
	}
	wall = now_us(CLOCK_MONOTONIC) - t0;
	getrusage(RUSAGE_SELF, &b);
	value("seed_reads", seed_reads, "reads");
	value("seed_wall", wall / 1e6, "s");
	value("seed_sys", cpu_s(&b, 1) - cpu_s(&a, 1), "s");
	value("seed_user", cpu_s(&b, 0) - cpu_s(&a, 0), "s");
	value("seed_per_read", wall / seed_reads, "us/read");
}

static void metric_files(void)
{
	timed("proc_stat", measure(proc_stat_cpu, CLOCK_MONOTONIC), "us/read");
	timed("proc_interrupts", measure(proc_interrupts, CLOCK_MONOTONIC), "us/read");
	timed("proc_softirqs", measure(proc_softirqs, CLOCK_MONOTONIC), "us/read");
}

static void metric_raw(struct stat_result floor_)
{
	raw_open();
	report("floor_libkstat_vs_raw", floor_, measure(raw_floor, CLOCK_MONOTONIC),
	       "us/op");
	report("cpu_libkstat_vs_raw", measure(kstat_cpu, CLOCK_MONOTONIC),
	       measure(raw_cpu, CLOCK_MONOTONIC), "us/read");
}

static int parse_subs(const char *arg)
{
	char *end;
	long v;

	nr_subs = 0;
	do {
		v = strtol(arg, &end, 10);
		if (end == arg || v < 1 || v > 64 || nr_subs == 16 ||
		    (*end && *end != ','))
			return -1;
		subs[nr_subs++] = v;
		arg = end + 1;
	} while (*end);
	return 0;
}

/* The default set, or those named; @opt_in metrics only when named. */
static int wanted_opt(int argc, char **argv, const char *m, int opt_in)
{
	int i;

	if (argc == 0)
		return !opt_in;
	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], m))
			return 1;
	return 0;
}

static int wanted(int argc, char **argv, const char *m)
{
	return wanted_opt(argc, argv, m, 0);
}

int main(int argc, char **argv)
{
	struct stat_result floor_;
	int c, err;

	while ((c = getopt(argc, argv, "r:n:s:N:S:")) != -1) {
		switch (c) {
		case 'r': repeats = atoi(optarg); break;
		case 'n': ops = atoi(optarg); break;
		case 's': idle_secs = atoi(optarg); break;
		case 'N': seed_reads = atoi(optarg); break;
		case 'S':
			if (parse_subs(optarg)) {
				fprintf(stderr, "kstat-bench: -S takes counts 1..64, comma-separated\n");
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: kstat-bench [-r REPEATS] [-n OPS] [-s SECONDS] [-N READS] [-S SUBS] [METRIC...]\n");
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (repeats < 1 || repeats > 64 || ops < 1 || seed_reads < 1) {
		fprintf(stderr, "kstat-bench: -r takes 1..64, -n and -N at least 1\n");
		return 2;
	}
	buf = malloc(buf_size);
	fd_stat = open("/proc/stat", O_RDONLY);
	fd_interrupts = open("/proc/interrupts", O_RDONLY);
	fd_softirqs = open("/proc/softirqs", O_RDONLY);
	if (!buf || fd_stat < 0 || fd_interrupts < 0 || fd_softirqs < 0) {
		perror("kstat-bench: /proc");
		return 1;
	}
	err = kstat_open(&h);
	if (err)
		die("kstat_open", err);
	signal(SIGPIPE, SIG_IGN);

	if (wanted_opt(argc, argv, "seed", 1))
		metric_seed();
	floor_ = measure(kstat_floor, CLOCK_MONOTONIC);
	if (wanted(argc, argv, "floor"))
		report("floor", floor_, floor_, "us/op");
	if (wanted(argc, argv, "cpu"))
		report("cpu", measure(proc_stat_cpu, CLOCK_MONOTONIC),
		       measure(kstat_cpu, CLOCK_MONOTONIC), "us/read");
	if (wanted(argc, argv, "irq")) {
		struct stat_result k = measure(kstat_irq_totals, CLOCK_MONOTONIC);

		report("irq_vs_interrupts", measure(proc_interrupts, CLOCK_MONOTONIC),
		       k, "us/read");
		report("irq_vs_stat_intr", measure(proc_stat_intr, CLOCK_MONOTONIC),
		       k, "us/read");
		raw_open();
		report("irq_libkstat_vs_raw", k, measure(raw_irq_totals, CLOCK_MONOTONIC),
		       "us/read");
		dump_shape_values("irq_dump", 0);
	}
	if (wanted(argc, argv, "raw"))
		metric_raw(floor_);
	if (wanted_opt(argc, argv, "files", 1))
		metric_files();
	if (wanted(argc, argv, "agent"))
		metric_agent();
	if (wanted(argc, argv, "summary"))
		metric_summary();
	if (wanted_opt(argc, argv, "sections", 1))
		metric_sections();
	if (wanted(argc, argv, "idle"))
		metric_idle();
	if (wanted_opt(argc, argv, "percpu", 1))
		metric_percpu();
	set_config(1000, 10);
	kstat_close(h);
	return 0;
}
