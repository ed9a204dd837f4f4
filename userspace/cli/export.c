// SPDX-License-Identifier: GPL-2.0
/*
 * kstat export prometheus: the latest summary sample in the Prometheus text
 * exposition format (0.0.4), served over HTTP (--listen) and/or written to
 * a node_exporter textfile (--textfile), from the same event loop as
 * kstat monitor (subscribe.c).
 *
 * A scrape reads no /proc file and sends the kernel nothing: each sample
 * is copied into a snapshot, and the text is rendered from it on the first
 * scrape after it changed.  The only requests are one IRQ dump with
 * metadata (for the chip, hwirq, type and actions labels) after the first
 * sample and after each generation change (the IRQ set changed).
 */
#define _GNU_SOURCE		/* accept4() */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "irqlabels.h"
#include "kstat.h"

#define MAX_CONNS	256		/* clients served at once */
#define REQ_MAX		4096		/* request line and headers */
#define CONN_TIMEOUT_MS	10000		/* a client's whole exchange */
#define NSEC_PER_SEC	((uint64_t)1000000000)

static const char export_usage[] =
	"Usage: kstat export prometheus [ --listen ADDR:PORT ] [ --textfile PATH ]\n"
	"       kstat export help\n"
	"\n"
	"Export the kernel's summaries as Prometheus metrics (text format\n"
	"0.0.4) until SIGINT or SIGTERM.  At least one of:\n"
	"  --listen ADDR:PORT  serve GET /metrics over HTTP; ADDR is an IPv4 or\n"
	"                      a bracketed IPv6 literal: 127.0.0.1:9586,\n"
	"                      [::1]:9586, 0.0.0.0:9586, [::]:9586\n"
	"  --textfile PATH     rewrite PATH atomically after every summary, for\n"
	"                      node_exporter's textfile collector (*.prom)\n"
	"A scrape costs no /proc read and no kernel request: it serves the\n"
	"latest sample.  Until the first sample arrives, and while the module is\n"
	"unloaded, only the kstat_exporter_* metrics are exported, with\n"
	"kstat_exporter_up 0.  See docs/exporter.md.\n";

/* ---- a growable text buffer ---- */

struct buf {
	char *p;
	size_t len, cap;
	bool oom;
};

static bool buf_grow(struct buf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *p;

	if (b->oom)
		return false;
	while (cap < b->len + more)
		cap *= 2;
	if (cap == b->cap)
		return true;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

static void buf_write(struct buf *b, const char *s, size_t n)
{
	if (!buf_grow(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		if (b->oom)
			return;
		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL, b->cap - b->len,
			      fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if ((size_t)n < b->cap - b->len) {
			b->len += n;
			return;
		}
		buf_grow(b, (size_t)n + 1);
	}
}

/* A label value, escaped as the exposition format asks: \\ \" \n. */
static void buf_label(struct buf *b, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\')
			buf_write(b, "\\\\", 2);
		else if (*s == '"')
			buf_write(b, "\\\"", 2);
		else if (*s == '\n')
			buf_write(b, "\\n", 2);
		else
			buf_write(b, s, 1);
	}
}

static void buf_free(struct buf *b)
{
	free(b->p);
	*b = (struct buf){ 0 };
}

/* ---- the latest sample, copied ---- */

struct snap_irq {
	uint32_t irq;
	uint64_t count;
	uint32_t *percpu;
	uint32_t nr_percpu, cap_percpu;
};

/* A softirq vector or an arch row. */
struct snap_row {
	char *name;
	char *desc;
	uint64_t count;
};

struct snap {
	bool valid;
	uint64_t seq, ts;
	uint32_t generation;
	struct kstat_config cfg;
	struct kstat_cputime *cpus;	/* online CPUs, no total */
	size_t nr_cpus, cap_cpus;
	struct snap_irq *irqs;
	size_t nr_irqs, cap_irqs;
	struct snap_row *softirqs;
	size_t nr_softirqs, cap_softirqs;
	struct snap_row *arch;
	size_t nr_arch, cap_arch;
	uint64_t intr_sum;
};

/* Room for @need elements; new ones zeroed. */
static bool grow(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * size);
	if (!p)
		return false;
	memset((char *)p + *cap * size, 0, (n - *cap) * size);
	*arr = p;
	*cap = n;
	return true;
}

