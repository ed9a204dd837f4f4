// SPDX-License-Identifier: GPL-2.0
/*
 * kstat architecture counters: the rows of /proc/interrupts below the IRQ
 * descriptors.  On x86 these are per-CPU fields of irq_stat (exported).
 *
 * Rows whose counters the kernel does not export to modules, ERR and MIS
 * (irq_err_count, irq_mis_count), MCE and MCP (mce_exception_count,
 * mce_poll_count), are read when kstat is built into the kernel; a
 * module names them in every IRQ dump instead (kst_arch_unread[], see
 * compat.h), never guesses them.  PLT, HYP, HRE and HVS are shown
 * by /proc only when their vector is in use, a test modules cannot make
 * (x86_platform_ipi_callback and system_vectors are not exported either),
 * so kstat always reports them; their counters stay zero when unused.
 */
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/hardirq.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <net/netlink.h>
#ifdef CONFIG_X86
#include <asm/hw_irq.h>
#include <asm/mce.h>
#endif

#include "kst.h"
#include "compat.h"
#include "ext.h"

#ifdef CONFIG_X86
#define KST_ARCH(_name, _field, _desc, _sum) {			\
	.name = _name,							\
	.desc = _desc,							\
	.offset = offsetof(irq_cpustat_t, _field),			\
	.in_intr_sum = _sum,						\
}

#define KST_ARCH_PCPU(_name, _var, _desc) {				\
	.name = _name, .desc = _desc, .pcpu = &(_var), .in_intr_sum = true, \
}

#define KST_ARCH_GLOBAL(_name, _var, _desc, _sum) {			\
	.name = _name, .desc = _desc, .global = &(_var), .in_intr_sum = _sum, \
}

/*
 * In /proc/interrupts order; _sum as arch_irq_stat_cpu() counts them,
 * which differs between kernels (compat.h).
 */
const struct kst_arch_counter kst_arch_counters[] = {
	KST_ARCH("NMI", __nmi_count, "Non-maskable interrupts", true),
#ifdef CONFIG_X86_LOCAL_APIC
	KST_ARCH("LOC", apic_timer_irqs, "Local timer interrupts", true),
	KST_ARCH("SPU", irq_spurious_count, "Spurious interrupts", true),
	KST_ARCH("PMI", apic_perf_irqs,
		 "Performance monitoring interrupts", true),
	KST_ARCH("IWI", apic_irq_work_irqs, "IRQ work interrupts", true),
	KST_ARCH("RTR", icr_read_retry_count, "APIC ICR read retries", true),
	KST_ARCH("PLT", x86_platform_ipis, "Platform interrupts", true),
#endif
#ifdef CONFIG_SMP
	KST_ARCH("RES", irq_resched_count, "Rescheduling interrupts", true),
	KST_ARCH("CAL", irq_call_count, "Function call interrupts", true),
	KST_ARCH("TLB", irq_tlb_count, "TLB shootdowns", false),
#endif
#ifdef CONFIG_X86_THERMAL_VECTOR
	KST_ARCH("TRM", irq_thermal_count, "Thermal event interrupts", true),
#endif
#ifdef CONFIG_X86_MCE_THRESHOLD
	KST_ARCH("THR", irq_threshold_count, "Threshold APIC interrupts",
		 true),
#endif
#ifdef CONFIG_X86_MCE_AMD
	KST_ARCH("DFR", irq_deferred_error_count,
		 "Deferred Error APIC interrupts", false),
#endif
#if KST_HAVE_ERROR_ROWS && defined(CONFIG_X86_MCE)
	KST_ARCH_PCPU("MCE", mce_exception_count, "Machine check exceptions"),
	KST_ARCH_PCPU("MCP", mce_poll_count, "Machine check polls"),
#endif
#ifdef CONFIG_X86_HV_CALLBACK_VECTOR
	KST_ARCH("HYP", irq_hv_callback_count,
		 "Hypervisor callback interrupts", KST_HV_IN_INTR_SUM),
#endif
#if IS_ENABLED(CONFIG_HYPERV)
	KST_ARCH("HRE", irq_hv_reenlightenment_count,
		 "Hyper-V reenlightenment interrupts", KST_HV_IN_INTR_SUM),
	KST_ARCH("HVS", hyperv_stimer0_count, "Hyper-V stimer0 interrupts",
		 KST_HV_IN_INTR_SUM),
#endif
#if KST_HAVE_ERROR_ROWS
	/* no description: /proc/interrupts prints none */
	KST_ARCH_GLOBAL("ERR", irq_err_count, "", true),
#ifdef CONFIG_X86_IO_APIC
	KST_ARCH_GLOBAL("MIS", irq_mis_count, "", false),
#endif
#endif
#if KST_HAVE_KVM_IPIS
	KST_ARCH("PIN", kvm_posted_intr_ipis,
		 "Posted-interrupt notification event", false),
	KST_ARCH("NPI", kvm_posted_intr_nested_ipis,
		 "Nested posted-interrupt event", false),
	KST_ARCH("PIW", kvm_posted_intr_wakeup_ipis,
		 "Posted-interrupt wakeup event", false),
#endif
#if KST_HAVE_POSTED_MSI
	KST_ARCH("PMN", posted_msi_notification_count,
		 "Posted MSI notification event", false),
#endif
};

