/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The /proc/interrupts and /proc/softirqs printers of procfmt.c, for any
 * sample with per-CPU detail: what kstat interrupts and kstat softirqs
 * read by a GET, and what kstat report reads from a recording.  Text by
 * definition, on stdout.
 */
#ifndef KSTAT_CLI_PROCFMT_H
#define KSTAT_CLI_PROCFMT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <libkstat.h>

/* Width of the first column, as show_interrupts() computes it. */
int proc_interrupts_prec(uint32_t nr_irqs);

/*
 * /proc/interrupts of @s: a column per online CPU of @s, IRQ rows (with
 * their descriptions when @s has them), arch rows.  @prec from
 * proc_interrupts_prec().
 */
void proc_print_interrupts(const struct kstat_sample *s, int prec);

/* Would /proc/interrupts show IRQ @q, arch row @r of @s as a line? */
bool proc_irq_shown(const struct kstat_sample *s, const struct kstat_irq *q);
bool proc_arch_shown(const struct kstat_sample *s, const struct kstat_arch *r);

/*
 * What follows the per-CPU counts on @q's line of /proc/interrupts
 * (chip, hwirq, flow name, actions), without the newline, into @f: the
 * one source of that text, so that kstat report's LKP names (its words
 * joined by "_") cannot drift from kstat interrupts' lines.
 */
void proc_print_irq_desc(FILE *f, const struct kstat_irq *q, int prec);

/* /proc/softirqs of @s, a column per CPU id below @nr_cpus. */
void proc_print_softirqs(const struct kstat_sample *s, uint32_t nr_cpus);

#endif /* KSTAT_CLI_PROCFMT_H */