/* Strings change rarely (arch descriptions, never softirq names). */
static bool set_str(char **dst, const char *src)
{
	if (!src)
		src = "";
	if (*dst && !strcmp(*dst, src))
		return true;
	free(*dst);
	*dst = strdup(src);
	return *dst != NULL;
}

static bool copy_cpus(struct snap *n, const struct kstat_sample *s)
{
	size_t i;

	if (!grow((void **)&n->cpus, &n->cap_cpus, s->nr_cpus, sizeof(*n->cpus)))
		return false;
	n->nr_cpus = 0;
	for (i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i].cpu >= 0)
			n->cpus[n->nr_cpus++] = s->cpus[i];
	return true;
}

static bool copy_irq(struct snap_irq *d, const struct kstat_irq *q)
{
	uint32_t *p;

	d->irq = q->irq;
	d->count = q->count;
	d->nr_percpu = 0;
	if (!q->percpu)
		return true;
	if (q->nr_percpu > d->cap_percpu) {
		p = realloc(d->percpu, q->nr_percpu * sizeof(*p));
		if (!p)
			return false;
		d->percpu = p;
		d->cap_percpu = q->nr_percpu;
	}
	memcpy(d->percpu, q->percpu, q->nr_percpu * sizeof(*d->percpu));
	d->nr_percpu = q->nr_percpu;
	return true;
}

static bool copy_irqs(struct snap *n, const struct kstat_sample *s)
{
	size_t i;

	if (!grow((void **)&n->irqs, &n->cap_irqs, s->nr_irqs, sizeof(*n->irqs)))
		return false;
	for (i = 0; i < s->nr_irqs; i++)
		if (!copy_irq(&n->irqs[i], &s->irqs[i]))
			return false;
	n->nr_irqs = s->nr_irqs;
	return true;
}

static bool copy_rows(struct snap *n, const struct kstat_sample *s)
{
	size_t i;

	if (!grow((void **)&n->softirqs, &n->cap_softirqs, s->nr_softirqs,
		  sizeof(*n->softirqs)) ||
	    !grow((void **)&n->arch, &n->cap_arch, s->nr_arch, sizeof(*n->arch)))
		return false;
	for (i = 0; i < s->nr_softirqs; i++) {
		n->softirqs[i].count = s->softirqs[i].count;
		if (!set_str(&n->softirqs[i].name, s->softirqs[i].name))
			return false;
	}
	n->nr_softirqs = s->nr_softirqs;
	for (i = 0; i < s->nr_arch; i++) {
		n->arch[i].count = s->arch[i].count;
		if (!set_str(&n->arch[i].name, s->arch[i].name) ||
		    !set_str(&n->arch[i].desc, s->arch[i].desc))
			return false;
	}
	n->nr_arch = s->nr_arch;
	return true;
}

static bool snap_copy(struct snap *n, const struct kstat_sample *s)
{
	n->valid = false;
	if (!copy_cpus(n, s) || !copy_irqs(n, s) || !copy_rows(n, s))
		return false;
	n->seq = s->seq;
	n->ts = s->timestamp_ns;
	n->generation = s->generation;
	n->cfg = s->config;
	n->intr_sum = s->intr_sum;
	n->valid = true;
	return true;
}

static void snap_free(struct snap *n)
{
	size_t i;

	for (i = 0; i < n->cap_irqs; i++)
		free(n->irqs[i].percpu);
	for (i = 0; i < n->cap_softirqs; i++)
		free(n->softirqs[i].name);
	for (i = 0; i < n->cap_arch; i++) {
		free(n->arch[i].name);
		free(n->arch[i].desc);
	}
	free(n->cpus);
	free(n->irqs);
	free(n->softirqs);
	free(n->arch);
}

/* ---- IRQ labels, reloaded when the IRQ set changes ---- */

