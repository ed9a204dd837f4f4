// SPDX-License-Identifier: GPL-2.0
/*
 * kstat: CPU time, IRQ and softirq counters over generic netlink.
 *
 * /proc/stat, /proc/interrupts and /proc/softirqs make every reader pay
 * for every counter, formatted as text, on every read.  kstat answers
 * with the counters a reader selects, in binary, and sends periodic
 * samples to the "summary" group and to subscribers.  The protocol is
 * docs/protocol.md; docs/design.md says why each concept exists.
 */
#include <linux/module.h>
#include <net/genetlink.h>

#include "kst.h"

static int __init kst_init(void)
{
	int err;

	kst_producer_init();
	err = kst_members_init();
	if (err)
		return err;
	err = kst_netlink_init();
	if (err)
		kst_members_exit();
	return err;
}

/*
 * Nothing may be sent once rmmod returns: the producer stops first, then
 * the family goes (waiting for requests in flight), then the release
 * notifier, the members and what the counts are kept in.
 */
static void __exit kst_exit(void)
{
	kst_producer_stop();
	kst_netlink_exit();
	kst_members_exit();
	kst_producer_exit();
	kst_irq_exit();
}

module_init(kst_init);
module_exit(kst_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("CPU time, IRQ and softirq counters over generic netlink");
MODULE_ALIAS_GENL_FAMILY(KSTAT_FAMILY_NAME);
