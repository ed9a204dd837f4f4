#!/bin/bash
# Proves: kstat lists the IRQ descriptors /proc/interrupts lists, with its
# chip column, and nothing else (issue "Safety first", point 7).
# kstat_irqsim shapes=1 makes index 0 a chip that prints its own name
# (irq_print_chip), index 1 hidden (IRQ_HIDDEN) and index 2 without an
# action.  Then: the metadata dump has no IRQ 1 and gives IRQ 0 the chip
# /proc shows ("simprint-N"); `kstat interrupts` has /proc's rows for
# them; the exporter serves no series for IRQ 1 or IRQ 2 (no action, no
# count), one for IRQ 0; and IRQ 1's interrupts, fired 1000 times, stay in
# the "intr" total as in /proc/stat.
# timeout: 120
source tests/lib.sh
require_cmd jq
require_kstat

irqsim_load irqs=4 shapes=1
t_cleanup irqsim_unload
print=$(irqsim_irq 0) hidden=$(irqsim_irq 1) bare=$(irqsim_irq 2) plain=$(irqsim_irq 3)
irqsim_fire 0 0 5
irqsim_fire 3 0 7

# /proc/interrupts first: what the kernel shows is the reference.
proc_row() { awk -v n="$1:" '$1 == n' /proc/interrupts; }
assert_match "simprint-$print" "$(proc_row "$print")" "/proc's chip column of IRQ $print"
assert_eq "" "$(proc_row "$hidden")" "/proc's row of the hidden IRQ $hidden"
assert_eq "" "$(proc_row "$bare")" "/proc's row of IRQ $bare without an action"

"$KSTAT" -j irq show >"$TMPDIR/irqs"
ids=$(jq -c '[.[] | select(.irq >= '"$print"' and .irq <= '"$plain"') | .irq]' "$TMPDIR/irqs")
t_log "kstat lists $ids of $print..$plain"
assert_eq "[$print,$bare,$plain]" "$ids" "IRQs in the metadata dump (the hidden one left out)"
assert_eq "simprint-$print" "$(jq -r '.[] | select(.irq == '"$print"') | .chip' "$TMPDIR/irqs")" \
	"chip of IRQ $print, as its irq_print_chip() prints it"
assert_eq "0" "$(jq -r '.[] | select(.irq == '"$bare"') | .actions | length' "$TMPDIR/irqs")" \
	"actions of IRQ $bare"

# kstat interrupts: /proc's rows, the same IRQs and chip columns.
rows() { awk -v a="$print" -v b="$plain" '$1 ~ /^[0-9]+:$/ { n = $1 + 0; if (n >= a && n <= b) print $1 }'; }
assert_eq "$(rows </proc/interrupts | tr '\n' ' ')" "$("$KSTAT" interrupts | rows | tr '\n' ' ')" \
	"kstat interrupts' rows beside /proc's"
assert_match "simprint-$print" "$("$KSTAT" interrupts | awk -v n="$print:" '$1 == n')" \
	"kstat interrupts' chip column of IRQ $print"

# The exporter: one page, by textfile, as it serves it.
dir=$TMPDIR/shapes.prom.d
mkdir -p "$dir"
t_cleanup rm -rf "$dir"
"$KSTAT" export prometheus --textfile "$dir/k.prom" 2>"$TMPDIR/export.err" &
pid=$!
t_cleanup t_kill $pid
wait_until 30 grep -qx 'kstat_exporter_up 1' "$dir/k.prom"
wait_until 30 grep -q "^kstat_interrupts_total{type=\"$plain\"" "$dir/k.prom"
series() { grep -c "^kstat_interrupts_total{type=\"$1\"" "$dir/k.prom" || true; }
assert_eq 1 "$(series "$print")" "exported series of IRQ $print"
assert_eq 0 "$(series "$hidden")" "exported series of the hidden IRQ $hidden"
assert_eq 0 "$(series "$bare")" "exported series of IRQ $bare (no action, no count)"
exported=$(grep -c '^kstat_interrupts_total{' "$dir/k.prom")
shown=$(grep -cE '^ *[0-9]+:' /proc/interrupts)
t_log "exported $exported IRQ series, /proc/interrupts shows $shown IRQs"
assert_eq "$shown" "$exported" "IRQ series against /proc/interrupts' IRQ rows"

# The hidden IRQ's interrupts are in "intr", as in /proc/stat.
intr() { awk '$1 == "intr" { print $2; exit }' "$@"; }
k1=$("$KSTAT" stat | intr)
irqsim_fire 1 0 1000
p=$(intr /proc/stat)
k2=$("$KSTAT" stat | intr)
t_log "intr: kstat $k1 -> $k2 across 1000 interrupts of the hidden IRQ; /proc/stat $p between"
((k2 - k1 >= 1000)) || t_fail "kstat's intr grew by $((k2 - k1)), not by the hidden IRQ's 1000"
((p <= k2)) || t_fail "kstat's intr $k2 is below /proc/stat's $p read before it"