struct meta {
	struct irq_labels labels;
	bool loaded;
	uint32_t generation;	/* of the sample that asked for them */
};

/* Failure keeps the old labels; the next sample tries again. */
static bool meta_load(struct meta *m, uint32_t generation)
{
	if (irq_labels_load(&m->labels))
		return false;
	m->loaded = true;
	m->generation = generation;
	return true;
}

/* ---- the exporter ---- */

struct conn {
	int fd;				/* -1: free slot */
	uint64_t deadline_ms;		/* CLOCK_MONOTONIC */
	char req[REQ_MAX];
	size_t req_len;
	struct buf out;
	size_t sent;
	bool writing;
};

struct exporter {
	struct snap snap;
	struct meta meta;
	uint64_t samples, lost;
	bool oom;			/* a sample could not be copied */
	bool done;

	struct buf data;		/* the families rendered from snap */
	bool data_valid;
	uint64_t data_seq;
	struct buf body;		/* scratch: one exposition */

	const char *textfile;
	uint64_t file_seq;
	bool file_written;		/* since the first sample */
	bool file_due;			/* rewrite it, sample or not */
	bool file_failing;		/* the error was printed */

	const char *listen;
	int lfd;
	struct conn *conns;
	unsigned int nr_conns;
	int slot[MAX_CONNS + 1];	/* pollfd -> conn, -1: listener */
};

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void on_sample(const struct kstat_sample *s, void *arg)
{
	struct exporter *ex = arg;

	ex->samples++;
	if (!snap_copy(&ex->snap, s))
		ex->oom = true;
}

static void on_lost(uint64_t lost, enum kstat_lost_reason why, void *arg)
{
	struct exporter *ex = arg;

	(void)why;
	ex->lost += lost;
}

/*
 * The module went away: kstat_exporter_up 0 and no data until samples
 * come again (seq and generation restart, so nothing cached is kept).
 */
static void on_family(int present, void *arg)
{
	struct exporter *ex = arg;

	if (present)
		return;
	ex->snap.valid = false;
	ex->data_valid = false;
	ex->meta.loaded = false;
	ex->file_due = true;
}

/* ---- rendering ---- */

