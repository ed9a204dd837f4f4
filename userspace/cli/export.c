// SPDX-License-Identifier: GPL-2.0
/*
 * kstat export prometheus: the latest sample of a subscription of its own
 * (every section, at its interval) in the Prometheus text exposition
 * format (0.0.4), served over HTTP by libmicrohttpd (--listen) and/or
 * written to a node_exporter textfile (--textfile), from the same event
 * loop as kstat monitor (subscribe.c).
 *
 * A scrape reads no /proc file and sends the kernel nothing: each sample
 * is copied into a snapshot, and its text is rendered once, on the first
 * scrape after it changed, into a reference-counted body that every scrape
 * of that sample shares (and gzip-compressed once, on the first scrape
 * that asks for gzip).  Only the few kstat_exporter_* lines (the sample's
 * age) are written per scrape.  The only requests are one IRQ GET with
 * descriptions (for the chip, hwirq, type and actions labels) after the
 * first sample and after each generation change (the IRQ set changed).
 *
 * A daemon: it starts without the module and serves kstat_exporter_up 0
 * until it comes (KSTAT_SUB_WAIT), never exits because it went or came
 * back, ignores SIGHUP, and logs its events on stderr (export-log.h).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>
#include <zlib.h>

#include "export-counters.h"
#include "export-log.h"
#include "export-render.h"
#include "irqlabels.h"
#include "kstat.h"
#include "print.h"
#include "sample.h"

#define HTTP_MAX_CONNS	1024		/* clients at once (fewer if RLIMIT_NOFILE) */
#define HTTP_PER_IP	64		/* clients at once from one address */
#define HTTP_EVICTING	32		/* evicted, not closed yet: headroom */
#define HTTP_TIMEOUT_S	10		/* an idle connection is closed */
#define HTTP_CONN_MEMORY (16 * 1024)	/* per connection: request head etc. */
#define STALE_INTERVALS	3		/* no sample for this long: up 0 */
#define GUARD_LOG_MS	(10 * 60 * 1000)	/* a counter held: one line per */

static const char export_usage[] =
	"Usage: kstat export prometheus [ --listen ADDR:PORT ] [ --textfile PATH ]\n"
	"                               [ --interval TIME ] [ --percpu ]\n"
	"                               [ --names { kstat | node } ]\n"
	"                               [ --irq-include REGEX | --irq-exclude REGEX ]\n"
	"                               [ --no-zeros ]\n"
	"       kstat export help\n"
	"\n"
	"Export the kernel's samples as Prometheus metrics (text format 0.0.4)\n"
	"until SIGINT or SIGTERM (SIGHUP is ignored).  At least one of:\n"
	"  --listen ADDR:PORT  serve GET /metrics over HTTP (and / links it);\n"
	"                      ADDR an IPv4 literal, a bracketed IPv6 literal,\n"
	"                      a host name, or none for every address:\n"
	"                      127.0.0.1:19586, [::1]:19586, localhost:19586,\n"
	"                      :19586 (IPv6 and IPv4); alias:\n"
	"                      --web.listen-address (node_exporter's)\n"
	"  --textfile PATH     rewrite PATH atomically after every sample, for\n"
	"                      node_exporter's textfile collector (*.prom)\n"
	"The samples are a subscription of the exporter's own, with every\n"
	"section and per-CPU detail, which an admin's kstat config set does not\n"
	"change:\n"
	"  --interval TIME     its interval (bare: milliseconds; 250ms, 15s);\n"
	"                      default: the default stream's when it starts\n"
	"  --percpu            also each IRQ's count per CPU\n"
	"                      (kstat_interrupts_cpu_total)\n"
	"  --names NAMING      kstat (default): kstat_* families; node:\n"
	"                      node_exporter's (node_cpu_seconds_total,\n"
	"                      node_interrupts_total per CPU, node_intr_total,\n"
	"                      node_softirqs_total, node_softirqs_functions_total)\n"
	"                      with its labels, for its dashboards; run\n"
	"                      node_exporter with --no-collector.cpu\n"
	"                      --no-collector.interrupts --no-collector.stat\n"
	"                      beside it\n"
	"Fewer IRQ series (node_exporter's interrupts collector's options, whose\n"
	"names are aliases; under either naming):\n"
	"  --irq-include REGEX serve only the IRQs and arch rows whose name\n"
	"                      \"TYPE;INFO;DEVICES\" (their labels: \"25;PCI-MSI;\n"
	"                      1048576-edge eth0\", \"LOC;Local timer interrupts;\")\n"
	"                      REGEX matches (POSIX extended, unanchored);\n"
	"                      alias: --collector.interrupts.name-include\n"
	"  --irq-exclude REGEX serve all but those; not with --irq-include;\n"
	"                      alias: --collector.interrupts.name-exclude\n"
	"  --no-zeros          no IRQ or arch series whose value is 0 (per CPU\n"
	"                      where the series are); it appears once nonzero;\n"
	"                      alias: --no-collector.interrupts.include-zeros\n"
	"A scrape costs no /proc read and no kernel request: it serves the\n"
	"latest sample.  It starts without the kstat module, and while the\n"
	"module is not loaded only the kstat_exporter_* metrics are exported,\n"
	"with kstat_exporter_up 0 (also when no sample came for 3 intervals).\n"
	"Events (listen address, module gone and back, losses) are logged on\n"
	"stderr, with journal priorities under systemd.  See docs/exporter.md.\n";

/* ---- IRQ labels, reloaded when the IRQ set changes ---- */

/* Failure keeps the old labels; the next sample tries again. */
static bool meta_load(struct meta *m, uint32_t generation)
{
	if (irq_labels_load(&m->labels))
		return false;
	m->loaded = true;
	m->generation = generation;
	meta_sets_clear(m);
	return true;
}

static void meta_free(struct meta *m)
{
	irq_labels_free(&m->labels);
	buf_free(&m->set_text);
	free(m->set_off);
	free(m->set_len);
	free(m->irq_keep);
	free(m->arch_keep);
}

/* ---- one sample's text, shared by every scrape of it ---- */

/*
 * The data families of one sample.  The exporter holds one reference to
 * the current body, each response in flight another (libmicrohttpd calls
 * scrape_free() when it is done with it), so a client that never reads
 * costs a reference, not a copy.  Single-threaded: no atomics.
 */
struct body {
	unsigned int refs;
	struct buf text;
	uint32_t crc;			/* CRC32 of text */
	unsigned char *gz;		/* raw deflate of text, sync-flushed */
	size_t gz_len;
	bool gz_tried;
};

