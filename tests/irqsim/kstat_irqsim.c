// SPDX-License-Identifier: GPL-2.0
/*
 * kstat_irqsim - synthetic interrupts with exactly known per-CPU counts.
 *
 * TEST-ONLY MODULE.  It is built by "make irqsim" for the kstat guest test
 * suite and is never installed ("make install" ships kstat.ko only).
 *
 * Why it exists: kstat reports per-CPU interrupt counters, and its tests
 * must compare those reports against exact expected numbers.  Real device
 * interrupts arrive whenever they like, so they cannot give exact counts.
 * This module allocates real IRQ descriptors driven by dummy_irq_chip and
 * handle_simple_irq, requests an action on each one (so they look like any
 * other interrupt in /proc/interrupts and to kstat) and lets a test fire
 * any of them an exact number of times on a chosen CPU.
 *
 * Module parameters:
 *   irqs=N       number of synthetic IRQs, 1..8192 (default 16)
 *   suffix=STR   appended to every action's name, up to 16 bytes: names
 *                with quotes or backslashes, for the tests of escaping
 *   shapes=1     the first three IRQs (irqs >= 3) take the shapes
 *                /proc/interrupts treats apart: index 0's chip prints
 *                its own name (irq_print_chip: "simprint-<irq>"), index 1
 *                is hidden (IRQ_HIDDEN), index 2 has no action; fire
 *                counts on 0 and 1 (on 2, without an action, nothing).
 *
 * debugfs interface, /sys/kernel/debug/kstat_irqsim/ (a contract that the
 * test harness relies on, do not change it lightly):
 *   irqs  (0444)  one line per synthetic IRQ: "<index> <irq number>\n",
 *                 index 0-based.  The IRQ of index i is named "kstat-sim-<i>".
 *   fire  (0200)  write "<index> <cpu> <count>\n": run the flow handler of
 *                 IRQ <index> exactly <count> (1..1000000) times on <cpu>.
 *                 -EINVAL for bad syntax or an out-of-range index or count,
 *                 -ENXIO for a CPU that is not online.
 *   warn  (0200)  write "1": WARN() once, so that the harness can prove that
 *                 it notices warnings in the kernel log.
 *   preset (0200) write "<index> <cpu> <value>\n": fast-forward IRQ <index>
 *                 on <cpu> as if (<value> - its count) mod 2^32 interrupts
 *                 had been handled there: that CPU's count (desc->kstat_irqs)
 *                 becomes <value> (0..4294967295), desc->tot_count (the
 *                 total kstat_irqs() reports for such IRQs) and the CPU's
 *                 kstat.irqs_sum (/proc/stat's "intr" total) grow by the same
 *                 amount, so tot_count stays the sum over CPUs mod 2^32.
 *                 For counts near 2^32 that firing could never reach.
 *                 Errors as for fire.
 *   preset_softirq (0200) write "<vec> <cpu> <value>\n": the same for the
 *                 softirq vector <vec> (0..NR_SOFTIRQS-1, /proc/softirqs
 *                 order) on <cpu>: its per-CPU count becomes <value>.
 *   preset_arch (0200, x86 only) write "<name> <cpu> <value>\n": the same
 *                 for the arch counter row <name> of /proc/interrupts on
 *                 <cpu>.  Only rows nothing in a QEMU guest increments
 *                 are offered: "SPU" (irq_spurious_count) and, where the
 *                 kernel has them, "HYP", "HRE" and "HVS" (the Hyper-V
 *                 rows, which /proc/stat's "intr" counts since 6.5).
 *                 The presets write on <cpu> itself (an IPI), the way the
 *                 kernel bumps these counters.
 *   realloc (0200) write "1": free every action and descriptor
 *                 (free_irq(), irq_free_descs()) and allocate and request
 *                 as many again, as at load: the allocator usually gives
 *                 the same IRQ numbers back (the first free range), to new
 *                 descriptors whose counts start at 0.  The irqs file then
 *                 lists the new numbers; the kernel log says "realloc: IRQs
 *                 A..B -> C..D".  On failure no synthetic IRQ is left and
 *                 every index is out of range.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/kernel.h>
#include <linux/kernel_stat.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/numa.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "compat.h"

#define KSTAT_IRQSIM_MAX_IRQS	8192
#define KSTAT_IRQSIM_MAX_COUNT	1000000
/* Handler runs per IPI: bounds the time the target CPU has IRQs off. */
#define KSTAT_IRQSIM_CHUNK	1000
/* Longest valid command: "8191 4294967295 4294967295\n" plus slack. */
#define KSTAT_IRQSIM_CMD_MAX	64

