// SPDX-License-Identifier: GPL-2.0
/*
 * kstat dump messages, for the sections' dump ops.  A dumpit call packs
 * objects into as many messages as the skb takes; a section opens one
 * only when it has an object to put, and may end it early (the IRQ dump's
 * trailer travels in a message of its own).
 */
#include <net/genetlink.h>

#include "kst.h"
#include "compat.h"

/* Open a message for the next object, unless one is open. */
int kst_dump_open(struct kst_dump *d)
{
	if (d->hdr)
		return 0;
	d->hdr = genlmsg_put(d->skb, NETLINK_CB(d->cb->skb).portid,
			     d->cb->nlh->nlmsg_seq, kst_dump_family(d->cb),
			     NLM_F_MULTI, genl_dumpit_info(d->cb)->op.cmd);
	if (!d->hdr)
		return -EMSGSIZE;
	/*
	 * No genl_dump_check_consistent(): no dump keeps cb->seq.  The IRQ
	 * dump, the one whose set can change under it, flags its trailer
	 * with NLM_F_DUMP_INTR itself (irq.c).
	 */
	d->objs = 0;
	return 0;
}

/* End the open message, if any: the next object opens another. */
void kst_dump_end_msg(struct kst_dump *d)
{
	if (!d->hdr)
		return;
	if (d->objs)
		genlmsg_end(d->skb, d->hdr);
	else
		genlmsg_cancel(d->skb, d->hdr);
	d->hdr = NULL;
}

/*
 * End a dumpit call.  -EMSGSIZE with something in the skb means "full,
 * resume in the next one"; with nothing in it, one object is larger than
 * a dump skb, which the caller must be told rather than see a short dump.
 * When the dump is @complete, return 0 even with data in the skb: netlink
 * then appends NLMSG_DONE to this skb, which saves the reader a round trip.
 */
int kst_dump_close(struct kst_dump *d, int err, bool complete)
{
	kst_dump_end_msg(d);
	if (err == -EMSGSIZE && d->skb->len)
		return d->skb->len;
	if (err || complete)
		return err;
	return d->skb->len;
}