static struct body *body_get(struct body *b)
{
	b->refs++;
	return b;
}

static void body_put(struct body *b)
{
	if (!b || --b->refs)
		return;
	buf_free(&b->text);
	free(b->gz);
	free(b);
}

/*
 * Compress the text once: raw deflate ending with a sync flush (byte
 * aligned, not final), so that each gzip response can frame it between
 * its own blocks.  False if that failed (the scrape goes uncompressed).
 */
static bool body_deflate(struct body *b, uint64_t *deflates)
{
	z_stream z = { 0 };
	size_t cap;
	int ret;

	if (b->gz_tried)
		return b->gz != NULL;
	b->gz_tried = true;
	(*deflates)++;
	/*
	 * Level 1: half the CPU of level 6 on an exposition (3.3 -> 1.6 ms
	 * for 2800 IRQs on the host) for a body 10% larger (61 -> 68 KB).
	 */
	if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, -15, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return false;
	cap = deflateBound(&z, b->text.len) + 16;
	b->gz = malloc(cap);
	if (b->gz) {
		z.next_in = (Bytef *)b->text.p;
		z.avail_in = b->text.len;
		z.next_out = b->gz;
		z.avail_out = cap;
		ret = deflate(&z, Z_SYNC_FLUSH);
		if (ret != Z_OK || z.avail_in) {
			free(b->gz);
			b->gz = NULL;
		} else {
			b->gz_len = cap - z.avail_out;
		}
	}
	deflateEnd(&z);
	return b->gz != NULL;
}

/* ---- the exporter ---- */

/* An IRQ filter's option: the regex, and the option as it was spelled. */
struct irq_opt {
	const char *regex;
	const char *opt;
	int len;
};

struct exporter {
	struct sample_copy snap;	/* counters as exported (guard) */
	struct counter_guard guard;
	uint64_t guard_log_ms;		/* CLOCK_MONOTONIC of the last line */
	uint64_t guard_quiet;		/* events since, not logged */
	bool guard_logged;
	struct meta meta;
	uint64_t samples, lost;		/* samples: also the snapshot's number */
	struct loss_log loss;		/* losses not logged yet */
	bool journal;			/* stderr is the journal's stream */
	uint64_t renders, deflates;	/* of the data families */
	bool oom;			/* a sample could not be copied */
	bool done;
	const char *interval;		/* --interval, or NULL */
	bool percpu;			/* --percpu */
	enum export_names names;	/* --names */
	struct irq_opt include, exclude;	/* --irq-include, --irq-exclude */
	struct irq_filter filter;	/* theirs and --no-zeros */
	uint32_t interval_ms;		/* the subscription's */
	struct kstat_sub_opts sub;
	uint64_t stale_at_ms;		/* CLOCK_MONOTONIC: no sample since */
	bool stale;			/* ... and that time had passed */

	struct body *cur;		/* the data families rendered from snap */
	bool data_valid;
	uint64_t data_nr;		/* ex->samples it was rendered at */
	bool data_show;			/* it holds the data families */
	struct buf file;		/* scratch: one exposition, for the file */

	const char *textfile;
	uint64_t file_nr;		/* ex->samples it was written at */
	bool file_written;		/* since the first sample */
	bool file_due;			/* rewrite it, sample or not */
	bool file_failing;		/* the error was printed */

	const char *listen;
	struct MHD_Daemon *mhd;
	int mhd_fd;			/* its epoll set */
	struct http_conn *oldest, *newest;	/* by last activity */
	unsigned int nr_conns;		/* not evicted */
	unsigned int max_conns;
	uint64_t evicted;
};

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static uint64_t now_ms(void);

/*
 * A counter held or carried on (export-counters.h) is worth a line, but
 * not one per sample: the first, then at most one per GUARD_LOG_MS with
 * the number of events in between.  kstat_exporter_holds_total and
 * kstat_exporter_restarts_total count them all.
 */
static void guard_log(struct exporter *ex)
{
	const struct counter_guard *g = &ex->guard;
	const struct guard_event *e = &g->first;
	uint64_t now = now_ms(), d = e->fall;
	char id[32] = "";

	if (!g->events)
		return;
	if (ex->guard_logged && now - ex->guard_log_ms < GUARD_LOG_MS) {
		ex->guard_quiet += g->events;
		return;
	}
	if (e->id >= 0)
		snprintf(id, sizeof(id), " %lld", e->id);
	if (e->step == MONO_HELD)
		log_to(stderr, ex->journal, LOG_WARNING,
		       "%s%s %s went back %" PRIu64 ".%06" PRIu64
		       " ms: its last value is exported until it passes that"
		       " (%" PRIu64 " more since the last such line)",
		       e->what, id, e->mode ? e->mode : "", d / 1000000,
		       d % 1000000, ex->guard_quiet + g->events - 1);
	else
		log_to(stderr, ex->journal, LOG_WARNING,
		       "%s%s%s%s fell from %" PRIu64 " to %" PRIu64
		       " (the kernel's counter restarted): exported from %"
		       PRIu64 " on, growing with it (%" PRIu64
		       " more since the last such line)",
		       e->what, id, e->mode ? " " : "", e->mode ? e->mode : "",
		       e->shown, e->raw, e->shown,
		       ex->guard_quiet + g->events - 1);
	ex->guard_logged = true;
	ex->guard_log_ms = now;
	ex->guard_quiet = 0;
}

/* No sample for STALE_INTERVALS intervals and the exporter says up 0. */
static void on_sample(const struct kstat_sample *s, void *arg)
{
	struct exporter *ex = arg;

	ex->samples++;
	if (sample_copy(&ex->snap, s) || guard_apply(&ex->guard, &ex->snap))
		ex->oom = true;
	else
		guard_log(ex);
	ex->stale_at_ms = now_ms() + STALE_INTERVALS * (uint64_t)ex->interval_ms;
}

/* Called by export_ready() only; pages read ex->stale (see there). */
static bool is_stale(const struct exporter *ex)
{
	return ex->snap.valid && now_ms() >= ex->stale_at_ms;
}

static void on_lost(uint64_t lost, enum kstat_lost_reason why, void *arg)
{
	struct exporter *ex = arg;

	ex->lost += lost;
	loss_note(&ex->loss, lost, why);	/* logged by export_ready() */
	if (why == KSTAT_LOST_RELOAD)
		guard_reset(&ex->guard);	/* the counters restart */
}

/*
 * Without --interval the subscription takes the default stream's when it
 * subscribes (at start, and again when the module is back): read it.
 * Without the module, keep what we have: it is read again when it comes.
 */
