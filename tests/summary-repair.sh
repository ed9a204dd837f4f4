#!/bin/bash
# Proves: an overrun is repaired at once, not at the next keyframe.  A
# monitor with a 4 KiB receive buffer that sleeps 1 s after every read
# overflows in every sleep (one sample every 100 ms), and keyframes are
# 20 s apart (keyframe 200).  After each overrun libkstat sends SUBSCRIBE
# again, and the snapshot resyncs it: after the first loss, samples keep
# coming, their timestamps at most 5 s apart (scaled: a few reader
# cycles, when a snapshot itself is crowded out, as seen under TCG on a
# loaded host: 2.9 s), where without the repair nothing comes until the
# keyframe, up to 20 s later, and the monitor's 20 samples take longer
# than the 60 s it is given.  Every jump in seq is reported lost.
# Its kernel paths (SUBSCRIBE's snapshot: summary-join.sh; a full
# socket: summary-overrun.sh) run in other tests; what it proves is the
# library's repair.  So CI's debug stage leaves it out.
# leave-out: kernel-paths-covered
# timeout: 180
source tests/lib.sh
require_cmd jq timeout
require_kstat
t_cleanup "$KSTAT" config set interval 1000 batch 1 keyframe 10

"$KSTAT" config set interval 100 batch 1 keyframe 200 sections all percpu off
rc=0
timeout -s KILL "$(t_scaled 60)" "$KSTAT" -j monitor rcvbuf 4096 delay 1000 count 20 \
	>"$TMPDIR/slow" 2>"$TMPDIR/slow.err" || rc=$?
cat "$TMPDIR/slow.err" >&2
assert_eq 0 "$rc" "the monitor's exit status (20 samples within $(t_scaled 60) s)"

# The samples after the first loss, and the largest gap between them.
after=$(jq -s -c '(map(.lost != null) | index(true)) as $i |
	if $i == null then [] else [.[$i:][] | select(.seq) | .timestamp_ns] end' "$TMPDIR/slow")
n=$(jq length <<<"$after")
gap_ms=$(jq '[range(1; length) as $i | .[$i] - .[$i - 1]] | max // 0 | . / 1000000 | floor' <<<"$after")
losses=$(jq -s '[.[] | select(.lost)] | length' "$TMPDIR/slow")
t_log "after the first loss: $n samples, largest gap ${gap_ms} ms; $losses loss events"
((losses > 0)) || t_fail "a 4 KiB buffer read every second at 100 ms samples reported no loss"
((n >= 5)) || t_fail "only $n samples after the first loss"
limit=$((5000 * ${KSTAT_TIMEOUT_SCALE:-1}))
((gap_ms <= limit)) || t_fail "samples ${gap_ms} ms apart after a loss: more than ${limit} ms"
jq -s -e '[range(1; length) as $i | select(.[$i].seq and .[$i - 1].seq) |
	.[$i].seq == .[$i - 1].seq + 1] | all' "$TMPDIR/slow" >/dev/null ||
	t_fail "seq jumped without a lost event"
