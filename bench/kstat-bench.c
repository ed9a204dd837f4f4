// SPDX-License-Identifier: GPL-2.0
/*
 * kstat-bench: kstat (protocol 5) against /proc, side by side, in one run.
 *
 *   kstat-bench [-r REPEATS] [-n OPS] [-s SECONDS] [-N READS] [-R ROUNDS]
 *               [-w WINDOW] [-i INTERVAL] [METRIC...]
 *
 * Two clients read kstat here: libkstat (kstat_get(), subscriptions), and
 * a raw client over libmnl written apart from it, which takes every count
 * out of the replies itself (IRQS runs' packed arrays, the nests' u64s)
 * and nothing else.
 *
 * Metrics (default: floor cpu irq agent sizes idle):
 *   floor    an empty round trip (CONFIG_GET), libkstat and raw
 *   cpu      /proc/stat's cpu lines (pread + parse) against a GET of the
 *            cpu section with per-CPU rows, libkstat and raw, their
 *            rounds alternating
 *   irq      one /proc/stat read (its intr line parsed) against a totals
 *            IRQ dump (GET dump, sections irq, no flags) by the raw client
 *            and by libkstat, the three alternating round by round; then
 *            /proc/interrupts (read + parse) against the same dumps, and
 *            the dump's shape: bytes, messages, dumpit calls
 *   agent    an agent that wants every counter once a sample: reading and
 *            parsing the three procfs files (thread CPU) against a
 *            libkstat subscriber of every section (thread CPU per sample)
 *            plus the producer's time per tick (STATS tick-ns-total over
 *            ticks in the same window); with per-CPU counts (as the
 *            files have them: "agent_percpu") and without ("agent")
 *   sizes    a whole sample's bytes and parts, every section, totals and
 *            per-CPU (an own subscription read by the raw client), and a
 *            per-CPU IRQ dump's shape
 *   idle     with no reader: STATS ticks, tick-ns-total and samples over
 *            SECONDS (all should stay still)
 *
 * Not in the default set (name them):
 *   readers  what readers cost the producer, cases alternating in ROUNDS
 *            rounds of WINDOW-second windows: "union" (one subscription,
 *            250 ms, every section), "eight" (8 subscriptions, 250 ms to
 *            4000 ms, each with other sections; their union is the first
 *            case), "group64" (64 listeners of the summary group at 250 ms,
 *            every section), "idle" (nobody); the producer's cost is STATS'
 *            ticks and tick-ns-total over the window.  Readers are raw
 *            sockets in one child process that only receive.
 *   sections the producer's cost per tick with one section at a time (one
 *            subscription each, 250 ms), in the same rounds as readers
 *   seed     the seed thread's experiment: READS (default 10000) times
 *            open, read to the end and close /proc/stat; wall and system
 *            time of the whole loop, and wall time per read
 *   files    one read + parse of each of the three procfs files alone
 *   percpu   a per-CPU IRQ dump against a totals dump, alternating,
 *            through libkstat and over the raw client
 *   stats    print STATS (value stats_NAME lines) and exit
 *
 * Every timed figure is the median over REPEATS runs of OPS operations
 * (after a warm-up), with the standard deviation over those runs, in
 * microseconds per operation.  Output, one line per figure:
 *   metric NAME base MED SD kstat MED SD unit UNIT
 *   time NAME MED SD unit UNIT
 *   value NAME V unit UNIT
 *   round R CASE elapsed_ns N ticks N tick_ns N samples N readers N received N enobufs N
 * for bench/report.py.  Nothing is asserted.  Runs as root (it changes the
 * default stream's config and restores it), with kstat loaded.
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
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <libkstat.h>

#define ALL_SECTIONS (KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ | KSTAT_SECTION_SOFTIRQ)

static int repeats = 7, ops = 20, idle_secs = 10, seed_reads = 10000;
static int rounds = 5, window_s = 10, agent_interval = 200;
static struct kstat_handle *h;
static char *buf;
static const size_t buf_size = 16 << 20;
static volatile uint64_t sink;	/* keeps what was read alive */

/* ---- timing ---- */

