#!/bin/bash
# Proves: `kstat export prometheus --textfile PATH --interval 300ms` reads
# a stream of its own while the admin's default stream samples every
# 1000 ms: the file says kstat_exporter_interval_seconds 0.300,
# `kstat -j stats` lists a 300 ms stream of every section with one member,
# and kstat_exporter_samples_total grows at that stream's cadence (at
# least 2 samples a second over 3 s or more, where the default stream
# gives 1), with the IRQ metrics there.  An admin's `config set sections
# cpu` then takes no metric away from it.  The old exporter refused
# --interval (exit 2).
# timeout: 120
# leave-out: userspace-only
source tests/lib.sh
require_cmd jq
require_kstat
t_cleanup config_reset
"$KSTAT" config set interval 1000 sections all

file=$TMPDIR/streams-export.prom
rm -f "$file"
"$KSTAT" export prometheus --textfile "$file" --interval 300ms 2>"$TMPDIR/export.err" &
pid=$!
t_cleanup t_kill $pid
up() { grep -qx 'kstat_exporter_up 1' "$file" 2>/dev/null; }
wait_until 60 up

metric() { awk -v m="$1" '$1 == m { print $2 }' "$file"; }
assert_eq 0.300 "$(metric kstat_exporter_interval_seconds)" "the exporter's interval"
"$KSTAT" -j stats >"$TMPDIR/stats"
jq -e '[.streams[] | select(.id != 0 and .interval_ms == 300 and
	.sections == ["cpu", "irq", "softirq"] and .members == 1)] | length == 1' \
	"$TMPDIR/stats" >/dev/null ||
	t_fail "no 300 ms stream of every section with one member: $(jq -c .streams "$TMPDIR/stats")"

"$KSTAT" config set sections cpu	# the default stream's only
start=${EPOCHREALTIME/./}
n0=$(metric kstat_exporter_samples_total)
sleep 3
n1=$(metric kstat_exporter_samples_total)
ms=$(( (${EPOCHREALTIME/./} - start) / 1000 ))
t_log "$((n1 - n0)) samples in $ms ms"
(( (n1 - n0) * 1000 >= 2 * ms )) ||
	t_fail "$((n1 - n0)) samples in $ms ms: not the 300 ms stream's cadence"
grep -q '^kstat_interrupts_total{' "$file" ||
	t_fail "the IRQ metrics went with the admin's sections cpu"
t_term $pid 10
assert_eq 0 "$T_RC" "exit status after SIGTERM"
