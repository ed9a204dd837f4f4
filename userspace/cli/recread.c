// SPDX-License-Identifier: GPL-2.0
/*
 * Reading recordings and `kstat -j run` output; see recread.h and
 * docs/record-format.md.
 *
 * Strings are not copied: a sample keeps a reference (json-c's refcount)
 * on the parsed line it came from and on the identity and header lines
 * whose strings it points to, so a sample taken by the caller stays
 * whole after the reader has moved on, or closed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "recread.h"

#define ERR_LEN 512

/* A header line, shared by the samples recorded under it. */
struct rec_hdr_box {
	int refs;
	struct rec_header h;
	json_object *obj;		/* owns the strings */
	const char **command;
};

/* An identity line: IRQ descriptions (sorted by number) and arch descs. */
struct rec_identity {
	int refs;
	uint32_t generation;
	uint32_t kernel_nr_irqs;	/* its "nr_irqs", or 0 */
	json_object *obj;		/* owns the strings */
	struct kstat_irq *irqs;		/* descriptions only, no counts */
	size_t nr_irqs;
	const char **actions;		/* every IRQ's, one block */
	const char **arch_name, **arch_desc;
	size_t nr_arch;
};

/* A sample and what it points into; s first: a kstat_sample * is one. */
struct rec_sample {
	struct kstat_sample s;
	struct rec_hdr_box *hdr;
	struct rec_identity *id;
	json_object *line;
	struct kstat_cputime *cpus;	/* s.nr_cpus rows, then the total */
	struct kstat_irq *irqs;
	struct kstat_arch *arch;
	struct kstat_softirq *softirqs;
	struct kstat_cpu_count *percpu;	/* every per-CPU list, one block */
	size_t nr_percpu;
	const char **actions;		/* a run's IRQs' actions */
	uint8_t *online;
};

struct rec_reader {
	FILE *f;
	bool own_file;
	char *name;
	unsigned long line;
	char *buf, *next_buf;		/* the line, and one read ahead */
	size_t cap, next_cap;
	ssize_t next_len;		/* -2: nothing read ahead */
	struct rec_hdr_box *hdr;
	struct rec_identity *id;
	struct rec_sample *sample;	/* the last event's, if not taken */
	json_object *cur;		/* the last line parsed */
	bool ended, cut_short, eof;
	char err[ERR_LEN];
};

/* ---- small JSON accessors ---- */