#define KSTAT_IRQSIM_SUFFIX_MAX	16

struct kstat_irqsim_irq {
	unsigned int irq;
	bool requested;		/* has its action */
	/* request_irq() keeps a pointer to the name: it lives here. */
	char name[sizeof("kstat-sim-") + 10 + KSTAT_IRQSIM_SUFFIX_MAX];
};

struct kstat_irqsim_fire_arg {
	unsigned int irq;
	unsigned int count;
	int ret;
};

struct kstat_irqsim_preset_arg {
	struct irq_desc *desc;
	unsigned int idx;	/* softirq vector or arch counter */
	unsigned int value;
};

static unsigned int irqs = 16;

static int kstat_irqsim_irqs_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;

	if (kstrtouint(val, 0, &n) || n < 1 || n > KSTAT_IRQSIM_MAX_IRQS) {
		pr_err("irqs=%s is invalid, must be 1..%u\n", val,
		       KSTAT_IRQSIM_MAX_IRQS);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = n;
	return 0;
}

static const struct kernel_param_ops kstat_irqsim_irqs_ops = {
	.set = kstat_irqsim_irqs_set,
	.get = param_get_uint,
};

module_param_cb(irqs, &kstat_irqsim_irqs_ops, &irqs, 0444);
MODULE_PARM_DESC(irqs, "number of synthetic IRQs, 1..8192 (default 16)");

static char *suffix = "";
module_param(suffix, charp, 0444);
MODULE_PARM_DESC(suffix, "appended to every action's name, up to 16 bytes");

static bool shapes;
module_param(shapes, bool, 0444);
MODULE_PARM_DESC(shapes, "index 0 prints its chip, 1 is hidden, 2 has no action");

static void kstat_irqsim_print_chip(struct irq_data *d, struct seq_file *p)
{
	seq_printf(p, " simprint-%u ", d->irq);
}

/* dummy_irq_chip's callbacks, but a name of its own words (shapes=1). */
static struct irq_chip kstat_irqsim_print_chip_ops;

static struct kstat_irqsim_irq *kstat_irqsim_tab;
static unsigned int kstat_irqsim_nr;	/* entries in kstat_irqsim_tab */
static int kstat_irqsim_base;		/* first descriptor allocated */
static struct dentry *kstat_irqsim_dir;

/*
 * Serialises every command and the irqs file.  handle_simple_irq() drops
 * (and does not count) an event that arrives while the same IRQ's handler
 * is running on another CPU, so two concurrent "fire" writers could lose
 * counts.  One command at a time keeps every count exact, and a realloc
 * never frees a descriptor that another command is using.
 */
static DEFINE_MUTEX(kstat_irqsim_lock);

static irqreturn_t kstat_irqsim_handler(int irq, void *dev_id)
{
	return IRQ_HANDLED;
}

/* Runs on the target CPU, in IPI context or locally with IRQs disabled. */
static void kstat_irqsim_fire_fn(void *data)
{
	struct kstat_irqsim_fire_arg *arg = data;
	unsigned int i;

	for (i = 0; i < arg->count; i++) {
		arg->ret = generic_handle_irq_safe(arg->irq);
		if (arg->ret)
			return;
	}
}