static void read_interval(struct exporter *ex)
{
	struct kstat_handle *h;
	struct kstat_config cfg;

	if (ex->sub.fields & KSTAT_CONFIG_INTERVAL) {
		ex->interval_ms = ex->sub.interval_ms;
		return;
	}
	if (kstat_open(&h))
		return;
	if (!kstat_config_get(h, &cfg))
		ex->interval_ms = cfg.interval_ms;
	kstat_close(h);
}

/* Whether the kstat family is registered now (at start, for the log). */
static bool module_loaded(void)
{
	struct kstat_handle *h;

	if (kstat_open(&h))
		return false;
	kstat_close(h);
	return true;
}

/*
 * The module went away: kstat_exporter_up 0 and no data until samples
 * come again (seq and generation restart, so nothing cached is kept).
 * Neither is a reason to exit: the exporter waits for the module, as it
 * does when it starts without it (KSTAT_SUB_WAIT).
 */
static void on_family(int present, void *arg)
{
	struct exporter *ex = arg;

	kstat_handle_drop();
	if (present) {
		read_interval(ex);
		log_to(stderr, ex->journal, LOG_NOTICE,
		       "the kstat module is loaded: subscribed, every %u.%03u s",
		       ex->interval_ms / 1000, ex->interval_ms % 1000);
		return;
	}
	log_to(stderr, ex->journal, LOG_WARNING,
	       "the kstat module is gone: kstat_exporter_up 0 until it is loaded again");
	ex->snap.valid = false;
	ex->data_valid = false;
	ex->meta.loaded = false;
	ex->file_due = true;
	guard_reset(&ex->guard);	/* a new module's counters restart */
}

/*
 * The data families (none before the first sample, while the module is
 * gone or while stale), rendered into a new body only when that changed;
 * NULL if out of memory.
 */
static const struct body *metrics_body(struct exporter *ex)
{
	const struct sample_copy *c = &ex->snap;
	const struct kstat_sample *n = &c->s;
	bool show = c->valid && !ex->stale;
	struct body *b;

	if (ex->cur && ex->data_valid && ex->data_nr == ex->samples &&
	    ex->data_show == show)
		return ex->cur;
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->refs = 1;
	buf_write(&b->text, "", 0);
	if (show && ex->names == NAMES_NODE)
		render_node(&b->text, n, &ex->meta, &ex->guard);
	else if (show)
		render_kstat(&b->text, n, &ex->meta, &ex->guard, ex->percpu);
	if (b->text.oom) {
		body_put(b);
		return NULL;
	}
	b->crc = crc32(0, (const Bytef *)b->text.p, b->text.len);
	body_put(ex->cur);
	ex->cur = b;
	ex->renders++;
	ex->data_valid = true;
	ex->data_nr = ex->samples;
	ex->data_show = show;
	return b;
}

static void render_health(struct buf *b, const struct exporter *ex)
{
	const struct sample_copy *c = &ex->snap;
	const struct kstat_sample *n = &c->s;
	uint64_t now, age;

	family(b, "kstat_exporter_up", "gauge",
	       "1 while samples arrive from the kernel; 0 before the first, while the module is unloaded and after 3 intervals without one.");
	buf_printf(b, "kstat_exporter_up %d\n", c->valid && !ex->stale);
	family(b, "kstat_exporter_build_info", "gauge",
	       "The exporter's version, as a label; the value is 1.");
	buf_write(b, "kstat_exporter_build_info{version=\"", 35);
	buf_label(b, KSTAT_VERSION);
	buf_write(b, "\"} 1\n", 5);
	own_value(b, "kstat_exporter_samples_total", "counter",
		  "Samples received from the kernel.",
		  ex->samples);
	own_value(b, "kstat_exporter_samples_lost_total", "counter",
		  "Samples lost (sequence gaps, socket overruns, samples missing parts).",
		  ex->lost);
	own_value(b, "kstat_exporter_renders_total", "counter",
		  "Times the data families were rendered from a sample: at most once per sample, and only when a scrape (or the textfile) asks.",
		  ex->renders);
	own_value(b, "kstat_exporter_gzips_total", "counter",
		  "Times the rendered data families were gzip-compressed: at most once per render, on the first scrape that asks for gzip.",
		  ex->deflates);
	own_value(b, "kstat_exporter_http_evicted_total", "counter",
		  "Idle HTTP connections closed to make room for a new one (an address or the server at its limit).",
		  ex->evicted);
	own_value(b, "kstat_exporter_holds_total", "counter",
		  "Times a CPU time fell a little (the kernel's idle accounting) and its last value was exported instead.",
		  ex->guard.held);
	own_value(b, "kstat_exporter_restarts_total", "counter",
		  "Times a counter fell further (it restarted) and was exported from its last value on.",
		  ex->guard.carried);
	if (!c->valid)
		return;
	now = clock_ns(CLOCK_BOOTTIME);
	age = now > n->timestamp_ns ? now - n->timestamp_ns : 0;
	family(b, "kstat_exporter_last_sample_age_seconds", "gauge",
	       "Age of the exported sample (CLOCK_BOOTTIME).");
	buf_printf(b, "kstat_exporter_last_sample_age_seconds %" PRIu64 ".%06" PRIu64 "\n",
		   age / NSEC_PER_SEC, age % NSEC_PER_SEC / 1000);
	own_value(b, "kstat_exporter_last_sample_seq", "gauge",
		  "Sequence number of the exported sample.", n->seq);
	family(b, "kstat_exporter_interval_seconds", "gauge",
	       "The interval of the exporter's subscription.");
	buf_printf(b, "kstat_exporter_interval_seconds %u.%03u\n",
		   ex->interval_ms / 1000, ex->interval_ms % 1000);
}

/* One exposition, for the textfile: into ex->file. */
static const struct buf *metrics_write(struct exporter *ex)
{
	const struct body *d;

	ex->file.len = 0;
	ex->file.oom = false;
	render_health(&ex->file, ex);
	d = metrics_body(ex);
	if (d)
		buf_write(&ex->file, d->text.p, d->text.len);
	else
		ex->file.oom = true;
	return &ex->file;
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
 * Write PATH.tmp.PID and rename it over PATH: a reader sees the old file
 * or the new one, never a part.  No fsync: the file is rewritten every
 * sample and its content is only as good as that sample; after a crash
 * of the machine the next sample writes it again, so forcing every
 * rewrite to disk (a journal commit per sample) would buy nothing.  0, or
 * -1 after printing why (once while the error lasts).
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
	if (write_all(fd, b->p, b->len))
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
	if (!ex->file_due && ex->file_written && ex->file_nr == ex->samples)
		return;
	if (textfile_write(ex) == 0) {
		ex->file_due = false;
		ex->file_written = ex->snap.valid;
		ex->file_nr = ex->samples;
	}
}

