#!/bin/bash
# Proves: the summary producer's work runs on an unbound workqueue
# (events_unbound), not on the per-CPU system_wq ("events"), where a
# multi-millisecond tick would hold up every other work item of its
# CPU.  Read from the workqueue_queue_work tracepoint while a monitor
# runs at 100 ms: every work item of kstat.ko's (function kst_*) queued
# meanwhile.
# timeout: 120
source tests/lib.sh
require_kstat

tr_=/sys/kernel/tracing
[[ -e $tr_/events ]] || tr_=/sys/kernel/debug/tracing
[[ -e $tr_/events/workqueue/workqueue_queue_work ]] ||
	t_skip "no workqueue tracepoints (tracefs) in this kernel"
ev=$tr_/events/workqueue/workqueue_queue_work
trace_off() {
	echo 0 > "$ev/enable"
	echo > "$tr_/trace"
}
t_cleanup trace_off
t_cleanup config_reset

"$KSTAT" config set interval 100
echo > "$tr_/trace"
echo 1 > "$ev/enable"
timeout -s INT "$(t_scaled 10)" "$KSTAT" -j monitor count 10 >/dev/null
echo 0 > "$ev/enable"
grep "function=kst_" "$tr_/trace" >"$TMPDIR/q" || true
n=$(wc -l <"$TMPDIR/q")
t_log "$n queueings of kstat.ko work; first: $(head -n 1 "$TMPDIR/q")"
((n > 0)) || t_fail "no kstat.ko work (function=kst_*) was seen queued"
assert_no_match 'workqueue=events ' "$(cat "$TMPDIR/q")" "workqueue of kstat.ko work"
assert_match 'workqueue=events_unbound ' "$(cat "$TMPDIR/q")" "workqueue of kstat.ko work"
