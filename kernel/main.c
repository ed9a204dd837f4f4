// SPDX-License-Identifier: GPL-2.0
/*
 * kstat: CPU time, IRQ and softirq counters over generic netlink.
 *
 * /proc/stat and /proc/interrupts make every reader pay for every counter,
 * formatted as text, on every read.  kstat lets a reader ask for exactly
 * the counters it needs, in binary.  The protocol is described in
 * include/uapi/linux/kstat.h.
 */
#include <linux/module.h>
#include <net/genetlink.h>

#include "kst.h"

static int __init kst_init(void)
{
	int err = kst_summary_init();

	if (err)
		return err;
	err = kst_netlink_init();
	if (err)
		goto summary_exit;
	return 0;
summary_exit:
	kst_summary_exit();
	return err;
}

/* Stop the summary producer first: nothing may be sent after unregister. */
static void __exit kst_exit(void)
{
	kst_summary_exit();
	kst_netlink_exit();
	kst_irq_hints_exit();
	kst_rec_cache_exit();
}

module_init(kst_init);
module_exit(kst_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("CPU time, IRQ and softirq counters over generic netlink");
MODULE_ALIAS_GENL_FAMILY(KSTAT_FAMILY_NAME);