const unsigned int kst_nr_arch_counters = ARRAY_SIZE(kst_arch_counters);

const char *const kst_arch_unread[] = {
#if !KST_HAVE_ERROR_ROWS
#ifdef CONFIG_X86_MCE
	"MCE", "MCP",
#endif
	"ERR",
#ifdef CONFIG_X86_IO_APIC
	"MIS",
#endif
#endif
	NULL
};

u32 kst_arch_read(const struct kst_arch_counter *c, unsigned int cpu)
{
	const char *base = (const char *)per_cpu_ptr(&irq_stat, cpu);

	if (c->global)
		return cpu ? 0 : atomic_read(c->global);
	if (c->pcpu)
		return READ_ONCE(*per_cpu_ptr(c->pcpu, cpu));
	return READ_ONCE(*(const unsigned int *)(base + c->offset));
}
#else
/* Other architectures: no arch rows yet; the "intr" total is IRQs only. */
const struct kst_arch_counter kst_arch_counters[] = {};
const unsigned int kst_nr_arch_counters;
const char *const kst_arch_unread[] = { NULL };

u32 kst_arch_read(const struct kst_arch_counter *c, unsigned int cpu)
{
	return 0;
}
#endif

u64 kst_arch_total(const struct kst_arch_counter *c)
{
	unsigned int cpu;
	u64 sum = 0;

	for_each_possible_cpu(cpu)
		sum += kst_arch_read(c, cpu);
	return sum;
}

/* This CPU's share of the arch counters in /proc/stat's "intr" total. */
u64 kst_arch_intr_sum(unsigned int cpu)
{
	unsigned int i;
	u64 sum = 0;

	for (i = 0; i < kst_nr_arch_counters; i++)
		if (kst_arch_counters[i].in_intr_sum)
			sum += kst_arch_read(&kst_arch_counters[i], cpu);
	return sum;
}

static u32 kst_arch_percpu_read(const void *obj, unsigned int cpu)
{
	return kst_arch_read(obj, cpu);
}

/*
 * The one encoder of an arch row.  @count: the total the caller read
 * (dumps) or extended (summaries).  The description goes where a reader
 * meets the row first: dumps and keyframes.
 */
int kst_arch_fill(struct sk_buff *skb, int type,
		  const struct kst_arch_counter *c, u64 count, bool with_desc,
		  const struct kst_sel *sel)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(skb, KSTAT_A_ARCH_NAME, c->name) ||
	    (with_desc && nla_put_string(skb, KSTAT_A_ARCH_DESC, c->desc)) ||
	    nla_put_u64_64bit(skb, KSTAT_A_ARCH_COUNT, count,
			      KSTAT_A_ARCH_PAD))
		goto cancel;
	/* one count for all CPUs has no per-CPU counts to give */
	if ((sel->flags & KSTAT_F_PERCPU) && !c->global &&
	    kst_percpu_fill(skb, KSTAT_A_ARCH_PERCPU, sel,
			    kst_arch_percpu_read, c))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/*
 * ---- summary section: the arch rows and /proc/stat's "intr" total -------
 *
 * Sent with the IRQs (KSTAT_SECTION_IRQ).  The total is built from the
 * same reads: the IRQs' per-CPU sums (unsigned long, which does not wrap
 * on 64-bit) plus the extended rows that count in it.
 */
