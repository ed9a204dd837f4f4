// SPDX-License-Identifier: GPL-2.0
/*
 * kstat architecture rows: the rows of /proc/interrupts below the IRQ
 * descriptors, in the IRQ section.  On x86 these are per-CPU fields of
 * irq_stat (exported).
 *
 * Rows whose counters the kernel does not export to modules, ERR and MIS
 * (irq_err_count, irq_mis_count), MCE and MCP (mce_exception_count,
 * mce_poll_count), are read when kstat is built into the kernel; a
 * module names them in ARCH_UNREAD instead (compat.h), never guesses
 * them.  PLT, HYP, HRE and HVS are shown by /proc only when their vector
 * is in use, a test modules cannot make (x86_platform_ipi_callback and
 * system_vectors are not exported either), so kstat always reports them;
 * their counters stay zero when unused.
 */
#include <linux/cpumask.h>
#include <linux/hardirq.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <net/netlink.h>
#ifdef CONFIG_X86
#include <asm/hw_irq.h>
#include <asm/mce.h>
#endif

#include "kst.h"
#include "compat.h"

/*
 * One row, read from one of: a u32 field of x86's irq_stat, a per-CPU
 * counter of its own, or one atomic for all CPUs (no per-CPU counts:
 * read as if on CPU 0).
 */
struct kst_arch_row {
	const char *name;
	const char *desc;
	size_t offset;		/* of the u32 counter in irq_stat */
	const unsigned int __percpu *pcpu;
	const atomic_t *global;
	bool in_intr_sum;	/* counted in /proc/stat's "intr" total */
};

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
static const struct kst_arch_row kst_arch_rows_tab[] = {
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

static const char *const kst_arch_unread[] = {
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

static u32 kst_arch_read(const struct kst_arch_row *c, unsigned int cpu)
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
static const struct kst_arch_row kst_arch_rows_tab[] = {};
static const char *const kst_arch_unread[] = { NULL };

static u32 kst_arch_read(const struct kst_arch_row *c, unsigned int cpu)
{
	return 0;
}
#endif

#define KST_NR_ARCH	ARRAY_SIZE(kst_arch_rows_tab)

/* Under kst_count_lock. */
static struct kst_ext kst_arch_ext[KST_NR_ARCH ?: 1];

struct kst_arch_data {
	u64 intr_sum;		/* the rows /proc/stat counts in "intr" */
	struct kst_recs recs;	/* percpu */
	u64 count[KST_NR_ARCH ?: 1];
};

static u32 kst_arch_read_cpu(const void *obj, unsigned int cpu)
{
	return kst_arch_read(obj, cpu);
}

unsigned int kst_arch_rows(void)
{
	return KST_NR_ARCH;
}

void kst_arch_free(struct kst_arch_data *d)
{
	if (!d)
		return;
	kst_recs_free(&d->recs);
	kfree(d);
}

/* Every row of reading @r; @row: scratch of nr_cpu_ids counts. */
struct kst_arch_data *kst_arch_collect(const struct kst_reading *r,
				       u32 *row, gfp_t gfp)
{
	bool percpu = r->view.flags & KSTAT_F_PERCPU;
	struct kst_arch_data *d = kzalloc(sizeof(*d), gfp);
	unsigned int i;
	u64 sum64;
	u32 sum;

	if (!d || kst_recs_init(&d->recs, KST_NR_ARCH, gfp) ||
	    (percpu && kst_recs_reserve(&d->recs, KST_NR_ARCH *
					(1 + kst_nr_cpus(r)), gfp))) {
		kst_arch_free(d);
		return NULL;
	}
	mutex_lock(&kst_count_lock);
	for (i = 0; i < KST_NR_ARCH; i++) {
		sum = kst_row_read(row, kst_arch_read_cpu,
				   &kst_arch_rows_tab[i], &sum64);
		d->count[i] = kst_ext_update(&kst_arch_ext[i], sum, sum64);
		if (kst_arch_rows_tab[i].in_intr_sum)
			d->intr_sum += d->count[i];
		if (percpu)
			kst_recs_add(&d->recs, row + r->cpu_first,
				     kst_nr_cpus(r));
	}
	mutex_unlock(&kst_count_lock);
	return d;
}

u64 kst_arch_intr_sum(const struct kst_arch_data *d)
{
	return d->intr_sum;
}

/* One count for all CPUs has no per-CPU counts to give. */
static bool kst_arch_has_percpu(unsigned int i, bool percpu)
{
	return percpu && !kst_arch_rows_tab[i].global;
}

static size_t kst_arch_nest_size(unsigned int i, size_t rec_words)
{
	const struct kst_arch_row *c = &kst_arch_rows_tab[i];

	return nla_total_size(0) + nla_total_size(strlen(c->name) + 1) +
	       nla_total_size(strlen(c->desc) + 1) +
	       nla_total_size_64bit(sizeof(u64)) +
	       (rec_words ? nla_total_size(rec_words * sizeof(u32)) : 0);
}

size_t kst_arch_size(const struct kst_arch_data *d, unsigned int i,
		     bool percpu)
{
	return kst_arch_nest_size(i, kst_arch_has_percpu(i, percpu) ?
				  kst_rec_words(&d->recs, i, 1) : 0);
}

size_t kst_arch_max_size(const struct kst_reading *r, bool percpu)
{
	size_t size = 0;
	unsigned int i;

	for (i = 0; i < KST_NR_ARCH; i++)
		size = max(size, kst_arch_nest_size(i, kst_arch_has_percpu(i, percpu) ?
						    1 + kst_nr_cpus(r) : 0));
	return size;
}

int kst_arch_fill(struct sk_buff *skb, const struct kst_arch_data *d,
		  unsigned int i, bool percpu)
{
	const struct kst_arch_row *c = &kst_arch_rows_tab[i];
	struct nlattr *nest = nla_nest_start(skb, KSTAT_A_ARCH);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(skb, KSTAT_A_ARCH_NAME, c->name) ||
	    nla_put_string(skb, KSTAT_A_ARCH_DESC, c->desc) ||
	    nla_put_u64_64bit(skb, KSTAT_A_ARCH_COUNT, d->count[i],
			      KSTAT_A_ARCH_PAD) ||
	    (kst_arch_has_percpu(i, percpu) &&
	     kst_rec_put(skb, KSTAT_A_ARCH_PERCPU, &d->recs, i))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The rows of /proc/interrupts this build cannot read, by name. */
size_t kst_arch_unread_size(void)
{
	const char *const *name;
	size_t size = 0;

	for (name = kst_arch_unread; *name; name++)
		size += nla_total_size(strlen(*name) + 1);
	return size;
}

int kst_arch_unread_fill(struct sk_buff *skb)
{
	const char *const *name;

	for (name = kst_arch_unread; *name; name++)
		if (nla_put_string(skb, KSTAT_A_ARCH_UNREAD, *name))
			return -EMSGSIZE;
	return 0;
}
