#!/bin/bash
# Proves: streams due at the same time share one reading of the counters
# (issue 27: "a tick collects the union of the sections due, once").
# Two monitors of their own streams, 200 ms with irq and per-CPU counts,
# 1000 ms with irq and cpu, read together: the grids meet every second.
# - STATS' ticks (every stream's) grow by about the 200 ms stream's
#   samples, not by the sum of both streams' (each 1000 ms sample rides
#   on a 200 ms tick); tick_ns_total grows with them.
# - The samples of one tick carry the same timestamp in both streams,
#   and in each such pair every IRQ both carry has the same count: one
#   reading, although one stream reads per-CPU records and the other not
#   (each stream's counts as its keyframe and the deltas since make them).
# streams.sh's two streams (200 ms, 1000 ms) share ticks too, so the
# debug kernel's checkers see this path there: this one proves counts.
# leave-out: kernel-paths-covered
# timeout: 180
source tests/lib.sh
require_kstat
require_cmd jq python3

stat() { "$KSTAT" -j stats | jq ".$1"; }
ticks0=$(stat ticks)
ns0=$(stat tick_ns_total)
[[ $ticks0 =~ ^[0-9]+$ ]] || t_fail "kstat -j stats has no ticks: $("$KSTAT" -j stats)"

secs=$(t_scaled 6)
"$KSTAT" -j monitor interval 200ms sections irq percpu on >"$TMPDIR/fast" &
fast=$!
"$KSTAT" -j monitor interval 1000ms sections irq,cpu >"$TMPDIR/slow" &
slow=$!
t_cleanup t_kill "$fast"
t_cleanup t_kill "$slow"
sleep "$secs"
"$KSTAT" -j stats >"$TMPDIR/stats"

ticks=$(($(jq .ticks "$TMPDIR/stats") - ticks0))
ns=$(($(jq .tick_ns_total "$TMPDIR/stats") - ns0))
own() { jq "[.streams[] | select(.id != 0 and .interval_ms == $1)][0].samples" "$TMPDIR/stats"; }
s_fast=$(own 200)
s_slow=$(own 1000)
t_log "in ${secs} s: ticks $ticks (${ns} ns), samples: 200 ms $s_fast, 1000 ms $s_slow"
((s_fast >= 10 && s_slow >= 3)) || t_fail "too few samples: $s_fast and $s_slow"
# The slow stream's first sample is taken at its SUBSCRIBE, off the
# grid, and its next two may be drawn toward it: its own ticks.
((ticks <= s_fast + 3)) ||
	t_fail "ticks $ticks > the 200 ms stream's $s_fast samples + 3: the streams did not share ticks"
((ticks < s_fast + s_slow)) || t_fail "ticks $ticks: one per stream's sample ($s_fast + $s_slow)"
((ns > 0)) || t_fail "tick_ns_total did not grow"

# Samples of the same tick: same timestamp, same IRQ counts.
python3 - "$TMPDIR/fast" "$TMPDIR/slow" >"$TMPDIR/pairs" <<'PY'
import json, sys
# Each stream's IRQ counts at each sample: a delta carries the IRQs that
# moved, on top of the first sample, a keyframe with all of them.
def samples(path):
    out, state = {}, {}
    for line in open(path):
        try:
            s = json.loads(line)
        except ValueError:
            continue	# the line being written when the monitor was killed
        if "seq" in s:
            state.update({q["irq"]: q["count"] for q in s.get("irq", [])})
            out[s["timestamp_ns"]] = dict(state)
    return out
fast, slow = samples(sys.argv[1]), samples(sys.argv[2])
for ts in sorted(set(fast) & set(slow)):
    both = set(fast[ts]) & set(slow[ts])
    differ = sorted(i for i in both if fast[ts][i] != slow[ts][i])
    print(ts, len(both), len(differ), ",".join(map(str, differ[:5])))
PY
t_log "samples of a shared tick (ts, IRQs in both, differing): $(tr '\n' ';' <"$TMPDIR/pairs")"
(($(wc -l <"$TMPDIR/pairs") >= 2)) || t_fail "fewer than 2 samples with the same timestamp in both streams"
awk '$2 == 0 { exit 1 }' "$TMPDIR/pairs" || t_fail "a shared sample with no IRQ in both"
awk '$3 != 0 { exit 1 }' "$TMPDIR/pairs" || t_fail "IRQ counts differ within one tick"