static double now_us(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static uint64_t boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
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

	if (!n)
		return r;
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

/*
 * Median and stddev of the per-op time of each of @fns, their rounds
 * alternating: what else the machine does (a 96-vCPU guest on 2 host
 * cores) weighs on all of them alike, not on whichever ran last.
 */
#define MAX_REPEATS 64
static void measure_n(const op_fn *fns, int n, clockid_t clk,
		      struct stat_result *res)
{
	double v[8][MAX_REPEATS];
	int r, i;

	for (i = 0; i < n; i++) {	/* warm-up: caches, faults, allocations */
		fns[i]();
		fns[i]();
	}
	for (r = 0; r < repeats; r++)
		for (i = 0; i < n; i++)
			v[i][r] = time_ops(fns[i], clk);
	for (i = 0; i < n; i++)
		res[i] = summarize(v[i], repeats);
}

static struct stat_result measure(op_fn fn, clockid_t clk)
{
	struct stat_result r;

	measure_n(&fn, 1, clk, &r);
	return r;
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
	fprintf(stderr, "kstat-bench: %s: %s (%s)\n", what, strerror(err < 0 ? -err : err),
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

/* Every counter of the three files: /proc/stat whole (cpu lines, intr,
 * softirq), /proc/interrupts and /proc/softirqs with their CPU columns. */
static void proc_agent(void)
{
	uint64_t sum = 0;
	const char *p = buf;

	pread_all(fd_stat);
	while (*p)
		p = sum_line(p, &sum);
	sink += sum;
	proc_interrupts();
	proc_softirqs();
}

/* ---- libkstat ---- */

static void lib_get(uint32_t sections, uint32_t flags)
{
	struct kstat_query q = KSTAT_QUERY_INIT;
	struct kstat_sample *s;
	uint64_t sum = 0;
	size_t i;
	int err;

	q.sections = sections;
	q.flags = flags;
	err = kstat_get(h, &q, &s);
	if (err)
		die("kstat_get", err);
	for (i = 0; i < s->nr_irqs; i++)
		sum += kstat_sample_irq(s, i)->count;
	if (s->cpu_total)
		sum += s->cpu_total->ns[KSTAT_CPUTIME_USER];
	for (i = 0; i < s->nr_cpus; i++)
		sum += kstat_sample_cpu(s, i)->ns[KSTAT_CPUTIME_USER];
	sink = sum + s->intr_sum;
	kstat_sample_free(s);
}

static void lib_cpu(void) { lib_get(KSTAT_SECTION_CPU, KSTAT_F_PERCPU); }
static void lib_irq_totals(void) { lib_get(KSTAT_SECTION_IRQ, 0); }
static void lib_irq_percpu(void) { lib_get(KSTAT_SECTION_IRQ, KSTAT_F_PERCPU); }

static void lib_floor(void)
{
	struct kstat_config c;
	int err = kstat_config_get(h, &c);

	if (err)
		die("CONFIG_GET", err);
	sink = c.interval_ms;
}

static void lib_stats(struct kstat_stats *st)
{
	int err = kstat_stats_get(h, st);

	if (err)
		die("STATS_GET", err);
}

static void set_default_stream(uint32_t interval_ms, uint32_t sections, int percpu)
{
	struct kstat_config c = { .interval_ms = interval_ms, .batch = 1,
				  .sections = sections, .percpu = percpu };
	int err = kstat_config_set(h, &c, KSTAT_CONFIG_INTERVAL | KSTAT_CONFIG_BATCH |
				   KSTAT_CONFIG_SECTIONS | KSTAT_CONFIG_PERCPU);

	if (err)
		die("CONFIG_SET", err);
}

/* ---- the raw client: libmnl, apart from libkstat ---- */

static uint16_t raw_family;
static uint32_t raw_group;	/* the summary group's id */
static struct mnl_socket *raw_nl;
static uint32_t raw_seq = 1;
#define RAW_BUF (1 << 20)
static char *raw_buf;

static struct mnl_socket *raw_socket(void)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_GENERIC);
	int one = 1;

	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		die("raw socket", -errno);
	/* extended ACKs, as any client would ask */
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	return nl;
}

static struct nlmsghdr *raw_put(char *b, uint16_t type, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(b);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++raw_seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = type == GENL_ID_CTRL ? 1 : KSTAT_FAMILY_VERSION;
	return nlh;
}

static int ctrl_grp_cb(const struct nlattr *a, void *data)
{
	const struct nlattr *g;
	const char *name = NULL;
	uint32_t id = 0;

	mnl_attr_for_each_nested(g, a) {
		if (mnl_attr_get_type(g) == CTRL_ATTR_MCAST_GRP_NAME)
			name = mnl_attr_get_str(g);
		else if (mnl_attr_get_type(g) == CTRL_ATTR_MCAST_GRP_ID)
			id = mnl_attr_get_u32(g);
	}
	if (name && !strcmp(name, KSTAT_MCGRP_SUMMARY_NAME))
		*(uint32_t *)data = id;
	return MNL_CB_OK;
}

static int ctrl_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *g;

	(void)data;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			raw_family = mnl_attr_get_u16(a);
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GROUPS)
			mnl_attr_for_each_nested(g, a)
				ctrl_grp_cb(g, &raw_group);
	}
	return MNL_CB_OK;
}

/*
 * Send @nlh on @nl and run the answers through @cb: until the ACK or DONE
 * when it asked for one, else the one reply of a do.
 */
static int raw_talk(struct mnl_socket *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	int once = !(nlh->nlmsg_flags & (NLM_F_ACK | NLM_F_DUMP));
	uint32_t seq = nlh->nlmsg_seq, port = mnl_socket_get_portid(nl);
	ssize_t n;
	int ret;

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		n = mnl_socket_recvfrom(nl, raw_buf, RAW_BUF);
		if (n < 0)
			return -errno;
		ret = mnl_cb_run(raw_buf, n, seq, port, cb, data);
	} while (ret > 0 && !once);
	return ret < 0 ? -errno : 0;
}