/* ---- HTTP: libmicrohttpd in this event loop ---- */

/*
 * A host name as RFC 1123 spells one: letters, digits, '-' and '.', not
 * starting with either of those two.  Anything else is a usage error,
 * not a name the resolver gets to refuse.
 */
static bool looks_hostname(const char *s, size_t len)
{
	return len && len <= 253 && s[0] != '-' && s[0] != '.' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789-.") >= len;
}

/* Digits and dots only: meant as an IPv4 literal, never a host name. */
static bool looks_ipv4(const char *s, size_t len)
{
	return len && strspn(s, "0123456789.") >= len;
}

/*
 * A host name: its first IPv4 address, else its first IPv6 one (Go's
 * net.Listen, node_exporter's, listens on one address of a name too).
 * Resolving is the only step that may fail for a reason outside the
 * command line (no DNS yet at boot): exit 1, and systemd restarts us.
 */
static int listen_resolve(const char *spec, const char *host, uint16_t port,
			  struct sockaddr_storage *ss, socklen_t *len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai, *pick;
	int err;

	err = getaddrinfo(host, NULL, &hints, &res);
	if (err) {
		kstat_err("cannot resolve --listen \"%s\": %s (check the name, "
			  "or give an address: 127.0.0.1:%u, [::1]:%u, :%u for all)",
			  spec, gai_strerror(err), port, port, port);
		return EXIT_FAIL;
	}
	pick = NULL;
	for (ai = res; ai; ai = ai->ai_next) {
		if (ai->ai_family == AF_INET) {
			pick = ai;
			break;
		}
		if (ai->ai_family == AF_INET6 && !pick)
			pick = ai;
	}
	if (!pick) {
		freeaddrinfo(res);
		kstat_err("cannot resolve --listen \"%s\": no IPv4 or IPv6 address", spec);
		return EXIT_FAIL;
	}
	memcpy(ss, pick->ai_addr, pick->ai_addrlen);
	*len = pick->ai_addrlen;
	freeaddrinfo(res);
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
	return EXIT_OK;
}

/*
 * ADDR:PORT into @ss: an IPv4 literal, a bracketed IPv6 literal, a host
 * name (resolved), or nothing (":PORT", every address, IPv6 and IPv4: the
 * unspecified IPv6 address, dual-stack).  EXIT_OK, EXIT_USAGE after the
 * usage error, which says which part is wrong (the shape, the address or
 * the port: 1 to 65535, an overflowing number is "at most"), or EXIT_FAIL
 * if a name does not resolve.
 */
static int parse_listen(const char *s, struct sockaddr_storage *ss,
			socklen_t *len)
{
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
	char host[256], why[64];
	const char *end, *port_s, *h = s;
	uint64_t port;
	bool v6 = s[0] == '[';
	size_t hlen;
	int err, ok;

	end = v6 ? strchr(s, ']') : strrchr(s, ':');
	if (!end || (v6 && end[1] != ':') || !end[v6 ? 2 : 1])
		return usage_err("export", "bad --listen \"%s\" (want ADDR:PORT, "
				 "e.g. 127.0.0.1:19586, [::1]:19586, localhost:19586 "
				 "or :19586)", s);
	port_s = end + (v6 ? 2 : 1);
	err = parse_uint(port_s, 1, 65535, &port);
	if (err)
		return usage_err("export", "bad --listen \"%s\": the port must be %s",
				 s, uint_explain(why, sizeof(why), err, 1, 65535));
	if (v6)
		h++;
	hlen = end - h;
	memset(ss, 0, sizeof(*ss));
	ok = hlen < sizeof(host);
	if (ok) {
		memcpy(host, h, hlen);
		host[hlen] = '\0';
	}
	if (!v6 && hlen == 0) {		/* ":PORT": every address */
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons(port);
		a6->sin6_addr = in6addr_any;
		*len = sizeof(*a6);
		return EXIT_OK;
	}
	if (v6) {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons(port);
		*len = sizeof(*a6);
		ok = ok && inet_pton(AF_INET6, host, &a6->sin6_addr) == 1;
	} else if (looks_ipv4(h, hlen) || !looks_hostname(h, hlen)) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons(port);
		*len = sizeof(*a4);
		ok = ok && inet_pton(AF_INET, host, &a4->sin_addr) == 1;
	} else if (ok) {
		return listen_resolve(s, host, port, ss, len);
	}
	if (!ok)
		return usage_err("export", "bad --listen \"%s\": \"%.*s\" is not an %s "
				 "address (IPv6 in brackets, [::1]:19586; a host "
				 "name: letters, digits, '-' and '.', localhost:19586; "
				 "all addresses, :19586)",
				 s, (int)hlen, h, v6 ? "IPv6" : "IPv4");
	return EXIT_OK;
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

static bool is_any6(const struct sockaddr_storage *ss)
{
	const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)ss;

	return ss->ss_family == AF_INET6 &&
	       IN6_IS_ADDR_UNSPECIFIED(&a6->sin6_addr);
}

/* A kernel without IPv6: every address is then 0.0.0.0. */
static void any_ipv4(struct sockaddr_storage *ss, socklen_t *len)
{
	uint16_t port = ((struct sockaddr_in6 *)ss)->sin6_port;
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	a4->sin_family = AF_INET;
	a4->sin_port = port;
	a4->sin_addr.s_addr = htonl(INADDR_ANY);
	*len = sizeof(*a4);
}

/* "127.0.0.1:19586", "[::]:19586": where @fd listens. */
static void sock_name(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t sl = sizeof(ss);
	char a[INET6_ADDRSTRLEN] = "?";
	uint16_t port = 0;

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
		if (ss.ss_family == AF_INET6) {
			inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr,
				  a, sizeof(a));
			port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
		} else if (ss.ss_family == AF_INET) {
			inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr,
				  a, sizeof(a));
			port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
		}
	}
	snprintf(buf, len, ss.ss_family == AF_INET6 ? "[%s]:%u" : "%s:%u", a, port);
}

/*
 * The listening socket is ours (so that a bind error gets its own message),
 * then handed to libmicrohttpd.  The unspecified IPv6 address ([::] or
 * ":PORT") takes IPv4 too (IPV6_V6ONLY off, whatever
 * net.ipv6.bindv6only says), as Go's listener does.  -1 after printing why.
 */