static void family(struct buf *b, const char *name, const char *type,
		   const char *help)
{
	buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void put_seconds(struct buf *b, uint64_t ns)
{
	buf_printf(b, "%" PRIu64 ".%09" PRIu64 "\n", ns / NSEC_PER_SEC,
		   ns % NSEC_PER_SEC);
}

static void render_cpus(struct buf *b, const struct snap *n)
{
	static const char guest[] = "kstat_cpu_guest_seconds_total";
	static const char cpu[] = "kstat_cpu_seconds_total";
	size_t i;
	int f;

	family(b, cpu, "counter", "Seconds the CPUs spent in each mode.");
	for (i = 0; i < n->nr_cpus; i++) {
		for (f = KSTAT_CPUTIME_USER; f <= KSTAT_CPUTIME_STEAL; f++) {
			buf_printf(b, "%s{cpu=\"%d\",mode=\"%s\"} ", cpu,
				   n->cpus[i].cpu, kstat_cputime_name(f));
			put_seconds(b, n->cpus[i].ns[f]);
		}
	}
	family(b, guest, "counter",
	       "Seconds the CPUs spent running guests (also counted in user and nice).");
	for (i = 0; i < n->nr_cpus; i++) {
		buf_printf(b, "%s{cpu=\"%d\",mode=\"user\"} ", guest,
			   n->cpus[i].cpu);
		put_seconds(b, n->cpus[i].ns[KSTAT_CPUTIME_GUEST]);
		buf_printf(b, "%s{cpu=\"%d\",mode=\"nice\"} ", guest,
			   n->cpus[i].cpu);
		put_seconds(b, n->cpus[i].ns[KSTAT_CPUTIME_GUEST_NICE]);
	}
}

static void put_irq_labels(struct buf *b, const struct meta *m, uint32_t irq)
{
	static const struct irq_label none = { .hwirq = "" };
	const struct irq_label *q = irq_label(&m->labels, irq) ?: &none;

	buf_printf(b, "{irq=\"%u\",chip=\"", irq);
	buf_label(b, q->chip);
	buf_printf(b, "\",hwirq=\"%s\",type=\"", q->hwirq);
	buf_label(b, q->type);
	buf_write(b, "\",actions=\"", 11);
	buf_label(b, q->actions);
	buf_write(b, "\"}", 2);
}

static void render_irq_percpu(struct buf *b, const struct snap *n)
{
	static const char name[] = "kstat_interrupts_cpu_total";
	uint32_t c;
	size_t i;

	family(b, name, "counter",
	       "Interrupts per IRQ and CPU (the kernel's 32-bit per-CPU counters).");
	for (i = 0; i < n->nr_irqs; i++)
		for (c = 0; c < n->irqs[i].nr_percpu; c++)
			buf_printf(b, "%s{irq=\"%u\",cpu=\"%u\"} %u\n", name,
				   n->irqs[i].irq, c, n->irqs[i].percpu[c]);
}

static void render_irqs(struct buf *b, const struct snap *n,
			const struct meta *m)
{
	size_t i;

	family(b, "kstat_interrupts_total", "counter",
	       "Interrupts per IRQ, all CPUs together.");
	for (i = 0; i < n->nr_irqs; i++) {
		buf_write(b, "kstat_interrupts_total", 22);
		put_irq_labels(b, m, n->irqs[i].irq);
		buf_printf(b, " %" PRIu64 "\n", n->irqs[i].count);
	}
	if (n->cfg.percpu)
		render_irq_percpu(b, n);
	family(b, "kstat_arch_interrupts_total", "counter",
	       "Architecture interrupt counters (x86: NMI, LOC, ...), all CPUs together.");
	for (i = 0; i < n->nr_arch; i++) {
		buf_write(b, "kstat_arch_interrupts_total{name=\"", 34);
		buf_label(b, n->arch[i].name);
		buf_write(b, "\",desc=\"", 8);
		buf_label(b, n->arch[i].desc);
		buf_printf(b, "\"} %" PRIu64 "\n", n->arch[i].count);
	}
	family(b, "kstat_intr_total", "counter",
	       "Interrupts of every IRQ and reported arch counter (the intr line of /proc/stat).");
	buf_printf(b, "kstat_intr_total %" PRIu64 "\n", n->intr_sum);
}

static void render_softirqs(struct buf *b, const struct snap *n)
{
	size_t i;

	family(b, "kstat_softirqs_total", "counter",
	       "Softirqs run per vector, all CPUs together.");
	for (i = 0; i < n->nr_softirqs; i++) {
		buf_write(b, "kstat_softirqs_total{vector=\"", 29);
		buf_label(b, n->softirqs[i].name);
		buf_printf(b, "\"} %" PRIu64 "\n", n->softirqs[i].count);
	}
}

/* The data families, rendered again only when the sample changed. */
static const struct buf *render_data(struct exporter *ex)
{
	const struct snap *n = &ex->snap;

	if (ex->data_valid && ex->data_seq == n->seq)
		return &ex->data;
	ex->data.len = 0;
	ex->data.oom = false;
	if (n->cfg.sections & KSTAT_SECTION_CPU)
		render_cpus(&ex->data, n);
	if (n->cfg.sections & KSTAT_SECTION_IRQ)
		render_irqs(&ex->data, n, &ex->meta);
	if (n->cfg.sections & KSTAT_SECTION_SOFTIRQ)
		render_softirqs(&ex->data, n);
	ex->data_valid = !ex->data.oom;
	ex->data_seq = n->seq;
	return &ex->data;
}

static void render_health(struct buf *b, const struct exporter *ex)
{
	const struct snap *n = &ex->snap;
	uint64_t now, age;

	family(b, "kstat_exporter_up", "gauge",
	       "1 once a summary sample has arrived from the kernel, 0 while the module is unloaded.");
	buf_printf(b, "kstat_exporter_up %d\n", n->valid);
	family(b, "kstat_exporter_samples_total", "counter",
	       "Summary samples received from the kernel.");
	buf_printf(b, "kstat_exporter_samples_total %" PRIu64 "\n", ex->samples);
	family(b, "kstat_exporter_samples_lost_total", "counter",
	       "Summary samples lost (sequence gaps, socket overruns, broken batches).");
	buf_printf(b, "kstat_exporter_samples_lost_total %" PRIu64 "\n", ex->lost);
	if (!n->valid)
		return;
	now = clock_ns(CLOCK_BOOTTIME);
	age = now > n->ts ? now - n->ts : 0;
	family(b, "kstat_exporter_last_sample_age_seconds", "gauge",
	       "Age of the exported sample (CLOCK_BOOTTIME).");
	buf_printf(b, "kstat_exporter_last_sample_age_seconds %" PRIu64 ".%06" PRIu64 "\n",
		   age / NSEC_PER_SEC, age % NSEC_PER_SEC / 1000);
	family(b, "kstat_exporter_last_sample_seq", "gauge",
	       "Sequence number of the exported sample.");
	buf_printf(b, "kstat_exporter_last_sample_seq %" PRIu64 "\n", n->seq);
	family(b, "kstat_exporter_interval_seconds", "gauge",
	       "The kernel's summary sampling interval.");
	buf_printf(b, "kstat_exporter_interval_seconds %u.%03u\n",
		   n->cfg.interval_ms / 1000, n->cfg.interval_ms % 1000);
}

/* One exposition, for a scrape or the textfile: into ex->body. */
static const struct buf *metrics_write(struct exporter *ex)
{
	const struct buf *d;

	ex->body.len = 0;
	ex->body.oom = false;
	render_health(&ex->body, ex);
	if (ex->snap.valid) {
		d = render_data(ex);
		buf_write(&ex->body, d->p, d->len);
		if (d->oom)
			ex->body.oom = true;
	}
	return &ex->body;
}

/* ---- textfile ---- */

static int write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * Write PATH.tmp.PID, fsync it and rename it over PATH: a reader sees the
 * old file or the new one, never a part.  0, or -1 after printing why
 * (once while the error lasts).
 */
static int textfile_write(struct exporter *ex)
{
	const struct buf *b = metrics_write(ex);
	char tmp[PATH_MAX];
	const char *what = "write";
	int fd, err = 0;

	if (b->oom) {
		errno = ENOMEM;
		goto fail_nofile;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", ex->textfile, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		goto fail_nofile;
	if (write_all(fd, b->p, b->len) || fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	if (!err && rename(tmp, ex->textfile)) {
		err = errno;
		what = "rename";
	}
	if (!err) {
		ex->file_failing = false;
		return 0;
	}
	unlink(tmp);
	errno = err;
	if (!ex->file_failing)
		kstat_err("cannot %s the textfile %s: %s (is its directory writable?)",
			  what, tmp, strerror(errno));
	ex->file_failing = true;
	return -1;
fail_nofile:
	if (!ex->file_failing)
		kstat_err("cannot write the textfile %s: %s (is its directory writable?)",
			  ex->textfile, strerror(errno));
	ex->file_failing = true;
	return -1;
}

/* After each dispatch: a new sample, or the family gone, is a new file. */
static void textfile_update(struct exporter *ex)
{
	if (!ex->textfile || (!ex->snap.valid && !ex->file_due))
		return;
	if (!ex->file_due && ex->file_written && ex->file_seq == ex->snap.seq)
		return;
	if (textfile_write(ex) == 0) {
		ex->file_due = false;
		ex->file_written = ex->snap.valid;
		ex->file_seq = ex->snap.seq;
	}
}

/* ---- HTTP ---- */

static int parse_listen(const char *s, struct sockaddr_storage *ss,
			socklen_t *len)
{
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
	char host[INET6_ADDRSTRLEN];
	const char *end, *port_s;
	uint32_t port;
	bool v6 = s[0] == '[';

	end = v6 ? strchr(s, ']') : strrchr(s, ':');
	if (!end || (v6 && end[1] != ':'))
		return -1;
	port_s = end + (v6 ? 2 : 1);
	if (v6)
		s++;
	if ((size_t)(end - s) >= sizeof(host) || parse_u32(port_s, &port) ||
	    port == 0 || port > 65535)
		return -1;
	memcpy(host, s, end - s);
	host[end - s] = '\0';
	memset(ss, 0, sizeof(*ss));
	if (v6) {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons(port);
		*len = sizeof(*a6);
		return inet_pton(AF_INET6, host, &a6->sin6_addr) == 1 ? 0 : -1;
	}
	a4->sin_family = AF_INET;
	a4->sin_port = htons(port);
	*len = sizeof(*a4);
	return inet_pton(AF_INET, host, &a4->sin_addr) == 1 ? 0 : -1;
}

static const char *listen_hint(int err)
{
	switch (err) {
	case EACCES:
		return "ports below 1024 need CAP_NET_BIND_SERVICE";
	case EADDRINUSE:
		return "another process has that port; pick another";
	case EADDRNOTAVAIL:
		return "no interface has that address";
	default:
		return "check the address";
	}
}

/* The listening socket, non-blocking; -1 after printing why. */
static int listen_open(const char *spec, const struct sockaddr_storage *ss,
		       socklen_t len)
{
	int fd, one = 1, err;

	fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = errno;
		kstat_err("cannot listen on %s: %s (%s)", spec, strerror(err),
			  listen_hint(err));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)ss, len) == 0 &&
	    listen(fd, SOMAXCONN) == 0)
		return fd;
	err = errno;
	kstat_err("cannot listen on %s: %s (%s)", spec, strerror(err),
		  listen_hint(err));
	close(fd);
	return -1;
}

