// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the node naming (cli/export-node.c, kstat export
 * prometheus --names node): a fake sample of 2 CPUs is rendered and the
 * page must have node_exporter's families and label sets, as node_exporter
 * 1.5 derives them from /proc: node_cpu_seconds_total with user including
 * guest, node_interrupts_total one series per IRQ and CPU (no total),
 * info and devices split from the /proc/interrupts text ("-edge timer"
 * without a hwirq, actions joined by ", "), an IRQ without an action and
 * without a count left out, arch rows per CPU (ERR, one count for all
 * CPUs, left out; HYP left out while zero), node_softirqs_total by
 * node_exporter's vector names and node_softirqs_functions_total per CPU
 * by the kernel's; filtered by an include regex with zeros dropped, only
 * the matching rows' nonzero series.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libkstat.h"
#include "../cli/export-render.h"
#include "unit.h"

struct kstat_handle *kstat_handle(void);
struct kstat_handle *kstat_handle(void)
{
	return NULL;	/* irqlabels.o's loader: never called here */
}

static const char *const acts_i8042[] = { "i8042" };
static const char *const acts_timer[] = { "timer" };
static const char *const acts_two[] = { "acpi", "virtio0" };

static void has(const char *page, const char *line)
{
	int len = (int)strlen(line);

	if (len && line[len - 1] == '\n')
		len--;
	CHECK(strstr(page, line) != NULL, "has %.*s", len, line);
}

static void lacks(const char *page, const char *text)
{
	CHECK(strstr(page, text) == NULL, "lacks %s", text);
}