static int listen_open(const char *spec, struct sockaddr_storage *ss,
		       socklen_t len, bool journal)
{
	int fd, one = 1, zero = 0, err;
	char name[INET6_ADDRSTRLEN + 16];

	fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 && errno == EAFNOSUPPORT && is_any6(ss) && spec[0] == ':') {
		any_ipv4(ss, &len);
		fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	}
	if (fd < 0) {
		err = errno;
		kstat_err("cannot listen on %s: %s (%s)", spec, strerror(err),
			  listen_hint(err));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (is_any6(ss))
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, (const struct sockaddr *)ss, len) == 0 &&
	    listen(fd, SOMAXCONN) == 0) {
		sock_name(fd, name, sizeof(name));
		log_to(stderr, journal, LOG_INFO,
		       "serving http://%s/metrics%s (--listen %s)", name,
		       is_any6(ss) ? " on every address, IPv4 too" : "", spec);
		return fd;
	}
	err = errno;
	kstat_err("cannot listen on %s: %s (%s)", spec, strerror(err),
		  listen_hint(err));
	close(fd);
	return -1;
}

/*
 * Idle connections never shut out a scraper.  libmicrohttpd's own limits
 * refuse a new connection while its address (or the server) is full, even
 * when every connection it holds is idle, so one local user's 64 idle
 * connections would make every local scrape fail.  The exporter counts
 * connections itself (the accept policy callback, called before
 * libmicrohttpd creates the connection) and, at a limit, makes room by
 * evicting the connection that has been idle longest: no complete request
 * in flight (just connected, half a request, or a keep-alive connection
 * between requests).  It shuts the socket down; libmicrohttpd sees the end
 * of the stream and closes it.  A connection whose response is being sent
 * (a client that reads slowly or not at all) is never evicted: it counts
 * until libmicrohttpd's timeout.
 */
struct http_conn {
	struct http_conn *older, *newer;
	int fd;
	struct sockaddr_storage addr;
	bool busy;			/* a complete request is being answered */
	bool evicted;
	bool linked;			/* in the exporter's list */
};

static bool same_host(const struct sockaddr_storage *a,
		      const struct sockaddr *b)
{
	if (a->ss_family != b->sa_family)
		return false;
	if (b->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (b->sa_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr,
			       sizeof(struct in6_addr));
	return false;
}

static void conn_unlink(struct exporter *ex, struct http_conn *c)
{
	if (!c->linked)
		return;
	c->linked = false;
	if (c->older)
		c->older->newer = c->newer;
	else
		ex->oldest = c->newer;
	if (c->newer)
		c->newer->older = c->older;
	else
		ex->newest = c->older;
	c->older = c->newer = NULL;
}

/* Activity: it becomes the newest. */
static void conn_touch(struct exporter *ex, struct http_conn *c)
{
	conn_unlink(ex, c);
	c->linked = true;
	c->older = ex->newest;
	if (ex->newest)
		ex->newest->newer = c;
	else
		ex->oldest = c;
	ex->newest = c;
}

static void conn_evict(struct exporter *ex, struct http_conn *c)
{
	shutdown(c->fd, SHUT_RDWR);
	c->evicted = true;
	ex->nr_conns--;
	ex->evicted++;
}

/*
 * Room for one more from @addr: the oldest idle connection from that
 * address (@addr non-NULL) or from anywhere goes.  False if all are busy.
 */
static bool conn_make_room(struct exporter *ex, const struct sockaddr *addr)
{
	struct http_conn *c;

	for (c = ex->oldest; c; c = c->newer)
		if (!c->busy && !c->evicted && (!addr || same_host(&c->addr, addr))) {
			conn_evict(ex, c);
			return true;
		}
	return false;
}

static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr,
				 socklen_t len)
{
	struct exporter *ex = cls;
	unsigned int same = 0;
	struct http_conn *c;

	(void)len;
	for (c = ex->oldest; c; c = c->newer)
		same += !c->evicted && same_host(&c->addr, addr);
	if (same >= HTTP_PER_IP && !conn_make_room(ex, addr))
		return MHD_NO;
	if (ex->nr_conns >= ex->max_conns && !conn_make_room(ex, NULL))
		return MHD_NO;
	return MHD_YES;
}

static struct http_conn *conn_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci;

	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? ci->socket_context : NULL;
}

static void on_connection(void *cls, struct MHD_Connection *conn,
			  void **socket_ctx, enum MHD_ConnectionNotificationCode code)
{
	const union MHD_ConnectionInfo *fd, *addr;
	struct exporter *ex = cls;
	struct http_conn *c = *socket_ctx;

	if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (!c)
			return;
		conn_unlink(ex, c);
		if (!c->evicted)
			ex->nr_conns--;
		free(c);
		*socket_ctx = NULL;
		return;
	}
	fd = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	addr = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	c = calloc(1, sizeof(*c));
	if (!c || !fd || !addr || !addr->client_addr) {
		free(c);	/* untracked: it counts for libmicrohttpd only */
		return;
	}
	c->fd = fd->connect_fd;
	memcpy(&c->addr, addr->client_addr,
	       addr->client_addr->sa_family == AF_INET6 ?
	       sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
	*socket_ctx = c;
	ex->nr_conns++;
	conn_touch(ex, c);
}

/* The request is answered: the connection is idle again (keep-alive). */
static void on_completed(void *cls, struct MHD_Connection *conn,
			 void **req_ctx, enum MHD_RequestTerminationCode code)
{
	struct http_conn *c = conn_of(conn);

	(void)req_ctx;
	(void)code;
	if (c) {
		c->busy = false;
		conn_touch(cls, c);
	}
}

/* What one scrape holds until libmicrohttpd has sent it. */
struct scrape {
	struct body *body;		/* shared, one reference */
	struct buf health;		/* this scrape's own families */
	unsigned char gz_head[15];	/* gzip header + stored block header */
	unsigned char gz_tail[10];	/* final empty block, CRC32, ISIZE */
};