static void conn_close(struct exporter *ex, struct conn *c)
{
	close(c->fd);
	c->fd = -1;
	c->req_len = 0;
	c->sent = 0;
	c->writing = false;
	c->out.len = 0;
	ex->nr_conns--;
}

/* Send what the socket takes now; close when all is sent. */
static void conn_write(struct exporter *ex, struct conn *c)
{
	ssize_t n;

	while (c->sent < c->out.len) {
		n = send(c->fd, c->out.p + c->sent, c->out.len - c->sent,
			 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;		/* poll for POLLOUT */
		if (n < 0)
			break;		/* the client went away */
		c->sent += n;
	}
	conn_close(ex, c);
}

static void conn_reply(struct exporter *ex, struct conn *c, const char *status,
		       const char *headers, const struct buf *body, bool head)
{
	static const struct buf none;

	if (!body)
		body = &none;
	c->out.len = 0;
	c->out.oom = false;
	buf_printf(&c->out, "HTTP/1.0 %s\r\nContent-Length: %zu\r\n%s"
		   "Connection: close\r\n\r\n", status, body->len, headers);
	if (!head)
		buf_write(&c->out, body->p, body->len);
	if (c->out.oom) {
		conn_close(ex, c);
		return;
	}
	c->writing = true;
	conn_write(ex, c);
}

static void conn_error(struct exporter *ex, struct conn *c, const char *status,
		       const char *headers)
{
	struct buf b = { 0 };

	buf_printf(&b, "%s\n", status);
	conn_reply(ex, c, status, headers, &b, false);
	buf_free(&b);
}

/* The error status a request head earns, or NULL for a scrape. */
static const char *request_check(char *req, bool *head, const char **hdrs)
{
	char *method = req, *target, *version;

	*strpbrk(req, "\r\n") = '\0';	/* the request line */
	target = strchr(method, ' ');
	version = target ? strchr(target + 1, ' ') : NULL;
	if (!version || strncmp(version + 1, "HTTP/", 5))
		return "400 Bad Request";
	*target++ = '\0';
	*version = '\0';
	*head = !strcmp(method, "HEAD");
	if (!*head && strcmp(method, "GET")) {
		*hdrs = "Allow: GET, HEAD\r\n";
		return "405 Method Not Allowed";
	}
	if (strcspn(target, "?") != 8 || strncmp(target, "/metrics", 8))
		return "404 Not Found";
	return NULL;
}

/* A complete request head: "METHOD TARGET HTTP/x.y" decides. */
static void conn_request(struct exporter *ex, struct conn *c)
{
	const char *status, *hdrs = "";
	const struct buf *b;
	bool head = false;

	status = request_check(c->req, &head, &hdrs);
	if (status) {
		conn_error(ex, c, status, hdrs);
		return;
	}
	b = metrics_write(ex);
	if (b->oom) {
		conn_error(ex, c, "500 Internal Server Error", "");
		return;
	}
	conn_reply(ex, c, "200 OK",
		   "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n",
		   b, head);
}

static bool head_complete(const struct conn *c)
{
	return strstr(c->req, "\r\n\r\n") || strstr(c->req, "\n\n");
}

static void conn_read(struct exporter *ex, struct conn *c)
{
	ssize_t n;

	for (;;) {
		n = recv(c->fd, c->req + c->req_len, REQ_MAX - 1 - c->req_len,
			 MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0)
			break;		/* gone, or an error */
		c->req_len += n;
		c->req[c->req_len] = '\0';
		if (head_complete(c)) {
			conn_request(ex, c);
			return;
		}
		if (c->req_len == REQ_MAX - 1) {
			conn_error(ex, c, "431 Request Header Fields Too Large", "");
			return;
		}
	}
	conn_close(ex, c);
}

static uint64_t now_ms(void)
{
	return clock_ns(CLOCK_MONOTONIC) / 1000000;
}

static void accept_all(struct exporter *ex)
{
	struct conn *c;
	int fd, i;

	while (ex->nr_conns < MAX_CONNS) {
		fd = accept4(ex->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0 && (errno == EINTR || errno == ECONNABORTED))
			continue;
		if (fd < 0)
			return;		/* EAGAIN, or out of fds: later */
		for (i = 0; ex->conns[i].fd >= 0; i++)
			;
		c = &ex->conns[i];
		c->fd = fd;
		c->deadline_ms = now_ms() + CONN_TIMEOUT_MS;
		ex->nr_conns++;
	}
}

/* ---- the event loop's hooks (see struct sub_poll_ops) ---- */

static unsigned int export_fill(struct pollfd *pfd, int *timeout_ms, void *arg)
{
	struct exporter *ex = arg;
	uint64_t now = now_ms(), first = UINT64_MAX;
	unsigned int n = 0;
	int i;

	if (ex->lfd >= 0 && ex->nr_conns < MAX_CONNS) {
		pfd[n] = (struct pollfd){ .fd = ex->lfd, .events = POLLIN };
		ex->slot[n++] = -1;
	}
	for (i = 0; ex->conns && i < MAX_CONNS; i++) {
		const struct conn *c = &ex->conns[i];

		if (c->fd < 0)
			continue;
		pfd[n] = (struct pollfd){ .fd = c->fd,
					  .events = c->writing ? POLLOUT : POLLIN };
		ex->slot[n++] = i;
		if (c->deadline_ms < first)
			first = c->deadline_ms;
	}
	if (first != UINT64_MAX)
		*timeout_ms = first > now ? (int)(first - now) : 0;
	return n;
}

static void expire_conns(struct exporter *ex)
{
	uint64_t now = now_ms();
	int i;

	for (i = 0; ex->conns && i < MAX_CONNS; i++)
		if (ex->conns[i].fd >= 0 && ex->conns[i].deadline_ms <= now)
			conn_close(ex, &ex->conns[i]);
}

static int export_ready(const struct pollfd *pfd, unsigned int n, void *arg)
{
	struct exporter *ex = arg;
	bool accept = false;
	unsigned int i;

	if (ex->oom) {
		kstat_err("out of memory copying a sample");
		return -1;
	}
	if (ex->snap.valid && (!ex->meta.loaded ||
			       ex->meta.generation != ex->snap.generation) &&
	    meta_load(&ex->meta, ex->snap.generation))
		ex->data_valid = false;		/* new labels */
	textfile_update(ex);
	for (i = 0; i < n; i++) {
		struct conn *c;

		if (!pfd[i].revents)
			continue;
		if (ex->slot[i] < 0) {
			accept = true;
			continue;
		}
		c = &ex->conns[ex->slot[i]];
		if (c->writing)
			conn_write(ex, c);
		else
			conn_read(ex, c);
	}
	if (accept)
		accept_all(ex);
	expire_conns(ex);
	return 0;
}

/* ---- the command ---- */

static int parse_args(int argc, char **argv, struct exporter *ex)
{
	const char **dst, *val;
	int i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		size_t len = eq ? (size_t)(eq - a) : strlen(a);

		if (len == 8 && !strncmp(a, "--listen", len))
			dst = &ex->listen;
		else if (len == 10 && !strncmp(a, "--textfile", len))
			dst = &ex->textfile;
		else
			return usage_err("export", "unexpected argument \"%s\"", a);
		if (*dst)
			return usage_err("export", "\"%.*s\" given twice", (int)len, a);
		val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		if (!val || !*val)
			return usage_err("export", "\"%.*s\" needs a value", (int)len, a);
		*dst = val;
	}
	if (!ex->listen && !ex->textfile)
		return usage_err("export", "give --listen ADDR:PORT, --textfile PATH or both");
	return EXIT_OK;
}

