/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernels kstat supports: Debian 12's 6.1 (the
 * minimum) and 6.12 (Debian 13, RHEL 10, Debian 12's backport), stock
 * and PREEMPT_RT.  Every version test of the module is here, so that the
 * code elsewhere reads the same on all of them.
 */
#ifndef _KSTAT_COMPAT_H
#define _KSTAT_COMPAT_H

#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/percpu.h>
#include <linux/version.h>
#include <net/genetlink.h>

/*
 * 6.2 split do and dump ops: a dump's attributes moved from
 * genl_dumpit_info's attrs into its genl_info.
 */
static inline struct nlattr **kst_dump_attrs(struct netlink_callback *cb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
	return genl_dumpit_info(cb)->info.attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * 6.10 made the per-CPU IRQ count a struct irqstat (.cnt, and a snapshot
 * .ref with GENERIC_IRQ_STAT_SNAPSHOT).  KST_DESC_CNT() names the
 * per-CPU counter, for per_cpu() and this_cpu ops (the test module
 * tests/irqsim writes it too).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define KST_DESC_CNT(desc)	((desc)->kstat_irqs->cnt)
#else
#define KST_DESC_CNT(desc)	(*(desc)->kstat_irqs)
#endif

/*
 * 0 for a CPU id that is not possible: it has no per-CPU area, and
 * per_cpu() would read memory that is not a counter (ids below
 * nr_cpu_ids can be impossible where the possible mask has holes).
 */
static inline unsigned int kst_desc_cpu_count(struct irq_desc *desc,
					      unsigned int cpu)
{
	if (!cpu_possible(cpu))
		return 0;
	/* data_race: bumped locklessly; /proc/interrupts reads it so too */
	return data_race(per_cpu(KST_DESC_CNT(desc), cpu));
}

/* The KVM posted-interrupt counters: under HAVE_KVM until 6.9, then KVM. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
#define KST_HAVE_KVM_IPIS	IS_ENABLED(CONFIG_KVM)
#else
#define KST_HAVE_KVM_IPIS	IS_ENABLED(CONFIG_HAVE_KVM)
#endif

/*
 * x86's arch_irq_stat_cpu(), which /proc/stat adds to its "intr" total,
 * counts the hypervisor rows HYP, HRE and HVS since 6.5 (commit
 * 504dba50b0c3, "x86/irq: Add hardcoded hypervisor interrupts to
 * /proc/stat"); 6.1's leaves them out.
 */
#define KST_HV_IN_INTR_SUM \
	(LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0))

/*
 * x86's PMN row (posted MSI notifications) came in 6.10 with its config
 * symbol, which older kernels do not have; arch_irq_stat_cpu() leaves it
 * out of "intr" (6.12).
 */
#define KST_HAVE_POSTED_MSI	IS_ENABLED(CONFIG_X86_POSTED_MSI)

/*
 * x86's machine-check and error rows of /proc/interrupts: MCE and MCP
 * (per-CPU mce_exception_count, mce_poll_count), ERR and MIS (the
 * atomics irq_err_count, irq_mis_count).  arch_irq_stat_cpu() and
 * arch_irq_stat() add MCE, MCP and ERR to /proc/stat's "intr", but no
 * kernel exports them to modules: kstat reads them when it is built into
 * the kernel (Kconfig.snippet, CONFIG_KSTAT=y), and a module names them
 * in every IRQ dump instead (KSTAT_A_ARCH_UNREAD).
 */
#if defined(CONFIG_X86) && !defined(MODULE)
#define KST_HAVE_ERROR_ROWS	1
#else
#define KST_HAVE_ERROR_ROWS	0
#endif

#endif /* _KSTAT_COMPAT_H */