static int kstat_irqsim_fire(unsigned int irq, unsigned int cpu,
			     unsigned int count)
{
	struct kstat_irqsim_fire_arg arg = { .irq = irq };
	int ret = 0;

	/* Keep @cpu online for the whole command: no partial counts. */
	cpus_read_lock();
	if (cpu >= nr_cpu_ids || !cpu_online(cpu)) {
		ret = -ENXIO;
		goto out;
	}
	while (count) {
		arg.count = min_t(unsigned int, count, KSTAT_IRQSIM_CHUNK);
		arg.ret = 0;
		ret = smp_call_function_single(cpu, kstat_irqsim_fire_fn,
					       &arg, 1);
		if (!ret)
			ret = arg.ret;
		if (ret)
			break;
		count -= arg.count;
		if (count && fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
out:
	cpus_read_unlock();
	return ret;
}

/* Parses "<index> <cpu> <count>" with optional surrounding whitespace. */
static int kstat_irqsim_parse(char *buf, unsigned int *val, unsigned int nval)
{
	unsigned int n = 0;
	char *tok;

	buf = strim(buf);
	while ((tok = strsep(&buf, " \t")) != NULL) {
		if (!*tok)
			continue;
		if (n == nval || kstrtouint(tok, 10, &val[n]))
			return -EINVAL;
		n++;
	}
	return n == nval ? 0 : -EINVAL;
}

/* Copies a command of @len bytes from @ubuf into @buf (KSTAT_IRQSIM_CMD_MAX). */
static int kstat_irqsim_cmd(char *buf, const char __user *ubuf, size_t len)
{
	if (!len || len >= KSTAT_IRQSIM_CMD_MAX)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	return 0;
}

static ssize_t kstat_irqsim_fire_write(struct file *file,
				       const char __user *ubuf, size_t len,
				       loff_t *ppos)
{
	char buf[KSTAT_IRQSIM_CMD_MAX];
	unsigned int val[3];	/* index, cpu, count */
	int ret;

	ret = kstat_irqsim_cmd(buf, ubuf, len) ?:
	      kstat_irqsim_parse(buf, val, ARRAY_SIZE(val));
	if (ret)
		return ret;
	if (val[2] < 1 || val[2] > KSTAT_IRQSIM_MAX_COUNT)
		return -EINVAL;

	ret = mutex_lock_interruptible(&kstat_irqsim_lock);
	if (ret)
		return ret;
	if (val[0] < kstat_irqsim_nr)
		ret = kstat_irqsim_fire(kstat_irqsim_tab[val[0]].irq, val[1],
					val[2]);
	else
		ret = -EINVAL;	/* a failed realloc left no IRQ */
	mutex_unlock(&kstat_irqsim_lock);

	return ret ? ret : len;
}

static const struct file_operations kstat_irqsim_fire_fops = {
	.owner	= THIS_MODULE,
	.write	= kstat_irqsim_fire_write,
	.llseek	= noop_llseek,
};

static ssize_t kstat_irqsim_warn_write(struct file *file,
				       const char __user *ubuf, size_t len,
				       loff_t *ppos)
{
	unsigned int val;
	int ret;

	ret = kstrtouint_from_user(ubuf, len, 10, &val);
	if (ret)
		return ret;
	if (val != 1)
		return -EINVAL;

	WARN(1, "kstat_irqsim: test-triggered warning\n");
	return len;
}

static const struct file_operations kstat_irqsim_warn_fops = {
	.owner	= THIS_MODULE,
	.write	= kstat_irqsim_warn_write,
	.llseek	= noop_llseek,
};

/*
 * The presets run on the target CPU with IRQs off (an IPI, or locally
 * inside smp_call_function_single()), as the kernel's own increments do:
 * a per-CPU counter is only ever written by its own CPU.
 */
static void kstat_irqsim_preset_irq_fn(void *data)
{
	struct kstat_irqsim_preset_arg *arg = data;
	struct irq_desc *desc = arg->desc;
	unsigned int delta;

	/* handle_simple_irq() bumps both counts under desc->lock. */
	raw_spin_lock(&desc->lock);
	delta = arg->value - __this_cpu_read(KST_DESC_CNT(desc));
	__this_cpu_write(KST_DESC_CNT(desc), arg->value);
	desc->tot_count += delta;
	__this_cpu_add(kstat.irqs_sum, delta);
	raw_spin_unlock(&desc->lock);
}

static void kstat_irqsim_preset_softirq_fn(void *data)
{
	struct kstat_irqsim_preset_arg *arg = data;

	__this_cpu_write(kstat.softirqs[arg->idx], arg->value);
}

#ifdef CONFIG_X86_LOCAL_APIC
/*
 * Rows nothing increments in a QEMU guest: SPU, and the hypervisor rows
 * HYP, HRE and HVS (Hyper-V only), which /proc/stat's "intr" total
 * counts since 6.5 and not before.
 */
enum kstat_irqsim_arch_row {
	KSTAT_IRQSIM_SPU,
#ifdef CONFIG_X86_HV_CALLBACK_VECTOR
	KSTAT_IRQSIM_HYP,
#endif
#if IS_ENABLED(CONFIG_HYPERV)
	KSTAT_IRQSIM_HRE,
	KSTAT_IRQSIM_HVS,
#endif
};

static const char * const kstat_irqsim_arch_names[] = {
	[KSTAT_IRQSIM_SPU] = "SPU",
#ifdef CONFIG_X86_HV_CALLBACK_VECTOR
	[KSTAT_IRQSIM_HYP] = "HYP",
#endif
#if IS_ENABLED(CONFIG_HYPERV)
	[KSTAT_IRQSIM_HRE] = "HRE",
	[KSTAT_IRQSIM_HVS] = "HVS",
#endif
};

static void kstat_irqsim_preset_arch_fn(void *data)
{
	struct kstat_irqsim_preset_arg *arg = data;

	switch (arg->idx) {
	case KSTAT_IRQSIM_SPU:
		__this_cpu_write(irq_stat.irq_spurious_count, arg->value);
		break;
#ifdef CONFIG_X86_HV_CALLBACK_VECTOR
	case KSTAT_IRQSIM_HYP:
		__this_cpu_write(irq_stat.irq_hv_callback_count, arg->value);
		break;
#endif
#if IS_ENABLED(CONFIG_HYPERV)
	case KSTAT_IRQSIM_HRE:
		__this_cpu_write(irq_stat.irq_hv_reenlightenment_count,
				 arg->value);
		break;
	case KSTAT_IRQSIM_HVS:
		__this_cpu_write(irq_stat.hyperv_stimer0_count, arg->value);
		break;
#endif
	}
}
#endif

/* Run @fn on online @cpu, under kstat_irqsim_lock. */
static int kstat_irqsim_on_cpu(unsigned int cpu, smp_call_func_t fn,
			       struct kstat_irqsim_preset_arg *arg)
{
	int ret;

	cpus_read_lock();
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		ret = -ENXIO;
	else
		ret = smp_call_function_single(cpu, fn, arg, 1);
	cpus_read_unlock();
	return ret;
}

static ssize_t kstat_irqsim_preset_write(struct file *file,
					 const char __user *ubuf, size_t len,
					 loff_t *ppos)
{
	struct kstat_irqsim_preset_arg arg = { };
	char buf[KSTAT_IRQSIM_CMD_MAX];
	unsigned int val[3];	/* index, cpu, value */
	int ret;

	ret = kstat_irqsim_cmd(buf, ubuf, len) ?:
	      kstat_irqsim_parse(buf, val, ARRAY_SIZE(val));
	if (ret)
		return ret;
	arg.value = val[2];

	ret = mutex_lock_interruptible(&kstat_irqsim_lock);
	if (ret)
		return ret;
	if (val[0] < kstat_irqsim_nr) {
		unsigned int irq = kstat_irqsim_tab[val[0]].irq;

		/* Ours, allocated and not freed while we hold the lock. */
		arg.desc = irq_data_to_desc(irq_get_irq_data(irq));
		ret = kstat_irqsim_on_cpu(val[1], kstat_irqsim_preset_irq_fn,
					  &arg);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&kstat_irqsim_lock);

	return ret ? ret : len;
}

static const struct file_operations kstat_irqsim_preset_fops = {
	.owner	= THIS_MODULE,
	.write	= kstat_irqsim_preset_write,
	.llseek	= noop_llseek,
};

static ssize_t kstat_irqsim_preset_softirq_write(struct file *file,
						 const char __user *ubuf,
						 size_t len, loff_t *ppos)
{
	struct kstat_irqsim_preset_arg arg = { };
	char buf[KSTAT_IRQSIM_CMD_MAX];
	unsigned int val[3];	/* vector, cpu, value */
	int ret;

	ret = kstat_irqsim_cmd(buf, ubuf, len) ?:
	      kstat_irqsim_parse(buf, val, ARRAY_SIZE(val));
	if (ret)
		return ret;
	if (val[0] >= NR_SOFTIRQS)
		return -EINVAL;
	arg.idx = val[0];
	arg.value = val[2];

	ret = mutex_lock_interruptible(&kstat_irqsim_lock);
	if (ret)
		return ret;
	ret = kstat_irqsim_on_cpu(val[1], kstat_irqsim_preset_softirq_fn, &arg);
	mutex_unlock(&kstat_irqsim_lock);

	return ret ? ret : len;
}

static const struct file_operations kstat_irqsim_preset_softirq_fops = {
	.owner	= THIS_MODULE,
	.write	= kstat_irqsim_preset_softirq_write,
	.llseek	= noop_llseek,
};

#ifdef CONFIG_X86_LOCAL_APIC
static ssize_t kstat_irqsim_preset_arch_write(struct file *file,
					      const char __user *ubuf,
					      size_t len, loff_t *ppos)
{
	struct kstat_irqsim_preset_arg arg = { };
	char buf[KSTAT_IRQSIM_CMD_MAX], *p, *name;
	unsigned int val[2];	/* cpu, value */
	int ret;

	ret = kstat_irqsim_cmd(buf, ubuf, len);
	if (ret)
		return ret;
	p = skip_spaces(buf);
	name = strsep(&p, " \t");
	if (!p)
		return -EINVAL;
	ret = match_string(kstat_irqsim_arch_names,
			   ARRAY_SIZE(kstat_irqsim_arch_names), name);
	if (ret < 0)
		return -EINVAL;
	arg.idx = ret;
	ret = kstat_irqsim_parse(p, val, ARRAY_SIZE(val));
	if (ret)
		return ret;
	arg.value = val[1];

	ret = mutex_lock_interruptible(&kstat_irqsim_lock);
	if (ret)
		return ret;
	ret = kstat_irqsim_on_cpu(val[0], kstat_irqsim_preset_arch_fn, &arg);
	mutex_unlock(&kstat_irqsim_lock);

	return ret ? ret : len;
}

static const struct file_operations kstat_irqsim_preset_arch_fops = {
	.owner	= THIS_MODULE,
	.write	= kstat_irqsim_preset_arch_write,
	.llseek	= noop_llseek,
};
#endif

/* The irqs file is read under kstat_irqsim_lock: realloc renumbers. */
static void *kstat_irqsim_irqs_seq_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&kstat_irqsim_lock);
	return *pos < kstat_irqsim_nr ? &kstat_irqsim_tab[*pos] : NULL;
}

