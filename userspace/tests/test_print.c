// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the CLI's object printers (cli/print.c): an IRQ and a
 * softirq vector print with the same JSON keys and shapes in every view
 * (show, watch / top -b, monitor), and each view's text layout is pinned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/print.h"
#include "unit.h"

static char *timer[] = { "timer" }, *acpi[] = { "acpi", "x" };
static struct kstat_irq irqs[] = {
	{ .irq = 0, .count = 5, .chip = "IO-APIC", .has_hwirq = 1, .hwirq = 2,
	  .name = "edge", .actions = timer, .nr_actions = 1 },
	{ .irq = 9, .count = 123456, .level = 1, .actions = acpi,
	  .nr_actions = 2 },
};
static char *names[] = { "HI", "NET_RX" };
static struct kstat_softirq vecs[] = {
	{ .vec = 0, .count = 7 }, { .vec = 3, .count = 1234 },
};

enum view { SHOW, RATES, MONITOR, LINE };

static char *render(bool json, enum view v)
{
	struct softirq_cols sw;
	struct irq_cols iw;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len), *old;

	if (!f)
		exit(1);
	vecs[0].name = names[0];
	vecs[1].name = names[1];
	old = json_print_output(f);
	new_json_obj(json, false);
	if (v == SHOW)
		irq_cols_show(&iw, irqs, 2, 0, false);
	else if (v == MONITOR)
		irq_cols_json(&iw);
	else
		irq_cols_rates(&iw);
	if (v != LINE) {
		open_json_object(NULL);
		open_json_array("irq");
		print_irq_header(&iw);
		for (i = 0; i < 2; i++)
			print_irq(&irqs[i], v == MONITOR ? NULL : &irqs[i], 1.5,
				  &iw);
		close_json_array();
	} else {
		open_json_object(NULL);
	}
	if (v == SHOW)
		softirq_cols_show(&sw, vecs, 2, 0, false);
	else if (v == MONITOR)
		softirq_cols_json(&sw);
	else if (v == LINE)
		softirq_cols_line(&sw);
	else
		softirq_cols_rates(&sw);
	print_softirq_header(&sw);
	open_json_array("softirq");
	for (i = 0; i < 2; i++)
		print_softirq(&vecs[i], 2.25, &sw);
	close_json_array();
	close_json_object();
	if (v == LINE)
		print_nl();
	delete_json_obj();
	json_print_output(old);
	fclose(f);
	return buf;
}

static const char *const view_names[] = { "show", "watch/top -b",
					  "monitor", "top's softirq line" };

static void check(bool json, enum view v, const char *want)
{
	char *s = render(json, v);

	if (strcmp(s, want))
		fprintf(stderr, "got:\n%s---\nwanted:\n%s---\n", s, want);
	CHECK(!strcmp(s, want), "%s, %s", view_names[v],
	      json ? "JSON" : "text");
	free(s);
}

int main(void)
{
	/* JSON: one shape per object; rate only where a view has one */
	check(true, SHOW,
	      "{\"irq\":[{\"irq\":0,\"count\":5,\"chip\":\"IO-APIC\",\"hwirq\":2,\"type\":\"edge\",\"actions\":[\"timer\"]},"
	      "{\"irq\":9,\"count\":123456,\"chip\":null,\"hwirq\":null,\"type\":\"level\",\"actions\":[\"acpi\",\"x\"]}],"
	      "\"softirq\":[{\"name\":\"HI\",\"count\":7},{\"name\":\"NET_RX\",\"count\":1234}]}\n");
	check(true, RATES,
	      "{\"irq\":[{\"irq\":0,\"rate\":1.50,\"count\":5,\"chip\":\"IO-APIC\",\"hwirq\":2,\"type\":\"edge\",\"actions\":[\"timer\"]},"
	      "{\"irq\":9,\"rate\":1.50,\"count\":123456,\"chip\":null,\"hwirq\":null,\"type\":\"level\",\"actions\":[\"acpi\",\"x\"]}],"
	      "\"softirq\":[{\"name\":\"HI\",\"rate\":2.25,\"count\":7},{\"name\":\"NET_RX\",\"rate\":2.25,\"count\":1234}]}\n");
	check(true, MONITOR,
	      "{\"irq\":[{\"irq\":0,\"count\":5},{\"irq\":9,\"count\":123456}],"
	      "\"softirq\":[{\"name\":\"HI\",\"count\":7},{\"name\":\"NET_RX\",\"count\":1234}]}\n");
	check(true, LINE,
	      "{\"softirq\":[{\"name\":\"HI\",\"rate\":2.25,\"count\":7},{\"name\":\"NET_RX\",\"rate\":2.25,\"count\":1234}]}\n");

	/* text: each view's layout, as before the printers were shared */
	check(false, SHOW,
	      "IRQ  COUNT CHIP    HWIRQ TYPE  ACTIONS\n"
	      "  0      5 IO-APIC     2 edge  timer\n"
	      "  9 123456 -           - level acpi, x\n"
	      "NAME   COUNT\n"
	      "HI         7\n"
	      "NET_RX  1234\n");
	check(false, RATES,
	      "     IRQ       RATE/s          TOTAL  CHIP       ACTIONS\n"
	      "       0          1.5              5  IO-APIC    timer\n"
	      "       9          1.5         123456  -          acpi,x\n"
	      "NAME             RATE/s          TOTAL\n"
	      "HI                  2.2              7\n"
	      "NET_RX              2.2           1234\n");
	check(false, MONITOR, "");
	check(false, LINE, "SOFTIRQ/s HI 2 NET_RX 2\n");
	return unit_exit();
}