static void scrape_free(void *cls)
{
	struct scrape *s = cls;

	body_put(s->body);
	buf_free(&s->health);
	free(s);
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/*
 * One gzip member: a header, this scrape's health text as a stored deflate
 * block, the body's shared deflate blocks (compressed once per sample), a
 * final empty block, then the CRC32 and length of the whole text
 * (crc32_combine: nothing is compressed or checksummed twice).
 */
static void gzip_frame(struct scrape *s, const struct body *b)
{
	static const unsigned char hdr[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	size_t hlen = s->health.len;
	uint32_t crc;

	memcpy(s->gz_head, hdr, sizeof(hdr));
	s->gz_head[10] = 0;		/* BFINAL 0, stored */
	s->gz_head[11] = hlen & 0xff;
	s->gz_head[12] = hlen >> 8;
	s->gz_head[13] = ~hlen & 0xff;
	s->gz_head[14] = (~hlen >> 8) & 0xff;
	crc = crc32(0, (const Bytef *)s->health.p, hlen);
	crc = crc32_combine(crc, b->crc, b->text.len);
	s->gz_tail[0] = 0x03;		/* BFINAL 1, fixed, end of block */
	s->gz_tail[1] = 0x00;
	put_le32(s->gz_tail + 2, crc);
	put_le32(s->gz_tail + 6, (uint32_t)(hlen + b->text.len));
}

/* Accept-Encoding lists gzip with a q-value above 0. */
static bool wants_gzip(const char *ae)
{
	const char *p = ae, *end, *q;
	size_t len;

	while (p && *p) {
		p += strspn(p, " \t,");
		end = p + strcspn(p, ",");
		len = strcspn(p, " \t;,");
		if (len == 4 && !strncasecmp(p, "gzip", 4)) {
			q = memchr(p, ';', end - p);
			if (!q)
				return true;
			q += 1 + strspn(q + 1, " \t");
			if (strncasecmp(q, "q=", 2))
				return true;
			return strtod(q + 2, NULL) > 0;
		}
		p = end;
	}
	return false;
}

static enum MHD_Result reply_text(struct MHD_Connection *conn,
				  unsigned int status, const char *text)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(strlen(text), (void *)text,
					    MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				"text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

static const struct body *metrics_body(struct exporter *ex);

/* "/": what a person who opens the address in a browser wants. */
static const char landing_page[] =
	"<!DOCTYPE html>\n"
	"<html lang=\"en\">\n"
	"<head><meta charset=\"utf-8\"><title>kstat exporter</title></head>\n"
	"<body>\n"
	"<h1>kstat exporter</h1>\n"
	"<p>The kernel's CPU time, IRQ and softirq counters, from the kstat "
	"module's samples, version " KSTAT_VERSION ".</p>\n"
	"<p><a href=\"metrics\">Metrics</a></p>\n"
	"</body>\n"
	"</html>\n";

static enum MHD_Result reply_landing(struct MHD_Connection *conn)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(strlen(landing_page),
					    (void *)landing_page,
					    MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				"text/html; charset=utf-8");
	ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/* A request's context: its headers are in, the answer comes when all is. */
static char request_started;

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **req_cls)
{
	struct exporter *ex = cls;
	struct http_conn *hc;
	struct MHD_IoVec iov[4];
	struct MHD_Response *r;
	const struct body *b;
	struct scrape *s;
	enum MHD_Result ret;
	unsigned int n = 0;
	bool gz;

	(void)version;
	(void)upload;
	/*
	 * Answer only once the whole request is read: libmicrohttpd (0.9.75)
	 * calls this first with the headers alone, and a response queued
	 * then makes it close the connection after the response, as it
	 * cannot tell what is left of the request ("Connection: close" on
	 * every response, no keep-alive).  A body is read and dropped.
	 */
	if (!*req_cls) {
		*req_cls = &request_started;
		hc = conn_of(conn);
		if (hc) {
			hc->busy = true;	/* until on_completed() */
			conn_touch(ex, hc);
		}
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return reply_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
				  "405 Method Not Allowed\n");
	if (!strcmp(url, "/"))
		return reply_landing(conn);
	if (strcmp(url, "/metrics"))
		return reply_text(conn, MHD_HTTP_NOT_FOUND, "404 Not Found\n");
	b = metrics_body(ex);
	s = calloc(1, sizeof(*s));
	if (!b || !s) {
		free(s);
		return reply_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
				  "500 Internal Server Error\n");
	}
	render_health(&s->health, ex);
	gz = wants_gzip(MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
				MHD_HTTP_HEADER_ACCEPT_ENCODING)) &&
	     s->health.len <= 0xffff && body_deflate(ex->cur, &ex->deflates);
	s->body = body_get(ex->cur);
	if (s->health.oom) {
		scrape_free(s);
		return reply_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
				  "500 Internal Server Error\n");
	}
	if (gz) {
		gzip_frame(s, b);
		iov[n++] = (struct MHD_IoVec){ s->gz_head, sizeof(s->gz_head) };
	}
	iov[n++] = (struct MHD_IoVec){ s->health.p, s->health.len };
	if (gz)
		iov[n++] = (struct MHD_IoVec){ b->gz, b->gz_len };
	else
		iov[n++] = (struct MHD_IoVec){ b->text.p, b->text.len };
	if (gz)
		iov[n++] = (struct MHD_IoVec){ s->gz_tail, sizeof(s->gz_tail) };
	r = MHD_create_response_from_iovec(iov, n, scrape_free, s);
	if (!r) {
		scrape_free(s);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				"text/plain; version=0.0.4; charset=utf-8");
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY,
				MHD_HTTP_HEADER_ACCEPT_ENCODING);
	if (gz)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
	ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/*
 * Use the hard limit on open files: every client holds one, and so do
 * those evicted but not closed yet (HTTP_EVICTING).
 */
static unsigned int conn_limit(void)
{
	struct rlimit rl;
	unsigned int need = HTTP_MAX_CONNS + HTTP_EVICTING + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur < need)
		return rl.rlim_cur > 2 * HTTP_PER_IP + HTTP_EVICTING + 64 ?
		       rl.rlim_cur - HTTP_EVICTING - 64 : 2 * HTTP_PER_IP;
	return HTTP_MAX_CONNS;
}

/*
 * External polling: libmicrohttpd's sockets sit in its own epoll set, whose
 * one fd joins sub_run()'s poll; MHD_run() never blocks.  Everything stays
 * on one thread, so the sample, the bodies and their reference counts need
 * no lock.
 */