static void *kstat_irqsim_irqs_seq_next(struct seq_file *m, void *v,
					loff_t *pos)
{
	++*pos;
	return *pos < kstat_irqsim_nr ? &kstat_irqsim_tab[*pos] : NULL;
}

static void kstat_irqsim_irqs_seq_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&kstat_irqsim_lock);
}

static int kstat_irqsim_irqs_seq_show(struct seq_file *m, void *v)
{
	const struct kstat_irqsim_irq *sim = v;

	seq_printf(m, "%td %u\n", sim - kstat_irqsim_tab, sim->irq);
	return 0;
}

static const struct seq_operations kstat_irqsim_irqs_sops = {
	.start	= kstat_irqsim_irqs_seq_start,
	.next	= kstat_irqsim_irqs_seq_next,
	.stop	= kstat_irqsim_irqs_seq_stop,
	.show	= kstat_irqsim_irqs_seq_show,
};

DEFINE_SEQ_ATTRIBUTE(kstat_irqsim_irqs);

/* Releases the first @nreq actions and all descriptors. */
static void kstat_irqsim_descs_free(unsigned int nreq)
{
	while (nreq--)
		if (kstat_irqsim_tab[nreq].requested)
			free_irq(kstat_irqsim_tab[nreq].irq,
				 &kstat_irqsim_tab[nreq]);
	irq_free_descs(kstat_irqsim_base, kstat_irqsim_nr);
	kstat_irqsim_nr = 0;
}