static int export_setup(struct exporter *ex)
{
	struct sockaddr_storage ss;
	socklen_t len = 0;
	int i;

	ex->lfd = -1;
	if (ex->listen && parse_listen(ex->listen, &ss, &len))
		return usage_err("export", "bad --listen \"%s\" (want ADDR:PORT, "
				 "e.g. 127.0.0.1:9586 or [::1]:9586)", ex->listen);
	if (!kstat_handle())	/* the module first: nothing to export without */
		return EXIT_FAIL;
	if (ex->listen) {
		ex->conns = calloc(MAX_CONNS, sizeof(*ex->conns));
		if (!ex->conns) {
			kstat_err("out of memory");
			return EXIT_FAIL;
		}
		for (i = 0; i < MAX_CONNS; i++)
			ex->conns[i].fd = -1;
		ex->lfd = listen_open(ex->listen, &ss, len);
		if (ex->lfd < 0)
			return EXIT_FAIL;
	}
	/* Fail now, not at the first sample, if the file cannot be written. */
	if (ex->textfile && textfile_write(ex))
		return EXIT_FAIL;
	return EXIT_OK;
}

static void export_cleanup(struct exporter *ex)
{
	int i;

	for (i = 0; ex->conns && i < MAX_CONNS; i++) {
		if (ex->conns[i].fd >= 0)
			close(ex->conns[i].fd);
		buf_free(&ex->conns[i].out);
	}
	free(ex->conns);
	if (ex->lfd >= 0)
		close(ex->lfd);
	snap_free(&ex->snap);
	irq_labels_free(&ex->meta.labels);
	buf_free(&ex->data);
	buf_free(&ex->body);
}

