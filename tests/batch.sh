#!/bin/bash
# Proves: `kstat -b FILE` with 100 commands prints exactly what the same
# 100 commands print when run one by one, in text and in JSON (counters
# held still with irqsim IRQs).
# leave-out: userspace-only
source tests/lib.sh

irqsim_load irqs=16
t_cleanup irqsim_unload
for i in $(seq 0 15); do irqsim_fire "$i" 0 $((i + 1)); done

: >"$TMPDIR/cmds"
for i in $(seq 0 99); do
	irq=$(irqsim_irq $((i % 16)))
	if ((i % 2)); then
		echo "irq show $irq percpu" >>"$TMPDIR/cmds"
	else
		echo "irq show $irq" >>"$TMPDIR/cmds"
	fi
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
