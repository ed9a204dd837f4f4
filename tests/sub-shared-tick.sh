#!/bin/bash
# Proves: readers with different intervals and sections share the
# producer's ticks (issue 38: one producer ticking at the finest interval
# asked for, each tick one reading of what the due readers want).  Eight
# readers at once: two `kstat monitor`s (200 ms, irq with per-CPU counts;
# 1000 ms, irq and cpu) and six raw ones (tests/helpers/streams.py watch:
# 250 ms irq, 300 ms cpu and softirq, 400 ms cpu, 600 ms softirq, 800 ms
# every section, 1400 ms irq with per-CPU counts).
# - Over 6 s, STATS' ticks grow by at most the 200 ms reader's samples in
#   that time + 2 (the edges), not by the readers' samples added up: the
#   others ride on its ticks.  (A test of sharing, not of speed: no time
#   is asserted.)
# - Each raw reader gets its own sections only, at its own mean interval
#   (+-15 %), and every gap within a tick (200 ms, + 25 % for the host)
#   of its interval.
# - Samples of one tick carry the same timestamp in both monitors, and
#   every IRQ both carry has the same count in each such pair: one
#   reading, although one reader asked for per-CPU counts and the other
#   not.
# leave-out: kernel-paths-covered
# timeout: 180
source tests/lib.sh
require_kstat
require_cmd jq python3
S=tests/helpers/streams.py

secs=$(t_scaled 6)
"$KSTAT" -j monitor interval 200ms sections irq percpu on >"$TMPDIR/fast" &
t_cleanup t_kill $!
"$KSTAT" -j monitor interval 1000ms sections irq,cpu >"$TMPDIR/slow" &
t_cleanup t_kill $!
python3 "$S" watch $((secs + 6)) interval=250,sections=2 interval=300,sections=5 \
	interval=400,sections=1 interval=600,sections=4 interval=800,sections=7 \
	interval=1400,sections=2,percpu=1 >"$TMPDIR/raw" &
raw=$!
monitor_wait 30 "$TMPDIR/fast" 3
monitor_wait 30 "$TMPDIR/slow" 2
all_in() { [[ $(stat_of subscriptions) == 8 ]]; }
wait_until 30 all_in

t0=$(boottime_ns)
ticks0=$(stat_of ticks)
sleep "$secs"
ticks1=$(stat_of ticks)
t1=$(boottime_ns)
ticks=$((ticks1 - ticks0))
n_fast=$(jq -c --argjson a "$t0" --argjson b "$t1" "$T_PUSHED"' | select(.timestamp_ns > $a and .timestamp_ns <= $b) | .seq' \
	"$TMPDIR/fast" | sort -u | wc -l)
t_log "in $(((t1 - t0) / 1000000)) ms: $ticks ticks, $n_fast samples of the 200 ms reader, interval $(stat_of interval_ms) ms"
((n_fast >= secs * 5 / 2)) || t_fail "the 200 ms reader got only $n_fast samples in $secs s"
((ticks <= n_fast + 2)) ||
	t_fail "$ticks ticks for $n_fast samples of the finest reader: the other seven took ticks of their own"

wait $raw || t_fail "the raw readers failed: $(head -c 300 "$TMPDIR/raw")"
jq -r '.spec as $s | (.spec | capture("interval=(?<i>[0-9]+)").i | tonumber) as $i |
	(.spec | capture("sections=(?<x>[0-9]+)").x | tonumber) as $x |
	(.samples | unique_by(.[0])) as $p |
	[range(1; $p | length) | ($p[.][1] - $p[. - 1][1]) / 1e6] as $d |
	"\($s) \(.err) \($p | length) \(if ($d | length) > 0 then ($d | add / length | floor) else 0 end) \($d | map(select(. < $i - 250 or . > $i + 250)) | length) \([$p[] | select(.[2] != $x)] | length) \($i)"' \
	"$TMPDIR/raw" >"$TMPDIR/readers"
assert_eq 6 "$(wc -l <"$TMPDIR/readers")" "raw readers that reported"
while read -r spec err n mean off other ms; do
	t_log "$spec: errno $err, $n samples, mean gap $mean ms, $off gaps off by over a tick, $other samples of other sections"
	((err == 0)) || t_fail "$spec: SUBSCRIBE errno $err"
	((n >= 3)) || t_fail "$spec: only $n samples"
	((mean * 100 >= ms * 85 && mean * 100 <= ms * 115)) || t_fail "$spec: mean gap $mean ms"
	((off <= 2)) || t_fail "$spec: $off gaps off its interval by over a tick"
	((other == 0)) || t_fail "$spec: $other samples with other sections than it asked for"
done <"$TMPDIR/readers"

# Samples of the same tick: same timestamp, same IRQ counts.
python3 - "$TMPDIR/fast" "$TMPDIR/slow" >"$TMPDIR/pairs" <<'PY'
import json, sys
def samples(path):
    out = {}
    for line in open(path):
        try:
            s = json.loads(line)
        except ValueError:
            continue	# the line being written now
        if "seq" in s and not s.get("from_get"):
            out[s["timestamp_ns"]] = {q["irq"]: q["count"] for q in s.get("irq", [])}
    return out
fast, slow = samples(sys.argv[1]), samples(sys.argv[2])
for ts in sorted(set(fast) & set(slow)):
    both = set(fast[ts]) & set(slow[ts])
    differ = sorted(i for i in both if fast[ts][i] != slow[ts][i])
    print(ts, len(both), len(differ), ",".join(map(str, differ[:5])))
PY
t_log "samples of a shared tick (ts, IRQs in both, differing): $(tr '\n' ';' <"$TMPDIR/pairs")"
(($(wc -l <"$TMPDIR/pairs") >= 2)) || t_fail "fewer than 2 samples with the same timestamp in both monitors"
awk '$2 == 0 { exit 1 }' "$TMPDIR/pairs" || t_fail "a shared sample with no IRQ in both"
awk '$3 != 0 { exit 1 }' "$TMPDIR/pairs" || t_fail "IRQ counts differ within one tick"