static int http_start(struct exporter *ex, int lfd)
{
	const union MHD_DaemonInfo *di;

	ex->max_conns = conn_limit();
	ex->mhd = MHD_start_daemon(MHD_USE_EPOLL, 0, on_accept, ex,
				   on_request, ex,
				   MHD_OPTION_LISTEN_SOCKET, lfd,
				   /* ours is ex->max_conns (on_accept) */
				   MHD_OPTION_CONNECTION_LIMIT,
				   ex->max_conns + HTTP_EVICTING,
				   MHD_OPTION_NOTIFY_CONNECTION, on_connection, ex,
				   MHD_OPTION_NOTIFY_COMPLETED, on_completed, ex,
				   MHD_OPTION_CONNECTION_TIMEOUT,
				   (unsigned int)HTTP_TIMEOUT_S,
				   MHD_OPTION_CONNECTION_MEMORY_LIMIT,
				   (size_t)HTTP_CONN_MEMORY,
				   MHD_OPTION_END);
	if (!ex->mhd) {
		close(lfd);
		kstat_err("cannot start the HTTP server on %s", ex->listen);
		return -1;
	}
	di = MHD_get_daemon_info(ex->mhd, MHD_DAEMON_INFO_EPOLL_FD);
	ex->mhd_fd = di ? di->epoll_fd : -1;
	if (ex->mhd_fd < 0) {
		kstat_err("the HTTP server has no epoll fd");
		return -1;
	}
	return 0;
}

/* ---- the event loop's hooks (see struct sub_poll_ops) ---- */

static uint64_t now_ms(void)
{
	return clock_ns(CLOCK_MONOTONIC) / 1000000;
}

static void min_timeout(int *timeout_ms, uint64_t ms)
{
	if (ms > INT_MAX)
		ms = INT_MAX;
	if (*timeout_ms < 0 || (uint64_t)*timeout_ms > ms)
		*timeout_ms = ms;
}

static unsigned int export_fill(struct pollfd *pfd, int *timeout_ms, void *arg)
{
	struct exporter *ex = arg;
	MHD_UNSIGNED_LONG_LONG t;
	uint64_t now = now_ms(), due;
	unsigned int n = 0;

	if (ex->mhd) {
		pfd[n++] = (struct pollfd){ .fd = ex->mhd_fd, .events = POLLIN };
		if (MHD_get_timeout(ex->mhd, &t) == MHD_YES)
			min_timeout(timeout_ms, t);
	}
	/* Wake at the stale deadline: the textfile says up 0 then. */
	if (ex->snap.valid && !ex->stale)
		min_timeout(timeout_ms, ex->stale_at_ms > now ?
			    ex->stale_at_ms - now : 0);
	/* ... and when held-back losses may be logged */
	due = loss_due_ms(&ex->loss);
	if (due != UINT64_MAX)
		min_timeout(timeout_ms, due > now ? due - now : 0);
	return n;
}

/* Losses, at most one line per LOSS_LOG_MS (export-log.h). */
static void loss_log(struct exporter *ex)
{
	char line[256];

	if (loss_line(&ex->loss, now_ms(), line, sizeof(line)))
		log_to(stderr, ex->journal, LOG_WARNING, "%s", line);
}

/* Samples stopped while the module stays loaded, or came again. */
static void stale_log(struct exporter *ex, bool stale)
{
	if (stale)
		log_to(stderr, ex->journal, LOG_WARNING,
		       "no sample for %d intervals (%u.%03u s each): kstat_exporter_up 0 until one comes",
		       STALE_INTERVALS, ex->interval_ms / 1000, ex->interval_ms % 1000);
	else if (ex->snap.valid)	/* not the module gone: on_family() said */
		log_to(stderr, ex->journal, LOG_NOTICE,
		       "samples come again: kstat_exporter_up 1");
}

static int export_ready(const struct pollfd *pfd, unsigned int n, void *arg)
{
	struct exporter *ex = arg;
	bool stale;

	(void)pfd;
	(void)n;
	if (ex->oom) {
		kstat_err("out of memory copying a sample");
		return -1;
	}
	if (ex->snap.valid && (!ex->meta.loaded ||
			       ex->meta.generation != ex->snap.s.generation) &&
	    meta_load(&ex->meta, ex->snap.s.generation))
		ex->data_valid = false;		/* new labels */
	/*
	 * Judged once a pass, just after the dispatch read the socket empty,
	 * and used by every page rendered in this pass: a page rendered late
	 * in a long pass (many slow scrapes) must not call the kernel silent
	 * while its samples wait unread in our socket.
	 */
	stale = is_stale(ex);
	if (stale != ex->stale) {
		ex->file_due = true;
		stale_log(ex, stale);
	}
	ex->stale = stale;
	loss_log(ex);
	textfile_update(ex);
	if (ex->mhd)
		MHD_run(ex->mhd);
	return 0;
}

/* ---- the command ---- */

/*
 * The subscription: every section, per-CPU detail (each CPU's time), the
 * interval of --interval or else the default stream's.
 */
static int parse_interval(struct exporter *ex)
{
	char why[EXPLAIN_LEN];
	uint64_t ns;
	int err;

	ex->sub.fields = KSTAT_CONFIG_SECTIONS | KSTAT_CONFIG_PERCPU;
	ex->sub.flags = KSTAT_SUB_WAIT;		/* up 0 until the module comes */
	ex->sub.sections = cli_sections_all();
	ex->sub.percpu = 1;
	if (!ex->interval)
		return EXIT_OK;
	err = parse_duration(ex->interval, &summary_interval, &ns);
	if (err)
		return usage_err("export", "bad --interval \"%s\" (%s)", ex->interval,
				 duration_explain(why, sizeof(why), err, &summary_interval));
	ex->sub.fields |= KSTAT_CONFIG_INTERVAL;
	ex->sub.interval_ms = (uint32_t)(ns / MSEC_NS);
	return EXIT_OK;
}

/*
 * --irq-include or --irq-exclude (node_exporter's names for them too, so
 * that its ARGS carry over): one regex, compiled now, so that a bad one
 * is a usage error naming it, not a filter that never matches.
 */
static int parse_irq_filter(struct exporter *ex)
{
	const struct irq_opt *o = ex->exclude.regex ? &ex->exclude : &ex->include;
	char why[256];

	if (ex->include.regex && ex->exclude.regex)
		return usage_err("export", "\"%.*s\" and \"%.*s\" exclude each other: give one regex (include keeps only the IRQs it matches, exclude drops them)",
				 ex->include.len, ex->include.opt,
				 ex->exclude.len, ex->exclude.opt);
	ex->meta.filter = &ex->filter;
	if (!o->regex)
		return EXIT_OK;
	if (irq_filter_set(&ex->filter, o->regex, o == &ex->exclude, why,
			   sizeof(why)))
		return usage_err("export", "bad %.*s \"%s\": %s (a POSIX extended regex)",
				 o->len, o->opt, o->regex, why);
	return EXIT_OK;
}

/* Whether option @a, of @len before any "=", is @name. */
static bool opt_is(const char *a, size_t len, const char *name)
{
	return strlen(name) == len && !strncmp(a, name, len);
}

