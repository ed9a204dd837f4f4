#!/bin/bash
# Proves: streams due at the same time share one reading of the counters
# (issue 27: "a tick collects the union of the sections due, once").
# Two monitors of their own streams, 200 ms with irq and per-CPU counts,
# 1000 ms with irq and cpu, read together: the grids meet every second.
# - STATS' ticks (every stream's) grow by the 200 ms stream's samples
#   plus the 1000 ms stream's samples that have no 200 ms sample of the
#   same timestamp, not by the sum of both streams' (a 1000 ms sample on
#   the grid rides on a 200 ms tick); tick_ns_total grows with them.
#   Off the grid are the 1000 ms stream's first sample (taken at its
#   SUBSCRIBE), the next one or two drawn toward the grid, and those after
#   a tick the host made late (kst_grid_next()): counted from the
#   timestamps, not assumed, so a busy host does not fail the test.
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
((s_fast >= 10 && s_slow >= 3)) || t_fail "too few samples: $s_fast and $s_slow: $(cat "$TMPDIR/stats")"

# The slow stream's samples up to STATS' reading are its first s_slow
# (none lost: its own reader, read at once); wait until they are written.
seq_count() { grep -c '"seq"' "$1" || true; }
has_slow() { (($(seq_count "$TMPDIR/slow") >= s_slow)); }
wait_until 10 has_slow
# One reading of both monitors: the 1000 ms samples alone (stdout) and,
# into pairs, the samples of one timestamp in both streams.
alone=$(python3 - "$TMPDIR/fast" "$TMPDIR/slow" "$s_slow" "$TMPDIR/pairs" <<'PY'
import json, sys
# Each stream's samples in order, with the IRQ counts at each: a delta
# carries the IRQs that moved, on top of the first sample, a keyframe.
def samples(path):
    out, state = [], {}
    for line in open(path):
        try:
            s = json.loads(line)
        except ValueError:
            continue	# the line being written now
        if "seq" in s:
            state.update({q["irq"]: q["count"] for q in s.get("irq", [])})
            out.append((s["timestamp_ns"], dict(state)))
    return out
fast, slow = samples(sys.argv[1]), samples(sys.argv[2])
fast_at, slow_at = dict(fast), dict(slow)
# of the slow stream's first s_slow samples, those on no 200 ms tick
print(sum(ts not in fast_at for ts, _ in slow[:int(sys.argv[3])]))
with open(sys.argv[4], "w") as out:
    for ts in sorted(set(fast_at) & set(slow_at)):
        both = set(fast_at[ts]) & set(slow_at[ts])
        differ = sorted(i for i in both if fast_at[ts][i] != slow_at[ts][i])
        print(ts, len(both), len(differ), ",".join(map(str, differ[:5])),
              file=out)
PY
)
[[ $alone =~ ^[0-9]+$ ]] || t_fail "cannot read the monitors' samples: $(tail -c 300 "$TMPDIR/slow")"
t_log "in ${secs} s: ticks $ticks (${ns} ns), samples: 200 ms $s_fast, 1000 ms $s_slow ($alone of them on no 200 ms tick)"
# One tick per 200 ms sample and per 1000 ms sample alone; one more if
# STATS was read between a tick's count and its stream's.
((ticks <= s_fast + alone + 1)) ||
	t_fail "ticks $ticks > $s_fast + $alone + 1: a 1000 ms sample on a 200 ms tick took a tick of its own"
((alone < s_slow)) || t_fail "no 1000 ms sample on a 200 ms tick: the streams did not share ticks"
((ticks < s_fast + s_slow)) || t_fail "ticks $ticks: one per stream's sample ($s_fast + $s_slow)"
((ns > 0)) || t_fail "tick_ns_total did not grow"

# Samples of the same tick: same timestamp, same IRQ counts.
t_log "samples of a shared tick (ts, IRQs in both, differing): $(tr '\n' ';' <"$TMPDIR/pairs")"
(($(wc -l <"$TMPDIR/pairs") >= 2)) || t_fail "fewer than 2 samples with the same timestamp in both streams"
awk '$2 == 0 { exit 1 }' "$TMPDIR/pairs" || t_fail "a shared sample with no IRQ in both"
awk '$3 != 0 { exit 1 }' "$TMPDIR/pairs" || t_fail "IRQ counts differ within one tick"