static int export_prometheus(int argc, char **argv)
{
	static const struct kstat_sub_ops ops = {
		.sample = on_sample,
		.lost = on_lost,
		.family = on_family,
	};
	static const struct sub_poll_ops poll_ops = {
		.max_fds = MAX_CONNS + 1,
		.fill = export_fill,
		.ready = export_ready,
	};
	struct exporter ex = { .lfd = -1 };
	struct sub_run_opts o = {
		.ops = &ops, .arg = &ex, .done = &ex.done, .poll = &poll_ops,
	};
	int ret;

	if (opts.json)
		return usage_err("export", "\"export\" has no JSON output");
	ret = parse_args(argc, argv, &ex);
	if (ret == EXIT_OK)
		ret = export_setup(&ex);
	if (ret == EXIT_OK)
		ret = sub_run(&o);
	export_cleanup(&ex);
	return ret;
}

static int export_help(int argc, char **argv)
{
	(void)argv;
	return show_help("export", export_usage, argc);
}

static const struct cmd export_cmds[] = {
	{ "prometheus",	export_prometheus,	NULL },
	{ "help",	export_help,		NULL },
	{ NULL, NULL, NULL }
};

int do_export(int argc, char **argv)
{
	return cmd_dispatch("export", export_cmds, argc, argv);
}
