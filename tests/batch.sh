#!/bin/bash
# Proves: `kstat -b FILE` with 100 commands prints exactly what the same
# 100 commands print when run one by one, in text and in JSON (counters
# held still with irqsim IRQs).  A third of them are GETs of a list of 2
# to 16 IRQs in a mixed order: in a batch they share one handle (and its
# buffers, grown by the larger answers before the smaller ones), one by
# one each starts from nothing.
# leave-out: userspace-only
source tests/lib.sh

irqsim_load irqs=16
t_cleanup irqsim_unload
for i in $(seq 0 15); do irqsim_fire "$i" 0 $((i + 1)); done

: >"$TMPDIR/cmds"
for i in $(seq 0 15); do irqs[i]=$(irqsim_irq "$i"); done
for i in $(seq 0 99); do
	irq=${irqs[i % 16]}
	case $((i % 3)) in
	0) echo "irq show $irq" ;;
	1) echo "irq show $irq percpu" ;;
	2) n=$((i * 7 % 15 + 2)); echo "irq show ${irqs[*]:16-n}" ;;
	esac >>"$TMPDIR/cmds"
done

for opt in "" -j; do
	: >"$TMPDIR/one-by-one"
	while read -r cmd; do
		# shellcheck disable=SC2086
		"$KSTAT" $opt $cmd >>"$TMPDIR/one-by-one"
	done <"$TMPDIR/cmds"
	# shellcheck disable=SC2086
	"$KSTAT" $opt -b "$TMPDIR/cmds" >"$TMPDIR/batch" || t_fail "kstat $opt -b failed"
	cmp "$TMPDIR/one-by-one" "$TMPDIR/batch" ||
		t_fail "batch output ($opt) differs: $(diff "$TMPDIR/one-by-one" "$TMPDIR/batch" | head -5)"
done
