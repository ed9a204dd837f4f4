#!/bin/bash
# Proves: contrib/prometheus's recording rules and alerts work on what
# `kstat export prometheus --percpu` really serves (kstat's own naming,
# kstat_*): two scrapes of the exporter about 2 s apart are turned into
# promtool input series (tests/helpers/prom_rules_test.py), and `promtool
# test rules` finds every record's series with the values and labels the
# two pages give (CPU seconds by mode and the non-idle fraction, interrupt
# rates per row and per CPU, intr, softirqs per vector) and the alerts
# those numbers call for: KstatMachineChecksUnmonitored where the page says
# the MCE row is unread (x86, kstat a module), a crafted MCE firing
# KstatMachineCheckException.  The same again on `kstat export --names
# node` (node_exporter's families, as a migrated site scrapes them);
# node_exporter's own pages: the host unit test tests/unit/test_prom_rules.
# timeout: 180
# leave-out: userspace-only
source tests/lib.sh
require_kstat
require_cmd curl promtool
PY=/usr/bin/python3
GEN=$KSTAT_ROOT/tests/helpers/prom_rules_test.py
RULES=$KSTAT_ROOT/contrib/prometheus/kstat.rules.yml
ALERTS=$KSTAT_ROOT/contrib/prometheus/kstat.alerts.yml
require_py_package prometheus_client python3-prometheus-client
require_py_package yaml python3-yaml

PORT=19587
URL=http://127.0.0.1:$PORT/metrics
fetch() { curl -sS --max-time 10 "$URL"; }
up() { grep -qx 'kstat_exporter_up 1' <<<"$(fetch 2>/dev/null)"; }
gauge() {
	local v
	v=$(sed -n "s/^$1 //p" "$2")
	[[ -n $v ]] || t_fail "$2: no $1"
	echo "$v"
}
# The first page after sequence number 0: 0 is the first sample (a GET)
# and again the subscription's first, so no gap can be counted from it.
past_first() {
	fetch > "$TMPDIR/page1" &&
		! grep -qx 'kstat_exporter_last_sample_seq 0' "$TMPDIR/page1"
}

# check_rules NAMING EXPORT-ARGS...: serve, take two pages, test the rules.
check_rules() {
	local naming=$1 pid seq1 seq2 ival gap
	shift
	"$KSTAT" export prometheus "$@" --interval 250 --listen "127.0.0.1:$PORT" \
		2> "$TMPDIR/export.err" &
	pid=$!
	t_cleanup t_kill $pid
	wait_until 20 up
	t_log "$naming: exporter up ($*)"

	# Two pages, the time between their samples from the samples'
	# sequence numbers and the subscription's interval (the kernel's
	# timer: the gap between the samples, not between the scrapes).
	wait_until 10 past_first
	sleep 2
	fetch > "$TMPDIR/page2"
	kill "$pid"
	wait "$pid" || true
	seq1=$(gauge kstat_exporter_last_sample_seq "$TMPDIR/page1")
	seq2=$(gauge kstat_exporter_last_sample_seq "$TMPDIR/page2")
	ival=$(gauge kstat_exporter_interval_seconds "$TMPDIR/page2")
	gap=$(awk -v a="$seq1" -v b="$seq2" -v i="$ival" 'BEGIN { printf "%d\n", (b - a) * i * 1000 + 0.5 }')
	t_log "$naming: samples $seq1 and $seq2, $gap ms apart, $(grep -c "^${naming}_" "$TMPDIR/page2") series"
	((gap >= 1000)) || t_fail "$naming: samples only $gap ms apart"

	"$PY" "$GEN" gen --naming "$naming" --gap-ms "$gap" --rules "$RULES" --rules "$ALERTS" \
		"$TMPDIR/page1" "$TMPDIR/page2" > "$TMPDIR/test.yml" 2> "$TMPDIR/gen.err" ||
		{ cat "$TMPDIR/gen.err" >&2; t_fail "$naming: prom_rules_test.py gen"; }
	t_log "$(cat "$TMPDIR/gen.err")"
	if grep -q '^kstat_arch_interrupts_unread{type="MCE"} 1' "$TMPDIR/page2"; then
		if ! grep -q 'KstatMachineChecksUnmonitored 1' "$TMPDIR/gen.err"; then
			t_fail "MCE unread here, yet KstatMachineChecksUnmonitored is not expected"
		fi
		t_log "$naming: the MCE row is unread here: KstatMachineChecksUnmonitored must fire"
	fi
	if ! promtool test rules "$TMPDIR/test.yml" > "$TMPDIR/promtool.out" 2>&1; then
		head -n 60 "$TMPDIR/promtool.out" >&2
		t_fail "$naming: promtool test rules on the exporter's pages"
	fi
	t_log "$naming: promtool test rules: $(grep -c '"expr"' "$TMPDIR/test.yml") expr tests and the alerts pass"
}

check_rules kstat --percpu
grep -q '^kstat_interrupts_cpu_total{' "$TMPDIR/page2" || t_fail "no kstat_interrupts_cpu_total with --percpu"
check_rules node --names node
grep -q '^node_interrupts_total{' "$TMPDIR/page2" || t_fail "no node_interrupts_total with --names node"