/* Allocates and requests @n IRQs into kstat_irqsim_tab; all or none. */
static int kstat_irqsim_descs_alloc(unsigned int n)
{
	unsigned int i;
	int ret;

	/*
	 * One contiguous range is enough: on x86-64 with SPARSE_IRQ the
	 * allocator can grow nr_irqs up to NR_IRQS + 8196 descriptors, and
	 * NR_IRQS is over 500000 with Debian's NR_CPUS=8192, so even 8192
	 * descriptors fit.  The irqs file maps index to IRQ number anyway,
	 * so users never assume the range is contiguous.
	 *
	 * The owner must be NULL, not THIS_MODULE (which irq_alloc_descs()
	 * would pass): request_irq() takes a reference on the descriptor's
	 * owner, and our own actions would then pin this module forever.
	 */
	ret = __irq_alloc_descs(-1, 1, n, NUMA_NO_NODE, NULL, NULL);
	if (ret < 0) {
		pr_err("cannot allocate %u IRQ descriptors: %d\n", n, ret);
		return ret;
	}
	kstat_irqsim_base = ret;
	kstat_irqsim_nr = n;

	for (i = 0; i < n; i++) {
		struct kstat_irqsim_irq *sim = &kstat_irqsim_tab[i];

		sim->irq = kstat_irqsim_base + i;
		snprintf(sim->name, sizeof(sim->name), "kstat-sim-%u%s", i,
			 suffix);
		irq_set_chip_and_handler_name(sim->irq,
					      shapes && i == 0 ?
					      &kstat_irqsim_print_chip_ops :
					      &dummy_irq_chip,
					      handle_simple_irq, "kstat-sim");
		/* Allow request_irq(); keep autoprobing away from it. */
		irq_modify_status(sim->irq, IRQ_NOREQUEST,
				  IRQ_NOPROBE | (shapes && i == 1 ? IRQ_HIDDEN : 0));
		sim->requested = !(shapes && i == 2);
		if (!sim->requested)
			continue;
		/*
		 * NO_THREAD: "threadirqs" must not turn each action into a
		 * kernel thread.  NOBALANCING: affinity means nothing here.
		 */
		ret = request_irq(sim->irq, kstat_irqsim_handler,
				  IRQF_NO_THREAD | IRQF_NOBALANCING,
				  sim->name, sim);
		if (ret) {
			pr_err("request_irq(%u) failed: %d\n", sim->irq, ret);
			kstat_irqsim_descs_free(i);
			return ret;
		}
	}
	return 0;
}

