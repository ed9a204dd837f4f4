#!/bin/bash
# Proves: softirq counts, arch rows and the intr sum in summaries never
# drop when one CPU's 32-bit counter wraps: each per-CPU counter is
# extended on its own.  kstat_irqsim fast-forwards counters nothing else
# touches in a QEMU guest: softirq IRQ_POLL on CPU1 to 2^32-10 and the arch
# row SPU on CPU0 to 2^32-20 before the monitor starts (its first sample
# reports what /proc shows), then past 2^32 to 5 and 30, i.e. 15 and 50
# more events.  The summary's IRQ_POLL and SPU then say exactly 15 and 50
# more than in the first sample (/proc shows them wrapped), no softirq,
# arch or intr count ever goes down, and intr grew by at least 50.
# timeout: 120
source tests/lib.sh
require_cmd jq
require_kstat
require_cpus 2
t_cleanup config_reset

irqsim_load irqs=1
t_cleanup irqsim_unload
[[ -e $IRQSIM_DIR/preset_arch ]] || t_skip "kstat_irqsim has no preset_arch (not x86)"

# softirq_sum NAME: NAME's row of /proc/softirqs, summed over CPUs.
softirq_sum() {
	awk -v n="$1:" '$1 == n { s = 0; for (i = 2; i <= NF; i++) s += $i; printf "%.0f\n", s }' /proc/softirqs
}
softirq_col() {
	awk -v n="$1:" -v c="$(($2 + 2))" '$1 == n { print $c }' /proc/softirqs
}
# arch_sum NAME: the arch row NAME of /proc/interrupts, summed over CPUs.
arch_sum() {
	awk -v n="$1:" 'NR == 1 { ncpu = NF; next }
		$1 == n { s = 0; for (i = 2; i <= ncpu + 1; i++) s += $i; printf "%.0f\n", s }' /proc/interrupts
}
arch_col() {
	awk -v n="$1:" -v c="$(($2 + 2))" '$1 == n { print $c }' /proc/interrupts
}
# series WHAT: every value of WHAT (a jq path over one sample) in order.
series() {
	jq -c "select(.seq != null) | $1" "$TMPDIR/mon" | tr '\n' ' '
}
pol='.softirq[]? | select(.name == "IRQ_POLL") | .count'
spu='.arch[]? | select(.name == "SPU") | .count'

# Put the counters back as they were, then reload kstat.ko: its 64-bit
# totals live as long as the module, and would take the way back for
# nearly 2^32 more events.
pol0=$(softirq_col IRQ_POLL 1)
spu0=$(arch_col SPU 0)
restore() {
	irqsim_preset_softirq 5 1 "$pol0"
	irqsim_preset_arch SPU 0 "$spu0"
}
t_cleanup kstat_load
t_cleanup restore
t_log "before: IRQ_POLL CPU1 $pol0, SPU CPU0 $spu0"

irqsim_preset_softirq 5 1 $((2 ** 32 - 10))
irqsim_preset_arch SPU 0 $((2 ** 32 - 20))
pol_start=$(softirq_sum IRQ_POLL)
spu_start=$(arch_sum SPU)

"$KSTAT" config set interval 500 batch 1 sections all
"$KSTAT" -j monitor >"$TMPDIR/mon" 2>"$TMPDIR/mon.err" &
mon=$!
t_cleanup t_kill $mon
monitor_wait 30 "$TMPDIR/mon" 1
first=$(jq -c -s "[.[] | $T_SAMPLE][0]" "$TMPDIR/mon")
assert_eq "$pol_start" "$(jq "$pol" <<<"$first")" "IRQ_POLL in the first sample vs /proc/softirqs"
assert_eq "$spu_start" "$(jq "$spu" <<<"$first")" "SPU in the first sample vs /proc/interrupts"
intr_start=$(jq .intr <<<"$first")

irqsim_preset_softirq 5 1 5
irqsim_preset_arch SPU 0 30
t=$(boottime_ns)
monitor_wait 15 "$TMPDIR/mon" 2 "$t"
t_term $mon 10
cat "$TMPDIR/mon.err" >&2
t_log "IRQ_POLL: $(series "$pol")"
t_log "SPU: $(series "$spu")"
t_log "intr: $(series .intr)"

assert_eq 5 "$(softirq_col IRQ_POLL 1)" "/proc/softirqs IRQ_POLL CPU1 (wrapped)"
assert_eq 30 "$(arch_col SPU 0)" "/proc/interrupts SPU CPU0 (wrapped)"
lastof() { series "$1" | awk '{ print $NF }'; }
assert_eq $((pol_start + 15)) "$(lastof "$pol")" "IRQ_POLL in the summary after 15 more past 2^32"
assert_eq $((spu_start + 50)) "$(lastof "$spu")" "SPU in the summary after 50 more past 2^32"

# Nothing ever goes down: every softirq vector, arch row and intr.
down=$(jq -n -c 'reduce (inputs | select(.seq != null)) as $x ({st: {}, down: []};
	reduce (($x.softirq[]? | {k: ("softirq " + .name), v: .count}),
		($x.arch[]? | {k: ("arch " + .name), v: .count}),
		{k: "intr", v: $x.intr}) as $e (.;
		if .st[$e.k] != null and $e.v < .st[$e.k] then
			.down += [{seq: $x.seq, what: $e.k, from: .st[$e.k], to: $e.v}]
		else . end | .st[$e.k] = $e.v)) | .down[0:4]' "$TMPDIR/mon")
assert_eq "[]" "$down" "counts that went down between consecutive samples"
intr_end=$(lastof .intr)
((intr_end >= intr_start + 50)) ||
	t_fail "intr grew from $intr_start to $intr_end, less than the 50 SPU events"