int main(void)
{
	/* labels, as a GET with descriptions gives them: sorted by IRQ */
	struct kstat_irq lab[] = {
		{ .irq = 0, .chip = "IO-APIC", .name = "edge",
		  .actions = acts_timer, .nr_actions = 1, .has_meta = 1 },
		{ .irq = 1, .chip = "IO-APIC", .name = "edge", .hwirq = 1,
		  .has_hwirq = 1, .actions = acts_i8042, .nr_actions = 1,
		  .has_meta = 1 },
		{ .irq = 3, .chip = "IO-APIC", .name = "edge", .hwirq = 3,
		  .has_hwirq = 1, .has_meta = 1 },
		{ .irq = 9, .chip = "IO-APIC", .name = "fasteoi", .hwirq = 9,
		  .has_hwirq = 1, .actions = acts_two, .nr_actions = 2,
		  .has_meta = 1 },
	};
	struct kstat_sample labels = {
		.size = sizeof(labels), .irqs = lab, .nr_irqs = 4,
		.irq_size = sizeof(lab[0]), .sections = KSTAT_SECTION_IRQ,
	};
	struct kstat_cpu_count pc_irq0[] = { { 1, 7 } }, pc_irq1[] = { { 0, 5 } };
	struct kstat_cpu_count pc_loc[] = { { 0, 10 }, { 1, 20 } };
	struct kstat_cpu_count pc_rx[] = { { 1, 4 } };
	struct kstat_cputime cpus[3] = {
		{ .cpu = 0 }, { .cpu = 1 }, { .cpu = -1 },
	};
	struct kstat_irq irqs[] = {
		{ .irq = 0, .count = 7, .percpu = pc_irq0, .nr_percpu = 1 },
		{ .irq = 1, .count = 5, .percpu = pc_irq1, .nr_percpu = 1 },
		{ .irq = 3, .count = 0 },
		{ .irq = 4, .count = 2 },		/* no labels yet */
		{ .irq = 9, .count = 0 },
	};
	struct kstat_arch arch[] = {
		{ .name = "NMI", .desc = "Non-maskable interrupts" },
		{ .name = "LOC", .desc = "Local timer interrupts", .count = 30,
		  .percpu = pc_loc, .nr_percpu = 2 },
		{ .name = "HYP", .desc = "Hypervisor callback interrupts" },
		{ .name = "ERR", .desc = "", .count = 3 },
	};
	struct kstat_softirq soft[] = {
		{ .vec = 3, .name = "NET_RX", .count = 4, .percpu = pc_rx,
		  .nr_percpu = 1 },
		{ .vec = 5, .name = "IRQ_POLL" },
	};
	struct sample_copy d = {
		.valid = true, .cpus = cpus, .irqs = irqs, .softirqs = soft,
		.arch = arch,
	};
	struct counter_guard g = { .cpu_span = 2 };
	struct meta m = { .loaded = true };
	struct irq_filter f = { 0 };
	char err[128];
	struct buf b = { 0 };
	char *line, *save;
	int nr = 0;

	cpus[0].ns[KSTAT_CPUTIME_USER] = 1500000000;	/* guest included */
	cpus[0].ns[KSTAT_CPUTIME_GUEST] = 500000000;
	cpus[1].ns[KSTAT_CPUTIME_IDLE] = 2000000001;
	d.s = (struct kstat_sample){
		.size = sizeof(d.s),
		.sections = KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ |
			    KSTAT_SECTION_SOFTIRQ,
		.cpus = cpus, .nr_cpus = 2, .cputime_size = sizeof(cpus[0]),
		.cpu_total = &cpus[2],
		.irqs = irqs, .nr_irqs = 5, .irq_size = sizeof(irqs[0]),
		.arch = arch, .nr_arch = 4, .arch_size = sizeof(arch[0]),
		.softirqs = soft, .nr_softirqs = 2,
		.softirq_size = sizeof(soft[0]), .intr_sum = 44,
		.arch_unread = "MCE MCP",
	};
	m.labels.s = &labels;
	CHECK(guard_apply(&g, &d) == 0, "guard_apply");
	render_node(&b, &d.s, &m, &g);
	buf_write(&b, "", 0);
	CHECK(!b.oom && b.p, "rendered");
	if (!b.p)
		return unit_exit();
	b.p[b.len] = '\0';

	has(b.p, "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"} 1.500000000\n");
	has(b.p, "node_cpu_seconds_total{cpu=\"1\",mode=\"idle\"} 2.000000001\n");
	has(b.p, "node_cpu_seconds_total{cpu=\"1\",mode=\"steal\"} 0.000000000\n");
	has(b.p, "node_cpu_guest_seconds_total{cpu=\"0\",mode=\"user\"} 0.500000000\n");
	has(b.p, "node_cpu_guest_seconds_total{cpu=\"1\",mode=\"nice\"} 0.000000000\n");
	has(b.p, "node_interrupts_total{cpu=\"0\",devices=\"-edge timer\",info=\"IO-APIC\",type=\"0\"} 0\n");
	has(b.p, "node_interrupts_total{cpu=\"1\",devices=\"-edge timer\",info=\"IO-APIC\",type=\"0\"} 7\n");
	has(b.p, "node_interrupts_total{cpu=\"0\",devices=\"1-edge i8042\",info=\"IO-APIC\",type=\"1\"} 5\n");
	has(b.p, "node_interrupts_total{cpu=\"1\",devices=\"1-edge i8042\",info=\"IO-APIC\",type=\"1\"} 0\n");
	has(b.p, "node_interrupts_total{cpu=\"1\",devices=\"9-fasteoi acpi, virtio0\",info=\"IO-APIC\",type=\"9\"} 0\n");
	has(b.p, "node_interrupts_total{cpu=\"0\",devices=\"\",info=\"\",type=\"4\"} 0\n");
	has(b.p, "node_interrupts_total{cpu=\"1\",devices=\"\",info=\"Local timer interrupts\",type=\"LOC\"} 20\n");
	has(b.p, "node_interrupts_total{cpu=\"0\",devices=\"\",info=\"Non-maskable interrupts\",type=\"NMI\"} 0\n");
	lacks(b.p, "type=\"3\"");
	lacks(b.p, "type=\"ERR\"");
	lacks(b.p, "type=\"HYP\"");
	has(b.p, "node_intr_total 44\n");
	has(b.p, "node_softirqs_total{vector=\"net_rx\"} 4\n");
	has(b.p, "node_softirqs_total{vector=\"block_iopoll\"} 0\n");
	has(b.p, "node_softirqs_functions_total{cpu=\"0\",type=\"NET_RX\"} 0\n");
	has(b.p, "node_softirqs_functions_total{cpu=\"1\",type=\"NET_RX\"} 4\n");
	has(b.p, "node_softirqs_functions_total{cpu=\"1\",type=\"IRQ_POLL\"} 0\n");
	/* kstat's own data families stay out; the unread rows are said */
	lacks(b.p, "kstat_cpu");
	lacks(b.p, "kstat_interrupts");
	lacks(b.p, "kstat_intr");
	lacks(b.p, "kstat_softirqs");
	has(b.p, "kstat_arch_interrupts_unread{type=\"MCE\"} 1\n");
	has(b.p, "kstat_arch_interrupts_unread{type=\"MCP\"} 1\n");

	/* every node_interrupts_total series is per CPU: no total */
	for (line = strtok_r(b.p, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, "node_interrupts_total{", 22)) {
			nr++;
			if (strncmp(line, "node_interrupts_total{cpu=\"", 27))
				CHECK(0, "a series without cpu: %s", line);
		}
	/* IRQs 0 1 4 9, NMI and LOC, on 2 CPUs */
	CHECK(nr == 12, "%d node_interrupts_total series (want 12)", nr);

	/*
	 * node_exporter's --collector.interrupts.name-include and
	 * --no-collector.interrupts.include-zeros: only i8042 and LOC, and
	 * of those only the CPUs whose count is not 0.
	 */
	CHECK(!irq_filter_set(&f, "i8042|^LOC;", false, err, sizeof(err)),
	      "include compiles");
	f.drop_zeros = true;
	m.filter = &f;
	b.len = 0;
	render_node(&b, &d.s, &m, &g);
	buf_write(&b, "", 1);
	CHECK(!b.oom, "rendered, filtered");
	if (b.oom)
		return unit_exit();
	has(b.p, "node_interrupts_total{cpu=\"0\",devices=\"1-edge i8042\",info=\"IO-APIC\",type=\"1\"} 5\n");
	has(b.p, "node_interrupts_total{cpu=\"0\",devices=\"\",info=\"Local timer interrupts\",type=\"LOC\"} 10\n");
	lacks(b.p, "cpu=\"1\",devices=\"1-edge i8042\"");
	lacks(b.p, "type=\"0\"");
	lacks(b.p, "type=\"4\"");
	lacks(b.p, "type=\"9\"");
	lacks(b.p, "type=\"NMI\"");
	has(b.p, "node_intr_total 44\n");
	irq_filter_free(&f);
	free(m.irq_keep);
	free(m.arch_keep);
	buf_free(&b);
	guard_free(&g);
	return unit_exit();
}