static void raw_open(void)
{
	char req[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int err;

	if (raw_nl)
		return;
	raw_buf = malloc(RAW_BUF);
	if (!raw_buf)
		die("malloc", -ENOMEM);
	raw_nl = raw_socket();
	nlh = raw_put(req, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, NLM_F_ACK);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, KSTAT_FAMILY_NAME);
	err = raw_talk(raw_nl, nlh, ctrl_cb, NULL);
	if (err || !raw_family || !raw_group)
		die("raw: resolving the kstat family", err ? err : -ENOENT);
}

/* What the raw client takes from a reply: every count, summed. */
struct raw_take {
	uint64_t sum, irqs, objects, msgs, bytes, reads;
};

static void raw_take_nest(const struct nlattr *nest, struct raw_take *t)
{
	const struct nlattr *a;

	t->objects++;
	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_payload_len(a) == sizeof(uint64_t))
			t->sum += mnl_attr_get_u64(a);
}

/* An IRQS run: ids and counts are packed arrays, read in place. */
static void raw_take_irqs(const struct nlattr *nest, struct raw_take *t)
{
	const struct nlattr *a;
	const char *counts = NULL;
	size_t n = 0, i;
	uint64_t c;

	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) == KSTAT_A_IRQS_IDS)
			n = mnl_attr_get_payload_len(a) / sizeof(uint32_t);
		else if (mnl_attr_get_type(a) == KSTAT_A_IRQS_COUNTS)
			counts = mnl_attr_get_payload(a);
	}
	if (!counts)
		return;
	for (i = 0; i < n; i++) {
		memcpy(&c, counts + i * sizeof(c), sizeof(c));	/* 4-byte aligned */
		t->sum += c;
	}
	t->irqs += n;
	t->objects++;
}

static int raw_take_cb(const struct nlmsghdr *nlh, void *data)
{
	struct raw_take *t = data;
	const struct nlattr *a;

	t->msgs++;
	t->bytes += nlh->nlmsg_len;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case KSTAT_A_IRQS:
			raw_take_irqs(a, t);
			break;
		case KSTAT_A_CPU:
		case KSTAT_A_SOFTIRQ:
		case KSTAT_A_ARCH:
			raw_take_nest(a, t);
			break;
		case KSTAT_A_INTR_SUM:
			t->sum += mnl_attr_get_u64(a);
			break;
		}
	}
	return MNL_CB_OK;
}

/* A GET (dump or do) of @sections with @flags, every count taken. */
static struct raw_take raw_get(uint32_t sections, uint32_t flags, int dump)
{
	char req[MNL_SOCKET_BUFFER_SIZE];
	struct raw_take t = { 0 };
	struct nlmsghdr *nlh;
	uint32_t seq, port = mnl_socket_get_portid(raw_nl);
	ssize_t n;
	int ret;

	nlh = raw_put(req, raw_family, KSTAT_CMD_GET, dump ? NLM_F_DUMP : 0);
	mnl_attr_put_u32(nlh, KSTAT_A_SECTIONS, sections);
	if (flags)
		mnl_attr_put_u32(nlh, KSTAT_A_FLAGS, flags);
	seq = nlh->nlmsg_seq;
	if (mnl_socket_sendto(raw_nl, nlh, nlh->nlmsg_len) < 0)
		die("raw send", -errno);
	do {
		n = mnl_socket_recvfrom(raw_nl, raw_buf, RAW_BUF);
		if (n < 0)
			die("raw recv", -errno);
		t.reads++;	/* one skb: one dumpit call */
		ret = mnl_cb_run(raw_buf, n, seq, port, raw_take_cb, &t);
		if (ret < 0)
			die("raw GET", -errno);
	} while (dump && ret > 0);
	return t;
}

static void raw_cpu(void) { sink = raw_get(KSTAT_SECTION_CPU, KSTAT_F_PERCPU, 0).sum; }
static void raw_irq_totals(void) { sink = raw_get(KSTAT_SECTION_IRQ, 0, 1).sum; }
static void raw_irq_percpu(void) { sink = raw_get(KSTAT_SECTION_IRQ, KSTAT_F_PERCPU, 1).sum; }

static int raw_floor_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)data;
	sink = nlh->nlmsg_len;
	return MNL_CB_OK;
}