static json_object *key(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* Has @o the key @k, null included (json-c's null is a NULL object)? */
static bool has_key(json_object *o, const char *k)
{
	return json_object_object_get_ex(o, k, NULL);
}

static bool is_int(json_object *v)
{
	return v && json_object_is_type(v, json_type_int);
}

/* A non-negative integer @k of @o into *@out: false if absent or not one. */
static bool get_u64(json_object *o, const char *k, uint64_t *out)
{
	json_object *v = key(o, k);

	/* above INT64_MAX json-c keeps a uint64, whose int64 is clamped */
	if (!is_int(v) || json_object_get_int64(v) < 0)
		return false;
	*out = json_object_get_uint64(v);
	return true;
}

static const char *get_str(json_object *o, const char *k)
{
	json_object *v = key(o, k);

	return v && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : NULL;
}

static json_object *get_array(json_object *o, const char *k)
{
	json_object *v = key(o, k);

	return v && json_object_is_type(v, json_type_array) ? v : NULL;
}

static bool get_bool(json_object *o, const char *k)
{
	json_object *v = key(o, k);

	return v && json_object_is_type(v, json_type_boolean) &&
	       json_object_get_boolean(v);
}

/* The first key of @o, which tells a line's kind; "" for {}. */
static const char *first_key(json_object *o)
{
	json_object_object_foreach(o, k, v) {
		(void)v;
		return k;
	}
	return "";
}

/* A NULL-ended array of @a's strings (a string array or null). */
static const char **str_array(json_object *a, size_t *n)
{
	const char **v;
	size_t i, len = json_object_array_length(a);

	v = calloc(len + 1, sizeof(*v));
	for (i = 0; v && i < len; i++)
		v[i] = json_object_get_string(json_object_array_get_idx(a, i));
	*n = len;
	return v;
}

/* ---- lifetimes ---- */

static void hdr_put(struct rec_hdr_box *b)
{
	if (!b || --b->refs)
		return;
	json_object_put(b->obj);
	free(b->command);
	free(b);
}

static void identity_put(struct rec_identity *id)
{
	if (!id || --id->refs)
		return;
	json_object_put(id->obj);
	free(id->irqs);
	free(id->actions);
	free(id->arch_name);
	free(id->arch_desc);
	free(id);
}

void rec_sample_free(const struct kstat_sample *cs)
{
	struct rec_sample *s = (struct rec_sample *)cs;

	if (!s)
		return;
	hdr_put(s->hdr);
	identity_put(s->id);
	json_object_put(s->line);
	free(s->cpus);
	free(s->irqs);
	free(s->arch);
	free(s->softirqs);
	free(s->percpu);
	free(s->actions);
	free(s->online);
	free(s);
}

const struct rec_header *rec_sample_header(const struct kstat_sample *s)
{
	const struct rec_sample *rs = (const struct rec_sample *)s;

	return rs->hdr ? &rs->hdr->h : NULL;
}

/* ---- errors ---- */

static int fail(struct rec_reader *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "FILE:LINE: why" into r->err; returns @err (negative). */
static int fail(struct rec_reader *r, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->err, sizeof(r->err), "%s:%lu: ", r->name, r->line);
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof(r->err) - (size_t)n, fmt, ap);
	va_end(ap);
	return err;
}

/* ---- building a sample ---- */

/*
 * Room for the per-CPU lists of every array @key of the objects in
 * @rows: the arrays' lengths, an upper bound of their non-zero counts.
 */
static size_t percpu_room(json_object *rows)
{
	size_t i, n = 0;
	json_object *p;

	for (i = 0; rows && i < json_object_array_length(rows); i++) {
		p = get_array(json_object_array_get_idx(rows, i), "percpu");
		if (p)
			n += json_object_array_length(p);
	}
	return n;
}

/*
 * The dense array "percpu" of @row as a sparse list at the end of @s's
 * block: *@list and *@nr, NULL / 0 without one.  False if not numbers.
 */
static bool take_percpu(struct rec_sample *s, json_object *row,
			const struct kstat_cpu_count **list, uint32_t *nr)
{
	json_object *p = get_array(row, "percpu"), *v;
	size_t c;

	*list = NULL;
	*nr = 0;
	if (!p)
		return true;
	*list = s->percpu + s->nr_percpu;
	for (c = 0; c < json_object_array_length(p); c++) {
		v = json_object_array_get_idx(p, c);
		if (!is_int(v) || json_object_get_int64(v) < 0)
			return false;
		if (json_object_get_int64(v))
			s->percpu[s->nr_percpu++] = (struct kstat_cpu_count){
				.cpu = (uint32_t)c,
				.count = (uint32_t)json_object_get_int64(v) };
	}
	*nr = (uint32_t)(s->percpu + s->nr_percpu - *list);
	if (!*nr)
		*list = NULL;
	/* an array, even of zeros, is detail: absent lists mean zeros */
	s->s.flags |= KSTAT_F_PERCPU;
	return true;
}

/* "cpu": each CPU's row (cpu a number), the total (cpu null). */
static const char *build_cpu(struct rec_sample *s, json_object *rows)
{
	size_t i, n = json_object_array_length(rows);
	struct kstat_cputime t;
	json_object *row, *cpu;
	int f;

	s->cpus = calloc(n + 1, sizeof(*s->cpus));
	if (!s->cpus)
		return "out of memory";
	for (i = 0; i < n; i++) {
		row = json_object_array_get_idx(rows, i);
		cpu = key(row, "cpu");
		if (!row || !json_object_is_type(row, json_type_object) ||
		    (cpu && !is_int(cpu)))
			return "a \"cpu\" row is not {\"cpu\": N or null, ...}";
		t = (struct kstat_cputime){ .cpu = cpu ? json_object_get_int(cpu) : -1 };
		for (f = 0; f < KSTAT_CPUTIME_NR; f++)
			if (!get_u64(row, kstat_cputime_name(f), &t.ns[f]))
				return "a \"cpu\" row lacks a time";
		if (t.cpu < 0) {
			s->cpus[n] = t;
			s->s.cpu_total = &s->cpus[n];
		} else {
			s->cpus[s->s.nr_cpus++] = t;
		}
	}
	s->s.cpus = s->cpus;
	s->s.cputime_size = sizeof(*s->cpus);
	s->s.sections |= KSTAT_SECTION_CPU;
	return NULL;
}

static int irq_cmp(const void *a, const void *b)
{
	const struct kstat_irq *x = a, *y = b;

	return x->irq < y->irq ? -1 : x->irq > y->irq;
}

/* The description of IRQ @irq in the identity, or NULL. */
static const struct kstat_irq *identity_irq(const struct rec_identity *id,
					    uint32_t irq)
{
	struct kstat_irq k = { .irq = irq };

	if (!id)
		return NULL;
	return bsearch(&k, id->irqs, id->nr_irqs, sizeof(k), irq_cmp);
}

/*
 * chip, hwirq, type, actions of @row into @q (the identity's keys, or a
 * run's rows, which carry them): false if it has none.  Actions go to
 * *@acts, which moves past them.
 */
static bool take_meta(struct kstat_irq *q, json_object *row,
		      const char ***acts)
{
	json_object *a = get_array(row, "actions");
	uint64_t hwirq;
	size_t i, n;

	if (!has_key(row, "chip") && !has_key(row, "type") && !a)
		return false;
	q->chip = get_str(row, "chip");
	q->name = get_str(row, "type");
	q->level = q->name && !strcmp(q->name, "level");
	q->has_hwirq = get_u64(row, "hwirq", &hwirq);
	q->hwirq = q->has_hwirq ? hwirq : 0;
	n = a ? json_object_array_length(a) : 0;
	for (i = 0; i < n; i++)
		(*acts)[i] = json_object_get_string(json_object_array_get_idx(a, i));
	q->actions = n ? *acts : NULL;
	q->nr_actions = n;
	*acts += n;
	q->has_meta = 1;
	return true;
}

/* How many actions the rows of @rows name, for take_meta(). */
static size_t actions_room(json_object *rows)
{
	json_object *a;
	size_t i, n = 0;

	for (i = 0; rows && i < json_object_array_length(rows); i++) {
		a = get_array(json_object_array_get_idx(rows, i), "actions");
		n += a ? json_object_array_length(a) : 0;
	}
	return n;
}

/*
 * "irq", "arch", "intr".  Descriptions from each row when it has them
 * (a run's), else from the identity in force when its generation is the
 * sample's.
 */
static const char *build_irq(struct rec_sample *s, json_object *line,
			     json_object *rows)
{
	json_object *arch = get_array(line, "arch"), *row;
	const struct rec_identity *id = s->id;
	const struct kstat_irq *meta;
	size_t i, j, n = json_object_array_length(rows);
	const char **acts;
	uint64_t v;

	s->irqs = calloc(n + 1, sizeof(*s->irqs));
	s->actions = calloc(actions_room(rows) + 1, sizeof(*s->actions));
	if (!s->irqs || !s->actions)
		return "out of memory";
	acts = s->actions;
	for (i = 0; i < n; i++) {
		struct kstat_irq *q = &s->irqs[i];

		row = json_object_array_get_idx(rows, i);
		if (!get_u64(row, "irq", &v) || v > UINT32_MAX)
			return "an \"irq\" row lacks its number";
		q->irq = (uint32_t)v;
		if (get_u64(row, "count", &v))
			q->count = v;
		else if (!has_key(row, "count") || key(row, "count"))
			return "an \"irq\" row lacks its count";
		if (!take_percpu(s, row, &q->percpu, &q->nr_percpu))
			return "an \"irq\" row's percpu is not an array of counts";
		if (take_meta(q, row, &acts)) {
			s->s.flags |= KSTAT_F_META;
			continue;
		}
		/* the line before names the IRQs, whatever its generation */
		meta = identity_irq(id, q->irq);
		if (meta) {
			q->chip = meta->chip;
			q->name = meta->name;
			q->level = meta->level;
			q->hwirq = meta->hwirq;
			q->has_hwirq = meta->has_hwirq;
			q->actions = meta->actions;
			q->nr_actions = meta->nr_actions;
			q->has_meta = 1;
			s->s.flags |= KSTAT_F_META;
		}
	}
	s->s.irqs = s->irqs;
	s->s.nr_irqs = n;
	s->s.irq_size = sizeof(*s->irqs);

	n = arch ? json_object_array_length(arch) : 0;
	s->arch = calloc(n + 1, sizeof(*s->arch));
	if (!s->arch)
		return "out of memory";
	for (i = 0; i < n; i++) {
		struct kstat_arch *a = &s->arch[i];

		row = json_object_array_get_idx(arch, i);
		a->name = get_str(row, "name");
		if (!a->name || !get_u64(row, "count", &a->count))
			return "an \"arch\" row lacks its name or count";
		if (!take_percpu(s, row, &a->percpu, &a->nr_percpu))
			return "an \"arch\" row's percpu is not an array of counts";
		a->desc = get_str(row, "desc");
		for (j = 0; !a->desc && id && j < id->nr_arch; j++)
			if (id->arch_name[j] && !strcmp(id->arch_name[j], a->name))
				a->desc = id->arch_desc[j];
	}
	s->s.arch = s->arch;
	s->s.nr_arch = n;
	s->s.arch_size = sizeof(*s->arch);
	if (get_u64(line, "intr", &v))
		s->s.intr_sum = v;
	s->s.sections |= KSTAT_SECTION_IRQ;
	return NULL;
}

static const char *build_softirq(struct rec_sample *s, json_object *rows)
{
	size_t i, n = json_object_array_length(rows);
	json_object *row;

	s->softirqs = calloc(n + 1, sizeof(*s->softirqs));
	if (!s->softirqs)
		return "out of memory";
	for (i = 0; i < n; i++) {
		struct kstat_softirq *v = &s->softirqs[i];

		row = json_object_array_get_idx(rows, i);
		v->vec = (uint32_t)i;
		v->name = get_str(row, "name");
		if (!v->name || !get_u64(row, "count", &v->count))
			return "a \"softirq\" row lacks its name or count";
		if (!take_percpu(s, row, &v->percpu, &v->nr_percpu))
			return "a \"softirq\" row's percpu is not an array of counts";
	}
	s->s.softirqs = s->softirqs;
	s->s.nr_softirqs = n;
	s->s.softirq_size = sizeof(*s->softirqs);
	s->s.sections |= KSTAT_SECTION_SOFTIRQ;
	return NULL;
}

/*
 * The online bitmap: the CPUs with a row of their own, or every CPU id
 * below @nr_cpus when the sample has none.
 */
static const char *build_online(struct rec_sample *s, uint32_t nr_cpus)
{
	uint32_t span = nr_cpus, c;
	size_t i;

	for (i = 0; i < s->s.nr_cpus; i++)
		if ((uint32_t)s->cpus[i].cpu + 1 > span)
			span = (uint32_t)s->cpus[i].cpu + 1;
	s->online = calloc(span / 8 + 1, 1);
	if (!s->online)
		return "out of memory";
	if (s->s.nr_cpus) {
		for (i = 0; i < s->s.nr_cpus; i++)
			s->online[s->cpus[i].cpu / 8] |= 1u << (s->cpus[i].cpu % 8);
	} else {
		for (c = 0; c < nr_cpus; c++)
			s->online[c / 8] |= 1u << (c % 8);
	}
	s->s.online = s->online;
	s->s.online_len = span / 8 + 1;
	return NULL;
}

/* Every section @line carries, into a new sample; NULL or why not. */
static const char *build_sample(struct rec_sample *s, json_object *line,
				uint32_t nr_cpus)
{
	json_object *cpu = get_array(line, "cpu"), *irq = get_array(line, "irq"),
		    *soft = get_array(line, "softirq");
	const char *why = NULL;

	s->line = json_object_get(line);
	s->s.size = sizeof(s->s);
	s->percpu = calloc(percpu_room(irq) + percpu_room(get_array(line, "arch")) +
			   percpu_room(soft) + 1, sizeof(*s->percpu));
	if (!s->percpu)
		return "out of memory";
	if (key(line, "cpu") && !cpu)
		return "\"cpu\" is not an array";
	if (key(line, "irq") && !irq)
		return "\"irq\" is not an array";
	if (key(line, "softirq") && !soft)
		return "\"softirq\" is not an array";
	if (cpu)
		why = build_cpu(s, cpu);
	if (!why && irq)
		why = build_irq(s, line, irq);
	if (!why && soft)
		why = build_softirq(s, soft);
	if (!why)
		why = build_online(s, nr_cpus);
	return why;
}

/* ---- the lines of a recording ---- */

static const char *const section_names[] = { "cpu", "irq", "softirq" };
static const uint32_t section_bits[] = {
	KSTAT_SECTION_CPU, KSTAT_SECTION_IRQ, KSTAT_SECTION_SOFTIRQ
};

static int read_header(struct rec_reader *r, json_object *o)
{
	struct rec_hdr_box *b;
	json_object *v = key(o, "kstat_record"), *secs, *cmd;
	uint64_t u;
	size_t i, j;

	if (!is_int(v) || json_object_get_int64(v) < 1)
		return fail(r, -EINVAL, "bad header: \"kstat_record\" is not a format version");
	if (json_object_get_int64(v) > REC_FORMAT_VERSION)
		return fail(r, -EPROTO, "recording format version %" PRId64 " is newer than this kstat reads (%d): read it with a newer kstat",
			    json_object_get_int64(v), REC_FORMAT_VERSION);
	b = calloc(1, sizeof(*b));
	if (!b)
		return fail(r, -ENOMEM, "out of memory");
	b->refs = 1;
	b->obj = json_object_get(o);
	b->h = (struct rec_header){
		.version = (unsigned int)json_object_get_int64(v),
		.segment = r->hdr ? r->hdr->h.segment + 1 : 1,
		.line = r->line,
		.tool = get_str(o, "tool"), .host = get_str(o, "host"),
		.kernel = get_str(o, "kernel"), .machine = get_str(o, "machine"),
		.interval_ms = -1, .percpu = get_bool(o, "percpu"),
	};
	hdr_put(r->hdr);
	r->hdr = b;
	if (!get_u64(o, "nr_cpus", &u) || u > UINT32_MAX)
		return fail(r, -EINVAL, "bad header: no \"nr_cpus\"");
	b->h.nr_cpus = (uint32_t)u;
	if (get_u64(o, "nr_irqs", &u) && u <= UINT32_MAX)
		b->h.kernel_nr_irqs = (uint32_t)u;
	v = key(o, "realtime_offset_ns");
	b->h.realtime_offset_ns = is_int(v) ? json_object_get_int64(v) : 0;
	if (get_u64(o, "interval_ms", &u))
		b->h.interval_ms = (int64_t)u;
	secs = get_array(o, "sections");
	for (i = 0; secs && i < json_object_array_length(secs); i++)
		for (j = 0; j < 3; j++)
			if (!strcmp(json_object_get_string(json_object_array_get_idx(secs, i)),
				    section_names[j]))
				b->h.sections |= section_bits[j];
	cmd = get_array(o, "command");
	if (cmd) {
		b->command = str_array(cmd, &b->h.nr_command);
		if (!b->command)
			return fail(r, -ENOMEM, "out of memory");
		b->h.command = b->command;
	}
	return 1;
}

static int read_identity(struct rec_reader *r, json_object *o,
			 struct rec_event *ev)
{
	json_object *irqs = get_array(o, "irqs"), *arch = get_array(o, "arch"), *row;
	struct rec_identity *id;
	const char **acts;
	uint64_t u;
	size_t i, n;

	if (!get_u64(o, "generation", &u) || !irqs)
		return fail(r, -EINVAL, "bad identity line: it needs \"generation\" and \"irqs\"");
	id = calloc(1, sizeof(*id));
	if (!id)
		return fail(r, -ENOMEM, "out of memory");
	id->refs = 1;
	id->obj = json_object_get(o);
	id->generation = (uint32_t)u;
	if (get_u64(o, "nr_irqs", &u) && u <= UINT32_MAX)
		id->kernel_nr_irqs = (uint32_t)u;
	identity_put(r->id);
	r->id = id;
	n = json_object_array_length(irqs);
	id->irqs = calloc(n + 1, sizeof(*id->irqs));
	id->actions = calloc(actions_room(irqs) + 1, sizeof(*id->actions));
	if (!id->irqs || !id->actions)
		return fail(r, -ENOMEM, "out of memory");
	acts = id->actions;
	for (i = 0; i < n; i++) {
		row = json_object_array_get_idx(irqs, i);
		if (!get_u64(row, "irq", &u) || u > UINT32_MAX)
			return fail(r, -EINVAL, "bad identity line: an IRQ without its number");
		id->irqs[i].irq = (uint32_t)u;
		take_meta(&id->irqs[i], row, &acts);
		id->irqs[i].has_meta = 1;
	}
	id->nr_irqs = n;
	qsort(id->irqs, n, sizeof(*id->irqs), irq_cmp);
	n = arch ? json_object_array_length(arch) : 0;
	id->arch_name = calloc(n + 1, sizeof(char *));
	id->arch_desc = calloc(n + 1, sizeof(char *));
	if (!id->arch_name || !id->arch_desc)
		return fail(r, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		row = json_object_array_get_idx(arch, i);
		id->arch_name[i] = get_str(row, "name");
		id->arch_desc[i] = get_str(row, "desc");
	}
	id->nr_arch = n;
	ev->kind = REC_IDENTITY;
	ev->generation = id->generation;
	return 1;
}

static int read_sample(struct rec_reader *r, json_object *o,
		       struct rec_event *ev)
{
	struct rec_sample *s = calloc(1, sizeof(*s));
	const char *why;
	uint64_t u;

	if (!s)
		return fail(r, -ENOMEM, "out of memory");
	r->sample = s;
	s->hdr = r->hdr;
	s->hdr->refs++;
	if (r->id) {
		s->id = r->id;
		r->id->refs++;
	}
	if (!get_u64(o, "seq", &s->s.seq) ||
	    !get_u64(o, "timestamp_ns", &s->s.timestamp_ns))
		return fail(r, -EINVAL, "bad sample: it needs \"seq\" and \"timestamp_ns\"");
	if (get_u64(o, "generation", &u))
		s->s.generation = (uint32_t)u;
	s->s.from_get = get_bool(o, "from_get");
	s->s.kernel_nr_irqs = r->id && r->id->kernel_nr_irqs ?
			      r->id->kernel_nr_irqs : r->hdr->h.kernel_nr_irqs;
	why = build_sample(s, o, r->hdr->h.nr_cpus);
	if (why)
		return fail(r, strcmp(why, "out of memory") ? -EINVAL : -ENOMEM,
			    "bad sample: %s", why);
	ev->kind = REC_SAMPLE;
	ev->sample = &s->s;
	return 1;
}

static int read_end(struct rec_reader *r, json_object *o, struct rec_event *ev)
{
	json_object *e = key(o, "end"), *v;

	if (!e || !json_object_is_type(e, json_type_object))
		return fail(r, -EINVAL, "bad end line: \"end\" is not an object");
	ev->kind = REC_END;
	get_u64(e, "timestamp_ns", &ev->end.timestamp_ns);
	get_u64(e, "samples", &ev->end.samples);
	get_u64(e, "lost", &ev->end.lost);
	v = key(e, "status");
	ev->end.has_status = is_int(v);
	ev->end.status = is_int(v) ? json_object_get_int(v) : 0;
	v = key(e, "signal");
	ev->end.has_signal = is_int(v);
	ev->end.signal = is_int(v) ? json_object_get_int(v) : 0;
	r->ended = true;
	return 1;
}

/* One parsed line into *@ev by its first key. */
static int read_line(struct rec_reader *r, json_object *o, struct rec_event *ev)
{
	const char *k = first_key(o);

	if (!strcmp(k, "kstat_record")) {
		ev->kind = REC_HEADER;
		return read_header(r, o);
	}
	if (!r->hdr)
		return fail(r, -EINVAL, "not a kstat recording: its first line is not a header {\"kstat_record\": ...}");
	if (!strcmp(k, "generation"))
		return read_identity(r, o, ev);
	if (!strcmp(k, "seq"))
		return read_sample(r, o, ev);
	if (!strcmp(k, "lost")) {
		ev->kind = REC_LOST;
		get_u64(o, "lost", &ev->lost.lost);
		ev->lost.reason = get_str(o, "reason");
		ev->lost.reload = ev->lost.reason && !strcmp(ev->lost.reason, "reload");
		return 1;
	}
	if (!strcmp(k, "event")) {
		ev->kind = REC_FAMILY;
		ev->family.present = get_bool(o, "present");
		get_u64(o, "timestamp_ns", &ev->family.timestamp_ns);
		return 1;
	}
	if (!strcmp(k, "end"))
		return read_end(r, o, ev);
	ev->kind = REC_OTHER;	/* a later version's: ignored */
	return 1;
}

/* ---- the reader ---- */

int rec_open(const char *path, struct rec_reader **rp)
{
	struct rec_reader *r = calloc(1, sizeof(*r));

	*rp = r;
	if (!r)
		return -ENOMEM;
	r->next_len = -2;
	r->name = strdup(strcmp(path, "-") ? path : "<stdin>");
	if (!r->name)
		return -ENOMEM;
	if (!strcmp(path, "-")) {
		r->f = stdin;
	} else {
		r->f = fopen(path, "r");
		r->own_file = true;
	}
	if (!r->f) {
		int err = errno;

		snprintf(r->err, sizeof(r->err), "%s: %s", path, strerror(err));
		return -err;
	}
	return 0;
}

/* The next line into *@buf: its length, or -1 at the end (or an error). */
static ssize_t next_line(struct rec_reader *r, char **buf, size_t *cap)
{
	ssize_t n;
	char *t;
	size_t c;

	if (r->next_len == -2)
		return getline(buf, cap, r->f);
	/* the line read ahead: swap buffers */
	t = *buf;
	*buf = r->next_buf;
	r->next_buf = t;
	c = *cap;
	*cap = r->next_cap;
	r->next_cap = c;
	n = r->next_len;
	r->next_len = -2;
	return n;
}

/* Is there a line after this one?  Reads it ahead. */
static bool more_lines(struct rec_reader *r)
{
	if (r->next_len == -2)
		r->next_len = getline(&r->next_buf, &r->next_cap, r->f);
	return r->next_len >= 0;
}

/* Parse @len bytes of @buf: the object, or NULL with @why set. */
static json_object *parse_object(const char *buf, size_t len, const char **why)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *o;

	if (!tok) {
		*why = "out of memory";
		return NULL;
	}
	o = json_tokener_parse_ex(tok, buf, (int)len);
	if (!o || tok->char_offset < (int)len) {
		enum json_tokener_error e = json_tokener_get_error(tok);

		*why = e == json_tokener_continue ? "it ends inside a value" :
		       e != json_tokener_success ? json_tokener_error_desc(e) :
		       "not one JSON value";
		json_object_put(o);
		o = NULL;
	} else if (!json_object_is_type(o, json_type_object)) {
		*why = "not a JSON object";
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

int rec_next(struct rec_reader *r, struct rec_event *ev)
{
	const char *why = NULL;
	json_object *o;
	ssize_t n;

	rec_sample_free(r->sample ? &r->sample->s : NULL);
	r->sample = NULL;
	json_object_put(r->cur);
	r->cur = NULL;
	memset(ev, 0, sizeof(*ev));
	if (!r->f)	/* rec_open() failed: its error stands */
		return -EBADF;
	if (r->eof)
		return 0;
	errno = 0;
	n = next_line(r, &r->buf, &r->cap);
	if (n < 0) {
		r->eof = true;
		if (ferror(r->f))
			return fail(r, -EIO, "cannot read: %s", strerror(errno ? errno : EIO));
		return 0;
	}
	r->line++;
	ev->line = r->line;
	if (n == 0 || r->buf[n - 1] != '\n') {
		/* the writer ends every line it finished: this one it did not */
		r->eof = r->cut_short = true;
		ev->kind = REC_CUT_SHORT;
		ev->header = r->hdr ? &r->hdr->h : NULL;
		return 1;
	}
	o = parse_object(r->buf, (size_t)n - 1, &why);
	if (!o) {
		if (more_lines(r))
			return fail(r, -EINVAL, "not a JSON object (%s)", why);
		/* a last line written in part, then ended by someone else */
		r->eof = r->cut_short = true;
		ev->kind = REC_CUT_SHORT;
		ev->header = r->hdr ? &r->hdr->h : NULL;
		return 1;
	}
	r->cur = o;
	n = read_line(r, o, ev);
	ev->line = r->line;
	ev->header = r->hdr ? &r->hdr->h : NULL;
	return (int)n;
}

const char *rec_error(const struct rec_reader *r)
{
	return r ? r->err : "out of memory";
}

bool rec_ended(const struct rec_reader *r)
{
	return r->ended;
}

bool rec_cut_short(const struct rec_reader *r)
{
	return r->cut_short;
}

const struct kstat_sample *rec_sample_take(struct rec_reader *r)
{
	struct rec_sample *s = r->sample;

	r->sample = NULL;
	return s ? &s->s : NULL;
}

void rec_close(struct rec_reader *r)
{
	if (!r)
		return;
	rec_sample_free(r->sample ? &r->sample->s : NULL);
	json_object_put(r->cur);
	hdr_put(r->hdr);
	identity_put(r->id);
	if (r->f && r->own_file)
		fclose(r->f);
	free(r->buf);
	free(r->next_buf);
	free(r->name);
	free(r);
}

/* ---- `kstat -j run` output ---- */

struct rec_run_box {
	struct rec_run run;
	json_object *obj;
	const char **command;
	enum rec_irq_state *state;
	struct rec_sample *delta;
};

void rec_run_free(struct rec_run *run)
{
	struct rec_run_box *b = (struct rec_run_box *)run;

	if (!b)
		return;
	rec_sample_free(b->delta ? &b->delta->s : NULL);
	json_object_put(b->obj);
	free(b->command);
	free(b->state);
	free(b);
}

/* The whole of @f, NUL-terminated, into *@out: its length or -errno. */
static ssize_t slurp(FILE *f, char **out)
{
	size_t cap = 0, len = 0, n;
	char *buf = NULL, *t;

	do {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 65536;
			t = realloc(buf, cap);
			if (!t) {
				free(buf);
				return -ENOMEM;
			}
			buf = t;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		free(buf);
		return -EIO;
	}
	buf[len] = '\0';
	*out = buf;
	return (ssize_t)len;
}

/* The IRQ rows' states, in the rows' order. */
static const char *run_states(struct rec_run_box *b, json_object *rows)
{
	size_t i, n = rows ? json_object_array_length(rows) : 0;
	const char *st;

	b->state = calloc(n + 1, sizeof(*b->state));
	if (!b->state)
		return "out of memory";
	for (i = 0; i < n; i++) {
		st = get_str(json_object_array_get_idx(rows, i), "state");
		if (!st || !strcmp(st, "same"))
			b->state[i] = REC_IRQ_SAME;
		else if (!strcmp(st, "new"))
			b->state[i] = REC_IRQ_NEW;
		else if (!strcmp(st, "gone"))
			b->state[i] = REC_IRQ_GONE;
		else
			return "an \"irq\" row's state is not same, new or gone";
	}
	return NULL;
}

/* The fields of the run object @o into @b. */
static const char *run_fields(struct rec_run_box *b, json_object *o)
{
	struct rec_run *run = &b->run;
	json_object *cmd = get_array(o, "command"), *v;
	uint64_t u;

	if (!get_u64(o, "start_ns", &run->start_ns) ||
	    !get_u64(o, "end_ns", &run->end_ns) || !get_u64(o, "nr_cpus", &u))
		return "not a kstat -j run output (no \"start_ns\", \"end_ns\" or \"nr_cpus\")";
	run->nr_cpus = (uint32_t)u;
	if (cmd) {
		b->command = str_array(cmd, &run->nr_command);
		if (!b->command)
			return "out of memory";
		run->command = b->command;
	}
	v = key(o, "status");
	run->has_status = is_int(v);
	run->status = is_int(v) ? json_object_get_int(v) : 0;
	v = key(o, "signal");
	run->has_signal = is_int(v);
	run->signal = is_int(v) ? json_object_get_int(v) : 0;
	v = key(o, "realtime_offset_ns");
	run->realtime_offset_ns = is_int(v) ? json_object_get_int64(v) : 0;
	run->host = get_str(o, "host");
	run->kernel = get_str(o, "kernel");
	run->percpu = get_bool(o, "percpu");
	return run_states(b, get_array(o, "irq"));
}

static const char *run_parse(struct rec_run_box *b, const char *text, size_t len)
{
	struct rec_sample *s;
	const char *why = NULL;
	json_object *o;

	/* one object, maybe pretty-printed over many lines */
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	o = parse_object(text, len, &why);
	if (!o)
		return why;
	b->obj = o;
	why = run_fields(b, o);
	if (why)
		return why;
	s = calloc(1, sizeof(*s));
	if (!s)
		return "out of memory";
	b->delta = s;
	s->s.timestamp_ns = b->run.end_ns;
	why = build_sample(s, o, b->run.nr_cpus);
	b->run.delta = &s->s;
	b->run.irq_state = b->state;
	return why;
}

int rec_run_read(const char *path, struct rec_run **out, char *err,
		 size_t err_len)
{
	struct rec_run_box *b = calloc(1, sizeof(*b));
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	const char *why = NULL;
	char *text = NULL;
	ssize_t len;
	int ret = 0;

	*out = NULL;
	if (!f || !b) {
		ret = f ? -ENOMEM : -errno;
		snprintf(err, err_len, "%s: %s", path, strerror(-ret));
		free(b);
		if (f && f != stdin)
			fclose(f);
		return ret;
	}
	len = slurp(f, &text);
	if (f != stdin)
		fclose(f);
	if (len < 0) {
		snprintf(err, err_len, "%s: %s", path, strerror((int)-len));
		free(b);
		return (int)len;
	}
	why = run_parse(b, text, (size_t)len);
	free(text);
	if (why) {
		snprintf(err, err_len, "%s: %s", path, why);
		rec_run_free(&b->run);
		return strcmp(why, "out of memory") ? -EINVAL : -ENOMEM;
	}
	*out = &b->run;
	return 0;
}

int rec_file_type(const char *path, char *err, size_t err_len)
{
	FILE *f = fopen(path, "r");
	char head[4096];
	size_t n;
	int ret = REC_FILE_UNKNOWN;

	if (!f) {
		ret = -errno;
		snprintf(err, err_len, "%s: %s", path, strerror(-ret));
		return ret;
	}
	n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = '\0';
	/* the first key, as the writers print it: {"kstat_record" or {"command" */
	if (strstr(head, "\"kstat_record\"") &&
	    strstr(head, "\"kstat_record\"") - head < 8)
		ret = REC_FILE_RECORDING;
	else if (strstr(head, "\"command\"") && strstr(head, "\"start_ns\""))
		ret = REC_FILE_RUN;
	return ret;
}
