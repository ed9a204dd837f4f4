// SPDX-License-Identifier: GPL-2.0
/*
 * kstat architecture counters: the rows of /proc/interrupts below the IRQ
 * descriptors.  On x86 these are per-CPU fields of irq_stat (exported).
 *
 * Rows the kernel does not export to modules are left out rather than
 * guessed: ERR and MIS (irq_err_count, irq_mis_count), MCE and MCP
 * (mce_exception_count, mce_poll_count).  PLT, HYP, HRE and HVS are shown
 * by /proc only when their vector is in use, a test modules cannot make
 * (x86_platform_ipi_callback and system_vectors are not exported either),
 * so kstat always reports them; their counters stay zero when unused.
 */
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/hardirq.h>

#include "kstat.h"
#include "compat.h"

#ifdef CONFIG_X86
#define KSTAT_ARCH(_name, _field, _desc, _sum) {			\
	.name = _name,							\
	.desc = _desc,							\
	.offset = offsetof(irq_cpustat_t, _field),			\
	.in_intr_sum = _sum,						\
}

/* In /proc/interrupts order; _sum as arch_irq_stat_cpu() counts them. */
const struct kstat_arch_counter kstat_arch_counters[] = {
	KSTAT_ARCH("NMI", __nmi_count, "Non-maskable interrupts", true),
#ifdef CONFIG_X86_LOCAL_APIC
	KSTAT_ARCH("LOC", apic_timer_irqs, "Local timer interrupts", true),
	KSTAT_ARCH("SPU", irq_spurious_count, "Spurious interrupts", true),
	KSTAT_ARCH("PMI", apic_perf_irqs,
		   "Performance monitoring interrupts", true),
	KSTAT_ARCH("IWI", apic_irq_work_irqs, "IRQ work interrupts", true),
	KSTAT_ARCH("RTR", icr_read_retry_count, "APIC ICR read retries", true),
	KSTAT_ARCH("PLT", x86_platform_ipis, "Platform interrupts", true),
#endif
#ifdef CONFIG_SMP
	KSTAT_ARCH("RES", irq_resched_count, "Rescheduling interrupts", true),
	KSTAT_ARCH("CAL", irq_call_count, "Function call interrupts", true),
	KSTAT_ARCH("TLB", irq_tlb_count, "TLB shootdowns", false),
#endif
#ifdef CONFIG_X86_THERMAL_VECTOR
	KSTAT_ARCH("TRM", irq_thermal_count, "Thermal event interrupts", true),
#endif
#ifdef CONFIG_X86_MCE_THRESHOLD
	KSTAT_ARCH("THR", irq_threshold_count, "Threshold APIC interrupts",
		   true),
#endif
#ifdef CONFIG_X86_MCE_AMD
	KSTAT_ARCH("DFR", irq_deferred_error_count,
		   "Deferred Error APIC interrupts", false),
#endif
#ifdef CONFIG_X86_HV_CALLBACK_VECTOR
	KSTAT_ARCH("HYP", irq_hv_callback_count,
		   "Hypervisor callback interrupts", false),
#endif
#if IS_ENABLED(CONFIG_HYPERV)
	KSTAT_ARCH("HRE", irq_hv_reenlightenment_count,
		   "Hyper-V reenlightenment interrupts", false),
	KSTAT_ARCH("HVS", hyperv_stimer0_count, "Hyper-V stimer0 interrupts",
		   false),
#endif
#if KSTAT_HAVE_KVM_IPIS
	KSTAT_ARCH("PIN", kvm_posted_intr_ipis,
		   "Posted-interrupt notification event", false),
	KSTAT_ARCH("NPI", kvm_posted_intr_nested_ipis,
		   "Nested posted-interrupt event", false),
	KSTAT_ARCH("PIW", kvm_posted_intr_wakeup_ipis,
		   "Posted-interrupt wakeup event", false),
#endif
};

const unsigned int kstat_nr_arch_counters = ARRAY_SIZE(kstat_arch_counters);

u32 kstat_arch_read(const struct kstat_arch_counter *c, unsigned int cpu)
{
	const char *base = (const char *)per_cpu_ptr(&irq_stat, cpu);

	return READ_ONCE(*(const unsigned int *)(base + c->offset));
}
#else
/* Other architectures: no arch rows yet; the "intr" total is IRQs only. */
const struct kstat_arch_counter kstat_arch_counters[] = {};
const unsigned int kstat_nr_arch_counters;

u32 kstat_arch_read(const struct kstat_arch_counter *c, unsigned int cpu)
{
	return 0;
}
#endif

u64 kstat_arch_total(const struct kstat_arch_counter *c)
{
	unsigned int cpu;
	u64 sum = 0;

	for_each_possible_cpu(cpu)
		sum += kstat_arch_read(c, cpu);
	return sum;
}

/* This CPU's share of the arch counters in /proc/stat's "intr" total. */
u64 kstat_arch_intr_sum(unsigned int cpu)
{
	unsigned int i;
	u64 sum = 0;

	for (i = 0; i < kstat_nr_arch_counters; i++)
		if (kstat_arch_counters[i].in_intr_sum)
			sum += kstat_arch_read(&kstat_arch_counters[i], cpu);
	return sum;
}