static void raw_floor(void)
{
	char req[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = raw_put(req, raw_family, KSTAT_CMD_CONFIG_GET, 0);
	int err = raw_talk(raw_nl, nlh, raw_floor_cb, NULL);

	if (err)
		die("raw CONFIG_GET", err);
}

/* ---- readers: raw subscribers in a child process ---- */

struct reader_spec {
	int group;		/* a listener of the summary group */
	uint32_t interval_ms, sections;
	int percpu;
};

/* SUBSCRIBE on @nl: with a config of its own, or (group) the default stream. */
static int raw_subscribe(struct mnl_socket *nl, const struct reader_spec *r)
{
	char req[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = raw_put(req, raw_family, KSTAT_CMD_SUBSCRIBE, NLM_F_ACK);
	struct nlattr *nest;

	if (!r->group) {
		nest = mnl_attr_nest_start(nlh, KSTAT_A_CONFIG);
		mnl_attr_put_u32(nlh, KSTAT_A_CONFIG_INTERVAL_MS, r->interval_ms);
		mnl_attr_put_u32(nlh, KSTAT_A_CONFIG_SECTIONS, r->sections);
		mnl_attr_put_u8(nlh, KSTAT_A_CONFIG_PERCPU, r->percpu);
		mnl_attr_nest_end(nlh, nest);
	} else {
		uint32_t grp = raw_group;

		if (mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)))
			return -errno;
	}
	/* the ACK; a group's samples may come first: mnl_cb_run skips
	 * what is not of this seq only if told to, so drain by hand */
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		int n = mnl_socket_recvfrom(nl, raw_buf, RAW_BUF);
		struct nlmsghdr *m = (struct nlmsghdr *)raw_buf;

		if (n < 0)
			return -errno;
		for (; mnl_nlmsg_ok(m, n); m = mnl_nlmsg_next(m, &n)) {
			if (m->nlmsg_type == NLMSG_ERROR && m->nlmsg_seq == nlh->nlmsg_seq) {
				const struct nlmsgerr *e = mnl_nlmsg_get_payload(m);

				return e->error;
			}
		}
	}
}

/* The PART attribute of a sample's message (0 when absent). */
static uint32_t msg_part(const struct nlmsghdr *nlh, uint32_t *parts, uint64_t *seq)
{
	const struct nlattr *a;
	uint32_t part = 0;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case KSTAT_A_SEQ:
			if (seq)
				*seq = mnl_attr_get_u64(a);
			break;
		case KSTAT_A_PART:
			part = mnl_attr_get_u32(a);
			break;
		case KSTAT_A_PARTS:
			if (parts)
				*parts = mnl_attr_get_u32(a);
			break;
		case KSTAT_A_TIMESTAMP:	/* after SEQ, PART, PARTS: done */
			return part;
		}
	}
	return part;
}

struct reader_state {
	struct mnl_socket *nl;
	uint64_t samples, msgs, bytes, enobufs;
};

/*
 * The child: subscribe every reader, then only receive.  Writes 'R' on
 * @ctl once every reader has had a sample (or after 15 s), and its
 * totals when the parent writes anything back, then exits (the sockets'
 * close ends the subscriptions).
 */
static void readers_child(const struct reader_spec *specs, int n, int ctl)
{
	struct reader_state *rs = calloc(n, sizeof(*rs));
	struct pollfd *pfd = calloc(n + 1, sizeof(*pfd));
	double t0 = now_us(CLOCK_MONOTONIC);
	int i, ready = 0, force = 4 << 20;
	char line[256];

	if (!rs || !pfd)
		_exit(1);
	for (i = 0; i < n; i++) {
		int err;

		rs[i].nl = raw_socket();
		/* room for a burst: the readers measure nothing of their own */
		if (setsockopt(mnl_socket_get_fd(rs[i].nl), SOL_SOCKET, SO_RCVBUFFORCE,
			       &force, sizeof(force)))
			setsockopt(mnl_socket_get_fd(rs[i].nl), SOL_SOCKET, SO_RCVBUF,
				   &force, sizeof(force));
		err = raw_subscribe(rs[i].nl, &specs[i]);
		if (err) {
			snprintf(line, sizeof(line), "E SUBSCRIBE failed: %s\n", strerror(-err));
			if (write(ctl, line, strlen(line)) < 0)
				_exit(1);
			_exit(1);
		}
		pfd[i].fd = mnl_socket_get_fd(rs[i].nl);
		pfd[i].events = POLLIN;
	}
	pfd[n].fd = ctl;
	pfd[n].events = POLLIN;
	for (;;) {
		if (poll(pfd, n + 1, 100) < 0 && errno != EINTR)
			_exit(1);
		for (i = 0; i < n; i++) {
			struct nlmsghdr *m;
			int len;

			if (!(pfd[i].revents & (POLLIN | POLLERR)))
				continue;
			while ((len = recv(pfd[i].fd, raw_buf, RAW_BUF, MSG_DONTWAIT)) != 0) {
				if (len < 0) {
					if (errno == ENOBUFS) {
						rs[i].enobufs++;
						continue;
					}
					break;	/* EAGAIN */
				}
				for (m = (struct nlmsghdr *)raw_buf; mnl_nlmsg_ok(m, len);
				     m = mnl_nlmsg_next(m, &len)) {
					if (m->nlmsg_type != raw_family)
						continue;
					rs[i].msgs++;
					rs[i].bytes += m->nlmsg_len;
					rs[i].samples += msg_part(m, NULL, NULL) == 0;
				}
			}
		}
		if (!ready) {
			for (i = 0; i < n && rs[i].samples; i++)
				;
			if (i == n || now_us(CLOCK_MONOTONIC) - t0 > 15e6) {
				ready = 1;
				if (write(ctl, i == n ? "R\n" : "R timeout\n", i == n ? 2 : 10) < 0)
					_exit(1);
			}
		}
		if (pfd[n].revents) {
			uint64_t s = 0, m = 0, b = 0, e = 0, least = UINT64_MAX;

			for (i = 0; i < n; i++) {
				s += rs[i].samples;
				m += rs[i].msgs;
				b += rs[i].bytes;
				e += rs[i].enobufs;
				if (rs[i].samples < least)
					least = rs[i].samples;
			}
			/* the readers that got nothing, by index, first */
			for (i = 0; i < n; i++)
				if (!rs[i].samples) {
					snprintf(line, sizeof(line), "Z %d %u %u %d\n", i,
						 specs[i].interval_ms, specs[i].sections,
						 specs[i].percpu);
					if (write(ctl, line, strlen(line)) < 0)
						_exit(1);
				}
			snprintf(line, sizeof(line), "D %llu %llu %llu %llu %llu\n",
				 (unsigned long long)s, (unsigned long long)m,
				 (unsigned long long)b, (unsigned long long)e,
				 (unsigned long long)(n ? least : 0));
			if (write(ctl, line, strlen(line)) < 0)
				_exit(1);
			_exit(0);
		}
	}
}

