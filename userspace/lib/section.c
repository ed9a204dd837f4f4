// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat: the section table.  The kernel sends its counters as
 * sections (cpu, irq with its arch rows and intr sum, softirq, ...); the
 * library keeps one entry per section with the functions that take its
 * objects into a GET reply's list and into a subscriber's state.  The
 * walkers here know no section: the table below is filled from
 * KSTAT_SECTIONS (internal.h), which the Makefile generates from the
 * sections' definitions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "libkstat.h"
#include "internal.h"

/* In KSTAT_SECTIONS' order (generated, internal.h), by KSTAT_SEC_<name>. */
#define KSTAT_SECTION_ENTRY(name)	[KSTAT_SEC_##name] = &kstat_section_##name,
static const struct kstat_section *const kstat_sections[] = {
	KSTAT_SECTIONS(KSTAT_SECTION_ENTRY)
};
#undef KSTAT_SECTION_ENTRY

#define NR_SECTIONS	KSTAT_SEC_NR

/* The section of attribute @type, in a sample (@sample) or a GET reply. */
static const struct kstat_section *section_by_attr(int type, int sample)
{
	const struct kstat_section *sec;
	size_t i;

	for (i = 0; i < NR_SECTIONS; i++) {
		sec = kstat_sections[i];
		if ((sample ? sec->sample_attr : sec->reply_attr) == type)
			return sec;
	}
	return NULL;
}

/*
 * The walk checks that the attributes fill the message exactly (a
 * truncated reply is -EBADMSG), as it goes rather than in a pass of its
 * own: what it appended before then is freed with the failed request.
 */
int kstat_reply_parse_msg(const struct nlmsghdr *nlh, struct kstat_reply *r)
{
	const struct kstat_section *sec = NULL;
	const struct nlattr *a;
	int rem, err, type = -1;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EBADMSG;
	a = (const struct nlattr *)((const char *)NLMSG_DATA(nlh) + GENL_HDRLEN);
	rem = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	while (kattr_ok(a, rem)) {
		/* a dump's attributes come in runs of one type: look up once */
		if (kattr_type(a) != type) {
			type = kattr_type(a);
			sec = type ? section_by_attr(type, 0) : NULL;
		}
		if (sec && sec->add_run) {
			err = sec->add_run(r, a, rem);
			if (err < 0)
				return err;
			a = (const struct nlattr *)((const char *)a + err);
			rem -= err;
			continue;
		}
		err = sec && sec->add ? sec->add(r, a) : 0;
		if (err)
			return err;
		a = kattr_next(a, &rem);
	}
	return rem ? -EBADMSG : 0;
}

void kstat_reply_clear(struct kstat_reply *r)
{
	size_t i;

	for (i = 0; i < NR_SECTIONS; i++)
		if (kstat_sections[i]->free_reply)
			kstat_sections[i]->free_reply(r);
}

/*
 * The content comes in runs of one type (a keyframe's thousands of IRQs):
 * the section is looked up once per run.  The header's attributes come
 * before any content (the UAPI says so): one after it is corruption.
 */
int kstat_state_apply(struct kstat_state *st, const struct nlattr *head,
		      int len, int key)
{
	const struct kstat_section *sec = NULL;
	const struct nlattr *a = head;
	int rem = len, err, type = -1;

	while (kattr_ok(a, rem)) {
		if (kattr_type(a) != type) {
			type = kattr_type(a);
			if (type <= KSTAT_A_SAMPLE_KEYFRAME &&
			    type != KSTAT_A_SAMPLE_PAD)
				return -EBADMSG;
			sec = section_by_attr(type, 1);
			if (sec && st)
				st->s.sections |= sec->section;
		}
		if (sec && st && sec->apply_run) {
			err = sec->apply_run(st, a, rem, key);
			if (err < 0)
				return err;
			a = (const struct nlattr *)((const char *)a + err);
			rem -= err;
			continue;
		}
		if (sec && st && sec->apply) {
			err = sec->apply(st, a, key);
			if (err)
				return err;
		}
		a = kattr_next(a, &rem);	/* newer kernel, or checking */
	}
	return rem ? -EBADMSG : 0;
}

enum state_hook { HOOK_RESET, HOOK_FINISH, HOOK_FREE };

/* Each section's @which hook, where it has one. */
static void state_hooks(struct kstat_state *st, enum state_hook which)
{
	const struct kstat_section *sec;
	void (*fn)(struct kstat_state *st);
	size_t i;

	for (i = 0; i < NR_SECTIONS; i++) {
		sec = kstat_sections[i];
		fn = which == HOOK_RESET ? sec->reset :
		     which == HOOK_FINISH ? sec->finish : sec->free_state;
		if (fn)
			fn(st);
	}
}

void kstat_state_reset(struct kstat_state *st)
{
	state_hooks(st, HOOK_RESET);
}

void kstat_state_finish(struct kstat_state *st)
{
	state_hooks(st, HOOK_FINISH);
}

/* Each section frees what its part of the state holds. */
void kstat_state_free(struct kstat_state *st)
{
	state_hooks(st, HOOK_FREE);
}

/* ---- the request parsers, one list each ---- */

int kstat_parse_cpu_msg(const struct nlmsghdr *nlh, struct kstat_cpu_list *l)
{
	struct kstat_reply r = { .list[KSTAT_SEC_cpu] = l };

	return kstat_reply_parse_msg(nlh, &r);
}

int kstat_parse_irq_msg(const struct nlmsghdr *nlh, struct kstat_irq_list *l)
{
	/* called once per message: the room known is what @l holds */
	struct kstat_reply r = { .list[KSTAT_SEC_irq] = l, .irqs_cap = l->nr };

	return kstat_reply_parse_msg(nlh, &r);
}

int kstat_parse_softirq_msg(const struct nlmsghdr *nlh,
			    struct kstat_softirq_list *l)
{
	struct kstat_reply r = { .list[KSTAT_SEC_softirq] = l };

	return kstat_reply_parse_msg(nlh, &r);
}