/* --irq-include, --irq-exclude or node_exporter's name: which one @a is. */
static struct irq_opt *irq_opt(struct exporter *ex, const char *a, size_t len)
{
	if (opt_is(a, len, "--irq-include") ||
	    opt_is(a, len, "--collector.interrupts.name-include"))
		return &ex->include;
	if (opt_is(a, len, "--irq-exclude") ||
	    opt_is(a, len, "--collector.interrupts.name-exclude"))
		return &ex->exclude;
	return NULL;
}

static int parse_args(int argc, char **argv, struct exporter *ex)
{
	struct irq_opt *f;
	const char **dst, *val;
	bool names_given = false;
	int i, ret;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		size_t len = eq ? (size_t)(eq - a) : strlen(a);

		if (len == 7 && !strncmp(a, "--names", len)) {
			val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (names_given)
				return usage_err("export", "\"--names\" given twice");
			names_given = true;
			if (val && !strcmp(val, "kstat"))
				ex->names = NAMES_KSTAT;
			else if (val && !strcmp(val, "node"))
				ex->names = NAMES_NODE;
			else
				return usage_err("export", "bad --names \"%s\" (kstat or node)",
						 val ? val : "");
			continue;
		}
		if (!strcmp(a, "--percpu")) {
			if (ex->percpu)
				return usage_err("export", "\"--percpu\" given twice");
			ex->percpu = true;
			continue;
		}
		if (!strcmp(a, "--no-zeros") ||
		    !strcmp(a, "--no-collector.interrupts.include-zeros")) {
			if (ex->filter.drop_zeros)
				return usage_err("export", "\"%s\" given twice (--no-zeros and --no-collector.interrupts.include-zeros are one option)",
						 a);
			ex->filter.drop_zeros = true;
			continue;
		}
		f = irq_opt(ex, a, len);
		if (f) {
			val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (f->regex)
				return usage_err("export", "\"%.*s\" given twice (--irq-%s and --collector.interrupts.name-%s are one option; one regex)",
						 (int)len, a, f == &ex->include ? "include" : "exclude",
						 f == &ex->include ? "include" : "exclude");
			if (!val || !*val)
				return usage_err("export", "\"%.*s\" needs a value", (int)len, a);
			*f = (struct irq_opt){ .regex = val, .opt = a, .len = (int)len };
			continue;
		}
		/* node_exporter's name for it, so that its ARGS carry over */
		if ((len == 8 && !strncmp(a, "--listen", len)) ||
		    (len == 20 && !strncmp(a, "--web.listen-address", len)))
			dst = &ex->listen;
		else if (len == 10 && !strncmp(a, "--textfile", len))
			dst = &ex->textfile;
		else if (len == 10 && !strncmp(a, "--interval", len))
			dst = &ex->interval;
		else
			return usage_err("export", "unexpected argument \"%s\"", a);
		if (*dst && dst == &ex->listen)
			return usage_err("export", "\"%.*s\" given twice (--listen and --web.listen-address are one option; one address)",
					 (int)len, a);
		if (*dst)
			return usage_err("export", "\"%.*s\" given twice", (int)len, a);
		val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		if (!val || !*val)
			return usage_err("export", "\"%.*s\" needs a value", (int)len, a);
		*dst = val;
	}
	if (!ex->listen && !ex->textfile)
		return usage_err("export", "give --listen ADDR:PORT, --textfile PATH or both");
	if (ex->percpu && ex->names == NAMES_NODE)
		return usage_err("export", "\"--percpu\" is kstat_interrupts_cpu_total's: --names node is per CPU already");
	ret = parse_irq_filter(ex);
	if (ret != EXIT_OK)
		return ret;
	return parse_interval(ex);
}

/*
 * A daemon: the module need not be there.  Without it the exporter serves
 * (and writes) kstat_exporter_up 0 until it is loaded, and says so.
 */
static int export_setup(struct exporter *ex)
{
	struct sockaddr_storage ss;
	socklen_t len = 0;
	int lfd, ret;

	ex->journal = log_is_journal(stderr, getenv("JOURNAL_STREAM"));
	if (ex->listen && (ret = parse_listen(ex->listen, &ss, &len)))
		return ret;
	read_interval(ex);
	/*
	 * per-CPU IRQ counts for every possible CPU, or none; node_exporter's
	 * node_interrupts_total is per CPU only
	 */
	ex->guard.cpu_span = ex->percpu || ex->names == NAMES_NODE ?
			     nr_possible_cpus() : 0;
	if (ex->listen) {
		lfd = listen_open(ex->listen, &ss, len, ex->journal);
		if (lfd < 0 || http_start(ex, lfd))
			return EXIT_FAIL;
	}
	/* Fail now, not at the first sample, if the file cannot be written. */
	if (ex->textfile && textfile_write(ex))
		return EXIT_FAIL;
	if (ex->textfile)
		log_to(stderr, ex->journal, LOG_INFO,
		       "writing %s after every sample", ex->textfile);
	if (!module_loaded())
		log_to(stderr, ex->journal, LOG_WARNING,
		       "the kstat module is not loaded: kstat_exporter_up 0 until it is (modprobe kstat)");
	return EXIT_OK;
}

static void export_cleanup(struct exporter *ex)
{
	if (ex->mhd)
		MHD_stop_daemon(ex->mhd);	/* closes the listening socket */
	body_put(ex->cur);
	sample_copy_free(&ex->snap);
	guard_free(&ex->guard);
	meta_free(&ex->meta);
	irq_filter_free(&ex->filter);
	buf_free(&ex->file);
}

static int export_prometheus(int argc, char **argv)
{
	static const struct kstat_sub_ops ops = {
		.sample = on_sample,
		.lost = on_lost,
		.family = on_family,
	};
	static const struct sub_poll_ops poll_ops = {
		.max_fds = 1,
		.fill = export_fill,
		.ready = export_ready,
	};
	/* interval_ms: the kernel's default, should the config not be read */
	struct exporter ex = { .mhd_fd = -1, .sub = KSTAT_SUB_OPTS_INIT,
			       .interval_ms = 1000 };
	struct sub_run_opts o = {
		.ops = &ops, .arg = &ex, .done = &ex.done, .poll = &poll_ops,
		.sub = &ex.sub, .ignore_hup = true,
	};
	int ret;

	if (opts.json)
		return usage_err("export", "\"export\" has no JSON output");
	signal(SIGHUP, SIG_IGN);	/* a daemon's: also before sub_run() */
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