static int read_line(int fd, char *line, size_t size)
{
	size_t len = 0;

	while (len + 1 < size) {
		ssize_t n = read(fd, line + len, 1);

		if (n <= 0)
			return -1;
		if (line[len++] == '\n')
			break;
	}
	line[len] = '\0';
	return 0;
}

/*
 * One window: the readers of @specs subscribed and receiving, STATS read
 * at its start and end; prints a "round" line.
 */
static void readers_window(int round, const char *name,
			   const struct reader_spec *specs, int n)
{
	struct kstat_stats a, b;
	uint64_t t0, t1, s = 0, m = 0, by = 0, e = 0, least = 0;
	int sv[2] = { -1, -1 };
	char line[256];
	pid_t pid = 0;

	if (n) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
			die("socketpair", -errno);
		pid = fork();
		if (pid < 0)
			die("fork", -errno);
		if (!pid) {
			close(sv[0]);
			readers_child(specs, n, sv[1]);
		}
		close(sv[1]);
		if (read_line(sv[0], line, sizeof(line)) || line[0] != 'R') {
			fprintf(stderr, "kstat-bench: %s readers: %s", name, line);
			printf("# %s: %s", name, line);
			waitpid(pid, NULL, 0);
			exit(1);
		}
	}
	if (n && strcmp(line, "R\n"))
		printf("# %s: not every reader had a sample after 15 s\n", name);
	lib_stats(&a);
	t0 = boottime_ns();
	sleep(window_s);
	lib_stats(&b);
	t1 = boottime_ns();
	if (n) {
		unsigned long long v[5];

		if (write(sv[0], "S\n", 2) != 2)
			die("readers' report", -EIO);
		do {
			if (read_line(sv[0], line, sizeof(line)))
				die("readers' report", -EIO);
			if (line[0] == 'Z')
				printf("# %s: reader %s", name, line + 2);
		} while (line[0] == 'Z');
		if (sscanf(line, "D %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4]) != 5)
			die("readers' report", -EIO);
		s = v[0], m = v[1], by = v[2], e = v[3], least = v[4];
		waitpid(pid, NULL, 0);
		close(sv[0]);
		if (!least || e)
			printf("# %s: a reader got nothing or overran: least %llu samples, %llu ENOBUFS\n",
			       name, (unsigned long long)least, (unsigned long long)e);
	}
	printf("round %d %s elapsed_ns %llu ticks %llu tick_ns %llu samples %llu readers %d received %llu enobufs %llu\n",
	       round, name, (unsigned long long)(t1 - t0),
	       (unsigned long long)(b.ticks - a.ticks),
	       (unsigned long long)(b.tick_ns_total - a.tick_ns_total),
	       (unsigned long long)(b.samples - a.samples), n,
	       (unsigned long long)s, (unsigned long long)e);
	(void)m;
	(void)by;
	fflush(stdout);
}

static const struct reader_spec UNION[] = { { 0, 250, ALL_SECTIONS, 0 } };
/* issue 27's eight, kept for the before/after: their union is UNION */
static const struct reader_spec EIGHT[] = {
	{ 0, 250, 2, 0 }, { 0, 500, 1, 0 }, { 0, 750, 4, 0 }, { 0, 1000, 3, 0 },
	{ 0, 1500, 5, 0 }, { 0, 2000, 6, 0 }, { 0, 3000, 7, 0 }, { 0, 4000, 2, 0 },
};
static struct reader_spec GROUP64[64];
static const struct reader_spec ONLY[3][1] = {
	{ { 0, 250, KSTAT_SECTION_CPU, 0 } },
	{ { 0, 250, KSTAT_SECTION_IRQ, 0 } },
	{ { 0, 250, KSTAT_SECTION_SOFTIRQ, 0 } },
};

static void readers_rounds(int readers, int sections)
{
	struct kstat_config saved;
	int r, i, err;

	raw_open();
	err = kstat_config_get(h, &saved);
	if (err)
		die("CONFIG_GET", err);
	for (i = 0; i < 64; i++)
		GROUP64[i] = (struct reader_spec){ 1, 0, 0, 0 };
	printf("# readers: %d rounds of %d s windows; irqs %s cpus %ld\n", rounds, window_s,
	       getenv("BENCH_DESCRIPTORS") ?: "?", sysconf(_SC_NPROCESSORS_ONLN));
	for (r = 1; r <= rounds; r++) {
		if (readers) {
			readers_window(r, "union", UNION, 1);
			readers_window(r, "eight", EIGHT, 8);
			set_default_stream(250, ALL_SECTIONS, 0);
			readers_window(r, "group64", GROUP64, 64);
			set_default_stream(saved.interval_ms, saved.sections, saved.percpu);
		}
		if (sections) {
			readers_window(r, "only_cpu", ONLY[0], 1);
			readers_window(r, "only_irq", ONLY[1], 1);
			readers_window(r, "only_softirq", ONLY[2], 1);
			if (!readers)
				readers_window(r, "union", UNION, 1);
		}
		sleep(2);	/* the last readers' subscriptions end with their sockets */
		readers_window(r, "idle", NULL, 0);
	}
}

/* ---- sizes: a whole sample, as the raw client receives it ---- */

/* Bytes and parts of one whole sample of an own subscription. */
static void sample_size(const char *name, uint32_t sections, int percpu)
{
	struct reader_spec spec = { 0, 100, sections, percpu };
	struct mnl_socket *nl = raw_socket();
	int force = 4 << 20, err, got = 0;
	uint64_t cur = UINT64_MAX, bytes = 0, largest = 0, msgs = 0;
	uint32_t parts = 1;
	char n[96];

	setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUFFORCE, &force, sizeof(force));
	err = raw_subscribe(nl, &spec);
	if (err)
		die("raw SUBSCRIBE", err);
	/* the second whole sample: the first may have come in mid-way */
	while (got < 2) {
		int len = mnl_socket_recvfrom(nl, raw_buf, RAW_BUF);
		struct nlmsghdr *m;

		if (len < 0)
			die("raw recv", -errno);
		for (m = (struct nlmsghdr *)raw_buf; mnl_nlmsg_ok(m, len); m = mnl_nlmsg_next(m, &len)) {
			uint64_t seq = 0;
			uint32_t part, p = 1;

			if (m->nlmsg_type != raw_family)
				continue;
			part = msg_part(m, &p, &seq);
			if (seq != cur) {
				cur = seq;
				bytes = largest = msgs = 0;
			}
			parts = p;
			bytes += m->nlmsg_len;
			msgs++;
			if (m->nlmsg_len > largest)
				largest = m->nlmsg_len;
			if (part + 1 == parts && msgs == parts)
				got++;
		}
	}
	mnl_socket_close(nl);
	snprintf(n, sizeof(n), "sample_bytes_%s", name);
	value(n, bytes, "bytes");
	snprintf(n, sizeof(n), "sample_parts_%s", name);
	value(n, parts, "parts");
	snprintf(n, sizeof(n), "sample_largest_part_%s", name);
	value(n, largest, "bytes");
}