struct kst_arch_state {
	u32 *raw;			/* [row * nr_cpu_ids + cpu] */
	u64 *ext;
	u64 intr_sum;
};

static void kst_arch_state_free(void *state, bool committed)
{
	struct kst_arch_state *s = state;

	if (!s)
		return;
	kvfree(s->raw);
	kfree(s->ext);
	kfree(s);
}

static void *kst_arch_state_alloc(gfp_t gfp)
{
	unsigned int n = max(kst_nr_arch_counters, 1U);
	struct kst_arch_state *s = kzalloc(sizeof(*s), gfp);

	if (!s)
		return NULL;
	s->raw = kvcalloc(n * nr_cpu_ids, sizeof(u32), gfp);
	s->ext = kcalloc(n, sizeof(u64), gfp);
	if (!s->raw || !s->ext) {
		kst_arch_state_free(s, false);
		return NULL;
	}
	return s;
}

/* @c's rows extended against @l's, and its "intr" total from @irqs_sum. */
static void kst_arch_extend(struct kst_arch_state *c,
			    const struct kst_arch_state *l, u64 irqs_sum)
{
	unsigned int i;

	c->intr_sum = irqs_sum;
	for (i = 0; i < kst_nr_arch_counters; i++) {
		c->ext[i] = kst_ext_row(l ? l->ext[i] : 0,
					c->raw + i * nr_cpu_ids,
					l ? l->raw + i * nr_cpu_ids : NULL,
					nr_cpu_ids);
		if (kst_arch_counters[i].in_intr_sum)
			c->intr_sum += c->ext[i];
	}
}

/* Read once into the first stream's state; each extends its own. */
static int kst_arch_collect(struct kst_target *t, unsigned int n)
{
	const struct kst_arch_state *read = t[0].cur;
	size_t bytes = kst_nr_arch_counters * nr_cpu_ids * sizeof(u32);
	struct kst_arch_state *c;
	unsigned int i, cpu, k;
	u64 irqs_sum = 0;

	for_each_possible_cpu(cpu)
		irqs_sum += kstat_cpu_irqs_sum(cpu);
	for (i = 0; i < kst_nr_arch_counters; i++)
		kst_row_read(read->raw + i * nr_cpu_ids, kst_arch_percpu_read,
			     &kst_arch_counters[i]);
	for (k = 0; k < n; k++) {
		c = t[k].cur;
		if (k && bytes)
			memcpy(c->raw, read->raw, bytes);
		kst_arch_extend(c, t[k].last, irqs_sum);
		t[k].renewed = false;
	}
	return 0;
}

static int kst_arch_put_item(struct sk_buff *skb, const struct kst_writer *w,
			     const void *obj, unsigned int i)
{
	const struct kst_arch_state *s = obj;
	const struct kst_sel sel = { };

	return kst_arch_fill(skb, KSTAT_A_SAMPLE_ARCH, &kst_arch_counters[i],
			     s->ext[i], w->h->key, &sel);
}

static int kst_intr_sum_put_item(struct sk_buff *skb,
				 const struct kst_writer *w, const void *obj,
				 unsigned int unused)
{
	const struct kst_arch_state *s = obj;

	return nla_put_u64_64bit(skb, KSTAT_A_SAMPLE_INTR_SUM, s->intr_sum,
				 KSTAT_A_SAMPLE_PAD);
}

/* A delta carries the rows that moved; every sample the total. */
static int kst_arch_write(struct kst_writer *w, const void *cur,
			  const void *base)
{
	const struct kst_arch_state *s = cur, *b = base;
	unsigned int i;
	int err;

	for (i = 0; i < kst_nr_arch_counters; i++) {
		if (!w->h->key && s->ext[i] == b->ext[i])
			continue;
		err = kst_sample_put(w, kst_arch_put_item, s, i);
		if (err)
			return err;
	}
	return kst_sample_put(w, kst_intr_sum_put_item, s, 0);
}

const struct kst_section kst_arch_section = {
	.name		= "arch",
	.sections	= KSTAT_SECTION_IRQ,
	.state_alloc	= kst_arch_state_alloc,
	.state_free	= kst_arch_state_free,
	.collect	= kst_arch_collect,
	.write		= kst_arch_write,
};
