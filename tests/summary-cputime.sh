#!/bin/bash
# Proves: CPU time in samples is one reading, whole in every sample.  At
# batch 64 and a 10 ms interval, cpu section with per-CPU rows, every
# sample the monitor prints has every online CPU once, then the total;
# the total is the sum of the rows (one reading, possible = online CPUs
# in the guest); no CPU's time goes back, bar the kernel's own idle
# readings (below).
# also: SMP=8
# timeout: 300
source tests/lib.sh
require_cmd jq
t_cleanup config_reset

online=$(nproc)
possible=$(possible_cpus)
((online == possible)) || t_skip "$online of $possible CPUs online: the total is not the rows' sum"

"$KSTAT" config set interval 10 batch 64 sections cpu percpu on
"$KSTAT" -j monitor >"$TMPDIR/mon" 2>"$TMPDIR/mon.err" &
mon=$!
stop_mon() { kill "$mon" 2>/dev/null || true; }
t_cleanup stop_mon
monitor_wait 120 "$TMPDIR/mon" 300
stop_mon
wait "$mon" 2>/dev/null || true
# Whole lines only, and samples only (a loss is a line of its own).
head -n "$(wc -l <"$TMPDIR/mon")" "$TMPDIR/mon" | jq -c "$T_SAMPLE"' | select(has("cpu"))' \
	>"$TMPDIR/mon.whole"
[[ ! -s $TMPDIR/mon.err ]] || t_fail "monitor: $(head -3 "$TMPDIR/mon.err")"

n=$(wc -l <"$TMPDIR/mon.whole")
t_log "$n samples, $online CPUs, $(grep -c lost "$TMPDIR/mon") losses"
jq -s -e --argjson n $((online + 1)) \
	'all(.[]; (.cpu | length) == $n and .cpu[-1].cpu == null and
		([.cpu[:-1][].cpu] == [range($n - 1)]))' \
	"$TMPDIR/mon.whole" >/dev/null ||
	t_fail "a sample does not have every online CPU, then the total"

fields='["user","nice","system","idle","iowait","irq","softirq","steal","guest","guest_nice"]'
jq -s -e --argjson f "$fields" \
	'all(.[]; .cpu as $c | all($f[]; . as $k |
		([$c[:-1][][$k]] | add) == $c[-1][$k]))' \
	"$TMPDIR/mon.whole" >/dev/null ||
	t_fail "a sample's total is not the sum of its rows"
# Every decrease between consecutive samples: "seq cpu field before
# after two-back", idle+iowait counted as a field of its own, two-back
# being the value two samples before (null for the second sample).
jq -s -r --argjson f "$fields" \
	'[.[] | {seq, cpu: [.cpu[] | . + {"idle+iowait": (.idle + .iowait)}]}] |
	. as $s | range(1; $s | length) as $i |
		range(0; $s[$i].cpu | length) as $j |
		($f + ["idle+iowait"])[] as $k |
		$s[$i].cpu[$j] as $now | $s[$i - 1].cpu[$j] as $was |
		select($now[$k] < $was[$k]) |
		(if $i >= 2 then $s[$i - 2].cpu[$j][$k] else null end) as $two |
		"\($s[$i].seq) \($now.cpu) \($k) \($was[$k]) \($now[$k]) \($two)"' \
	"$TMPDIR/mon.whole" >"$TMPDIR/back"
# Every field but idle and iowait is kernel_cpustat's and only grows: a
# decrease there is a stale row.  Idle and iowait come from the NO_HZ
# idle accounting, which moves time between the two (proc.rst: iowait
# "will decrease in certain conditions"), and whose reading of a CPU
# waking meanwhile can come out high once: the next one then looks lower
# (/proc/stat does the same, 3 times in 6906 reads of 8 CPUs here:
# scripts/proc-idle-back.sh).  So idle or iowait alone is logged, and so
# is their sum going back when it is still above the sample two before
# (one high reading, or the first pair), or below it by less than a
# /proc/stat tick (10 ms: two high readings in a row, seen once in make
# check at 8 CPUs: 35320.100 s, 35327.898 s, then 35320.049 s); equal to
# it (a row resent from two samples before) or further below is a stale
# row, and fails.
{ grep ' \(idle\|iowait\) ' "$TMPDIR/back" || true; } | head -3 | tr '\n' ';' >"$TMPDIR/alone"
[[ ! -s $TMPDIR/alone ]] ||
	t_log "idle or iowait alone went back (seq cpu field before after two-back): $(cat "$TMPDIR/alone")"
awk -v high="$TMPDIR/high" -v stale="$TMPDIR/stale" '
	$3 == "idle" || $3 == "iowait" { next }
	$3 == "idle+iowait" && ($6 == "null" || $5 > $6 ||
		($5 < $6 && $6 - $5 < 10000000)) { print > high; next }
	{ print > stale }' "$TMPDIR/back"
[[ ! -s $TMPDIR/high ]] ||
	t_log "one high idle reading of the kernel (seq cpu field before after two-back): $(head -3 "$TMPDIR/high" | tr '\n' ';')"
[[ ! -s $TMPDIR/stale ]] ||
	t_fail "a CPU's time went back between samples (seq cpu field before after two-back): $(head -3 "$TMPDIR/stale" | tr '\n' ';')"