static void dump_shape(const char *name, uint32_t sections, uint32_t flags)
{
	struct raw_take t = raw_get(sections, flags, 1);
	char n[96];

	snprintf(n, sizeof(n), "%s_bytes", name);
	value(n, t.bytes, "bytes");
	snprintf(n, sizeof(n), "%s_msgs", name);
	value(n, t.msgs, "messages");
	snprintf(n, sizeof(n), "%s_reads", name);
	value(n, t.reads, "dumpit-calls");
	snprintf(n, sizeof(n), "%s_irqs", name);
	value(n, t.irqs, "IRQs");
}

static void metric_sizes(void)
{
	raw_open();
	sample_size("totals", ALL_SECTIONS, 0);
	sample_size("percpu", ALL_SECTIONS, 1);
	sample_size("irq_totals", KSTAT_SECTION_IRQ, 0);
	dump_shape("irq_dump_percpu", KSTAT_SECTION_IRQ, KSTAT_F_PERCPU);
	dump_shape("dump_all_percpu", ALL_SECTIONS, KSTAT_F_PERCPU);
}

/* ---- the agent ---- */

static int samples_seen;

static void on_sample(const struct kstat_sample *s, void *arg)
{
	uint64_t sum = s->intr_sum;
	size_t i, j;

	(void)arg;
	/* take every counter, as the procfs agent does */
	for (i = 0; i < s->nr_irqs; i++) {
		const struct kstat_irq *q = kstat_sample_irq(s, i);

		sum += q->count;
		for (j = 0; j < q->nr_percpu; j++)
			sum += q->percpu[j].count;
	}
	for (i = 0; i < s->nr_softirqs; i++)
		sum += kstat_sample_softirq(s, i)->count;
	for (i = 0; i < s->nr_cpus; i++)
		sum += kstat_sample_cpu(s, i)->ns[KSTAT_CPUTIME_USER];
	sink = sum;
	if (!s->from_get)
		samples_seen++;
}