static ssize_t kstat_irqsim_realloc_write(struct file *file,
					  const char __user *ubuf, size_t len,
					  loff_t *ppos)
{
	unsigned int val, n, old_base, old_nr;
	int ret;

	ret = kstrtouint_from_user(ubuf, len, 10, &val);
	if (ret)
		return ret;
	if (val != 1)
		return -EINVAL;

	ret = mutex_lock_interruptible(&kstat_irqsim_lock);
	if (ret)
		return ret;
	n = irqs;
	old_base = kstat_irqsim_base;
	old_nr = kstat_irqsim_nr;
	kstat_irqsim_descs_free(old_nr);
	ret = kstat_irqsim_descs_alloc(n);
	if (!ret)
		pr_info("realloc: IRQs %u..%u -> %d..%u\n", old_base,
			old_base + old_nr - 1, kstat_irqsim_base,
			kstat_irqsim_base + n - 1);
	mutex_unlock(&kstat_irqsim_lock);

	return ret ? ret : len;
}

static const struct file_operations kstat_irqsim_realloc_fops = {
	.owner	= THIS_MODULE,
	.write	= kstat_irqsim_realloc_write,
	.llseek	= noop_llseek,
};

static int __init kstat_irqsim_init(void)
{
	int ret;

	kstat_irqsim_print_chip_ops = dummy_irq_chip;
	kstat_irqsim_print_chip_ops.irq_print_chip = kstat_irqsim_print_chip;
	if (shapes && irqs < 3) {
		pr_err("shapes=1 needs irqs=3 or more\n");
		return -EINVAL;
	}
	if (strlen(suffix) > KSTAT_IRQSIM_SUFFIX_MAX) {
		pr_err("suffix is longer than %u bytes\n",
		       KSTAT_IRQSIM_SUFFIX_MAX);
		return -EINVAL;
	}

	kstat_irqsim_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(kstat_irqsim_dir)) {
		/* debugfs is this module's only interface: fail loudly. */
		pr_err("cannot create debugfs directory: %ld\n",
		       PTR_ERR(kstat_irqsim_dir));
		return PTR_ERR(kstat_irqsim_dir);
	}

	kstat_irqsim_tab = kvcalloc(irqs, sizeof(*kstat_irqsim_tab),
				    GFP_KERNEL);
	ret = kstat_irqsim_tab ? kstat_irqsim_descs_alloc(irqs) : -ENOMEM;
	if (ret) {
		kvfree(kstat_irqsim_tab);
		debugfs_remove_recursive(kstat_irqsim_dir);
		return ret;
	}

	debugfs_create_file("irqs", 0444, kstat_irqsim_dir, NULL,
			    &kstat_irqsim_irqs_fops);
	debugfs_create_file("fire", 0200, kstat_irqsim_dir, NULL,
			    &kstat_irqsim_fire_fops);
	debugfs_create_file("warn", 0200, kstat_irqsim_dir, NULL,
			    &kstat_irqsim_warn_fops);
	debugfs_create_file("preset", 0200, kstat_irqsim_dir, NULL,
			    &kstat_irqsim_preset_fops);
	debugfs_create_file("preset_softirq", 0200, kstat_irqsim_dir, NULL,
			    &kstat_irqsim_preset_softirq_fops);
#ifdef CONFIG_X86_LOCAL_APIC
	debugfs_create_file("preset_arch", 0200, kstat_irqsim_dir, NULL,
			    &kstat_irqsim_preset_arch_fops);
#endif
	debugfs_create_file("realloc", 0200, kstat_irqsim_dir, NULL,
			    &kstat_irqsim_realloc_fops);

	pr_info("%u synthetic IRQs: %d..%u\n", kstat_irqsim_nr,
		kstat_irqsim_base, kstat_irqsim_base + kstat_irqsim_nr - 1);
	return 0;
}

static void __exit kstat_irqsim_exit(void)
{
	/* Waits for readers and writers still inside our files. */
	debugfs_remove_recursive(kstat_irqsim_dir);
	kstat_irqsim_descs_free(kstat_irqsim_nr);
	kvfree(kstat_irqsim_tab);
}

module_init(kstat_irqsim_init);
module_exit(kstat_irqsim_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstat test helper: synthetic IRQs with exact per-CPU counts (test-only)");
