# SPDX-License-Identifier: GPL-2.0
#
# bench/harness-vs-lkp.sh - sourced by bench/guest-bench-seed.sh (tests/lib.sh
# loaded, the IRQs in place): what a benchmark harness pays to watch the
# counters, kstat against the way LKP's monitors read them (issue 40).
#
# 1. Sampling every second for HARNESS_S (60) seconds:
#    lkp        LKP's interrupts, softirqs and proc-stat monitors as they
#               work: each a shell loop printing "time: <epoch>" and then
#               `cat` of its /proc file, then `sleep 1` (a fork of date,
#               cat and sleep a round)
#    procread   the three files read by one process with no fork (a
#               lower bound for any /proc-based monitor)
#    record     `kstat record FILE interval 1000 duration 60s`, totals
#    record_percpu  the same with per-CPU counts (what LKP's CPU<n>.<IRQ>
#               names need)
#    The figure is CPU time per sample: the monitor's process and its
#    children (utime + stime: the kernel time of their reads is their
#    stime), plus for kstat the producer's time over the window (STATS
#    tick_ns_total), which runs in a kernel worker, not in the recorder.
# 2. `kstat run percpu -- true` against four cats (/proc/interrupts and
#    /proc/softirqs, before and after `true`), HARNESS_RUNS (10) times
#    each, alternating: CPU time of each whole invocation, kstat's process
#    start (libnl, the family lookup) included.
#
# Lines written to stdout (report-seed.py reads them):
#   harness WHO samples N cpu_ms MS producer_ms MS seconds S bytes B
#   harness_run WHO runs N cpu_ms MS
# and # comments.  Nothing is timed against a limit.

HARNESS_S=${HARNESS_S:-60}
HARNESS_RUNS=${HARNESS_RUNS:-10}

# children_cpu_ms CMD...: run CMD (stdout to /dev/null); the CPU time in
# ms of it and every descendant it waited for.
children_cpu_ms() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{(r.ru_utime + r.ru_stime) * 1000:.1f}")
PY
}

producer_ms() {
	"$KSTAT" -j stats | jq '.tick_ns_total / 1e6'
}

# The LKP monitors: three loops side by side, HARNESS_S rounds each.
LKP_MONITORS='
for f in interrupts softirqs stat; do
	for ((i = 0; i < $1; i++)); do
		echo "time: $(date +%s)"
		cat /proc/$f
		sleep 1
	done > "$2.$f" &
done
wait'

PROC_READER='
import sys, time
n, t0 = int(sys.argv[1]), time.monotonic()
for i in range(n):
    for f in ("interrupts", "softirqs", "stat"):
        with open("/proc/" + f) as fp:
            fp.read()
    time.sleep(max(0, t0 + i + 1 - time.monotonic()))'

harness_window() {	# WHO: one sampling window, its "harness" line
	local who=$1 dir=$TMPDIR/harness ms p0 p1 samples bytes
	mkdir -p "$dir"
	rm -f "$dir"/*
	p0=$(producer_ms)
	case $who in
	lkp)
		ms=$(children_cpu_ms bash -c "$LKP_MONITORS" lkp "$HARNESS_S" "$dir/lkp")
		samples=$HARNESS_S ;;
	procread)
		ms=$(children_cpu_ms python3 -c "$PROC_READER" "$HARNESS_S")
		samples=$HARNESS_S ;;
	record | record_percpu)
		local extra=()
		[[ $who == record ]] || extra=(percpu)
		ms=$(children_cpu_ms "$KSTAT" record "$dir/rec.jsonl" interval 1000 \
			duration "${HARNESS_S}s" "${extra[@]}")
		samples=$(grep -c '^{"seq"' "$dir/rec.jsonl" || true) ;;
	esac
	p1=$(producer_ms)
	bytes=$(cat "$dir"/* 2>/dev/null | wc -c)
	echo "harness $who samples $samples cpu_ms $ms producer_ms $(jq -n "$p1 - $p0") seconds $HARNESS_S bytes $bytes"
}

harness_runs() {	# the run side: kstat run against four cats
	local i kstat=0 cats=0 ms
	for ((i = 0; i < HARNESS_RUNS; i++)); do
		ms=$(children_cpu_ms "$KSTAT" run percpu -- true)
		kstat=$(jq -n "$kstat + $ms")
		ms=$(children_cpu_ms sh -c 'for f in interrupts softirqs; do cat /proc/$f; done; true
			for f in interrupts softirqs; do cat /proc/$f; done')
		cats=$(jq -n "$cats + $ms")
	done
	echo "harness_run kstat_run runs $HARNESS_RUNS cpu_ms $kstat"
	echo "harness_run cat runs $HARNESS_RUNS cpu_ms $cats"
}

harness_vs_lkp() {
	local who
	echo "# kstat against LKP's monitors: ${HARNESS_S} s windows at 1 s, then $HARNESS_RUNS runs each"
	"$KSTAT" record help >/dev/null 2>&1 || { echo "# kstat has no record command"; return 1; }
	for who in lkp procread record record_percpu; do
		harness_window "$who" || return 1
	done
	harness_runs
}