static void on_lost(uint64_t n, enum kstat_lost_reason why, void *arg)
{
	(void)arg;
	fprintf(stderr, "kstat-bench: %llu samples lost (%s)\n",
		(unsigned long long)n, kstat_lost_reason_name(why));
}

static const struct kstat_sub_ops sub_ops = {
	.sample = on_sample,
	.lost = on_lost,
};

/* Wait for @n samples; the thread CPU time they cost, in us. */
static double receive(struct kstat_sub *sub, int n)
{
	struct pollfd pfd = { .fd = kstat_sub_fd(sub), .events = POLLIN };
	double t0 = now_us(CLOCK_THREAD_CPUTIME_ID);
	int err;

	samples_seen = 0;
	while (samples_seen < n) {
		if (poll(&pfd, 1, 10000) <= 0) {
			fprintf(stderr, "kstat-bench: no sample for 10 s\n");
			exit(1);
		}
		err = kstat_sub_dispatch(sub);
		if (err < 0)
			die("dispatch", err);
	}
	return now_us(CLOCK_THREAD_CPUTIME_ID) - t0;
}

/*
 * The agent: every section once a sample, @percpu or not.  The kstat
 * side per sample: the subscriber's thread CPU plus the producer's
 * tick-ns-total / ticks over the same rounds (one subscriber, no other
 * reader: one sample a tick).
 */
static void agent(const char *name, int percpu)
{
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct stat_result base, sub_r, prod_r, all_r;
	double vs[MAX_REPEATS], vp[MAX_REPEATS], va[MAX_REPEATS];
	struct kstat_stats a, b;
	struct kstat_sub *sub;
	int r, err, per = 5;
	char n[96];

	base = measure(proc_agent, CLOCK_THREAD_CPUTIME_ID);
	o.fields = KSTAT_CONFIG_INTERVAL | KSTAT_CONFIG_SECTIONS | KSTAT_CONFIG_PERCPU;
	o.interval_ms = agent_interval;
	o.sections = ALL_SECTIONS;
	o.percpu = percpu;
	err = kstat_subscribe(&sub_ops, &o, NULL, &sub);
	if (err)
		die("kstat_subscribe", err);
	receive(sub, 3);	/* warm-up: the GET on joining, then samples */
	for (r = 0; r < repeats; r++) {
		lib_stats(&a);
		vs[r] = receive(sub, per) / per;
		lib_stats(&b);
		vp[r] = b.ticks > a.ticks ?
			(double)(b.tick_ns_total - a.tick_ns_total) / (b.ticks - a.ticks) / 1e3 : 0;
		va[r] = vs[r] + vp[r];
	}
	kstat_unsubscribe(sub);
	sub_r = summarize(vs, repeats);
	prod_r = summarize(vp, repeats);
	all_r = summarize(va, repeats);
	report(name, base, all_r, "us-cpu/sample");
	snprintf(n, sizeof(n), "%s_subscriber", name);
	timed(n, sub_r, "us-cpu/sample");
	snprintf(n, sizeof(n), "%s_producer", name);
	timed(n, prod_r, "us/tick");
}

static void metric_idle(void)
{
	struct kstat_stats a, b;

	sleep(2);	/* a running producer notices it is alone */
	lib_stats(&a);
	sleep(idle_secs);
	lib_stats(&b);
	value("idle_ticks", b.ticks - a.ticks, "ticks");
	value("idle_tick_ns", b.tick_ns_total - a.tick_ns_total, "ns");
	value("idle_samples", b.samples - a.samples, "samples");
	value("idle_running", b.running, "flag");
}

static void metric_stats(void)
{
	struct kstat_stats st;

	lib_stats(&st);
	value("stats_ticks", st.ticks, "ticks");
	value("stats_tick_ns_total", st.tick_ns_total, "ns");
	value("stats_tick_ns_max", st.tick_ns_max, "ns");
	value("stats_samples", st.samples, "samples");
	value("stats_messages", st.messages, "messages");
	value("stats_bytes", st.bytes, "bytes");
	value("stats_delivery_failures", st.delivery_failures, "messages");
	value("stats_subscriptions", st.subscriptions, "subscriptions");
	value("stats_interval_ms", st.interval_ms, "ms");
	value("stats_running", st.running, "flag");
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

static void metric_floor(void)
{
	const op_fn f[] = { lib_floor, raw_floor };
	struct stat_result r[2];

	raw_open();
	measure_n(f, 2, CLOCK_MONOTONIC, r);
	report("floor_libkstat_vs_raw", r[0], r[1], "us/op");
}

static void metric_cpu(void)
{
	const op_fn f[] = { proc_stat_cpu, lib_cpu, raw_cpu };
	struct stat_result r[3];

	raw_open();
	measure_n(f, 3, CLOCK_MONOTONIC, r);
	report("cpu", r[0], r[1], "us/read");
	report("cpu_raw", r[0], r[2], "us/read");
}

static void metric_irq(void)
{
	const op_fn f[] = { proc_stat_intr, raw_irq_totals, lib_irq_totals };
	const op_fn g[] = { proc_interrupts, raw_irq_totals, lib_irq_totals };
	struct stat_result r[3];

	raw_open();
	measure_n(f, 3, CLOCK_MONOTONIC, r);
	report("irq_vs_stat_raw", r[0], r[1], "us/read");
	report("irq_vs_stat_intr", r[0], r[2], "us/read");
	report("irq_libkstat_vs_raw", r[2], r[1], "us/read");
	measure_n(g, 3, CLOCK_MONOTONIC, r);
	report("irq_vs_interrupts_raw", r[0], r[1], "us/read");
	report("irq_vs_interrupts", r[0], r[2], "us/read");
	dump_shape("irq_dump", KSTAT_SECTION_IRQ, 0);
}

static void metric_percpu(void)
{
	const op_fn f[] = { lib_irq_totals, lib_irq_percpu, raw_irq_totals, raw_irq_percpu };
	struct stat_result r[4];

	raw_open();
	measure_n(f, 4, CLOCK_MONOTONIC, r);
	report("percpu_dump_vs_totals", r[0], r[1], "us/read");
	report("percpu_dump_vs_totals_raw", r[2], r[3], "us/read");
	dump_shape("dump_totals", KSTAT_SECTION_IRQ, 0);
	dump_shape("dump_percpu", KSTAT_SECTION_IRQ, KSTAT_F_PERCPU);
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
	static const char *const known[] = {
		"floor", "cpu", "irq", "agent", "sizes", "idle", "readers",
		"sections", "seed", "files", "percpu", "stats",
	};
	int c, err, i;
	unsigned int k;

	while ((c = getopt(argc, argv, "r:n:s:N:R:w:i:")) != -1) {
		switch (c) {
		case 'r': repeats = atoi(optarg); break;
		case 'n': ops = atoi(optarg); break;
		case 's': idle_secs = atoi(optarg); break;
		case 'N': seed_reads = atoi(optarg); break;
		case 'R': rounds = atoi(optarg); break;
		case 'w': window_s = atoi(optarg); break;
		case 'i': agent_interval = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: kstat-bench [-r REPEATS] [-n OPS] [-s SECONDS] [-N READS] [-R ROUNDS] [-w WINDOW] [-i INTERVAL] [METRIC...]\n");
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (repeats < 1 || repeats > MAX_REPEATS || ops < 1 || seed_reads < 1 ||
	    rounds < 1 || window_s < 1 || agent_interval < 10) {
		fprintf(stderr, "kstat-bench: -r takes 1..64, -n -N -R -w at least 1, -i at least 10\n");
		return 2;
	}
	for (i = 0; i < argc; i++) {
		for (k = 0; k < sizeof(known) / sizeof(known[0]); k++)
			if (!strcmp(argv[i], known[k]))
				break;
		if (k == sizeof(known) / sizeof(known[0])) {
			fprintf(stderr, "kstat-bench: no metric %s\n", argv[i]);
			return 2;
		}
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
	printf("# kstat family version %u\n", kstat_family_version(h));

	if (wanted_opt(argc, argv, "stats", 1)) {
		metric_stats();
		kstat_close(h);
		return 0;
	}
	if (wanted_opt(argc, argv, "seed", 1))
		metric_seed();
	if (wanted(argc, argv, "floor"))
		metric_floor();
	if (wanted(argc, argv, "cpu"))
		metric_cpu();
	if (wanted(argc, argv, "irq"))
		metric_irq();
	if (wanted_opt(argc, argv, "files", 1))
		metric_files();
	if (wanted(argc, argv, "agent")) {
		agent("agent", 0);
		agent("agent_percpu", 1);
	}
	if (wanted(argc, argv, "sizes"))
		metric_sizes();
	if (wanted_opt(argc, argv, "percpu", 1))
		metric_percpu();
	if (wanted(argc, argv, "idle"))
		metric_idle();
	if (wanted_opt(argc, argv, "readers", 1) || wanted_opt(argc, argv, "sections", 1))
		readers_rounds(wanted_opt(argc, argv, "readers", 1),
			       wanted_opt(argc, argv, "sections", 1));
	kstat_close(h);
	return 0;
}
