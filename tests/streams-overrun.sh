#!/bin/bash
# Proves: a `kstat monitor` of a stream of its own that overruns (a 4 KiB
# socket buffer, a 300 ms pause after each read, a sample every 20 ms,
# a keyframe only every 3600 batches, 72 s) reports the loss ("overrun")
# and gets samples again at once: the kernel resyncs the member with a
# snapshot (kstat stats counts resyncs on its stream), which libkstat
# takes without sending SUBSCRIBE again (test_sub_stream checks that
# part), so the 60 samples asked for come in seconds, not after the next
# keyframe.  Before, a stream of one's own did not exist, and an overrun
# reader of the shared stream waited for the shared keyframe.
# timeout: 120
# leave-out: userspace-only
source tests/lib.sh
require_cmd jq
require_kstat

out=$TMPDIR/overrun
timeout -s INT "$(t_scaled 40)" "$KSTAT" -j monitor interval 20ms sections irq \
	keyframe 3600 rcvbuf 4096 delay 300ms count 60 >"$out" 2>"$out.err" &
pid=$!
t_cleanup t_kill $pid
resynced() {
	"$KSTAT" -j stats >"$TMPDIR/stats" &&
		jq -e '[.streams[] | select(.interval_ms == 20 and .resyncs > 0)] |
			length == 1' "$TMPDIR/stats" >/dev/null
}
wait_until 30 resynced
t_log "stream: $(jq -c '.streams[] | select(.interval_ms == 20)' "$TMPDIR/stats")"
wait $pid || t_fail "monitor failed: $(cat "$out.err")"
t_log "$(grep -c '"seq"' "$out") samples, losses: $(jq -s -c '[.[] | select(.lost) | [.lost, .reason]]' "$out")"
jq -s -e 'any(.[]; .reason == "overrun")' "$out" >/dev/null || t_fail "no overrun reported"
assert_eq 60 "$(grep -c '"seq"' "$out")" "samples within 40 s, overruns and all"
# after each loss the next sample is a snapshot: a keyframe
jq -s -e '[range(1; length) as $i | select(.[$i - 1].lost) | .[$i]] |
	length > 0 and all(.[]; .keyframe == true)' "$out" >/dev/null ||
	t_fail "a sample after a loss is not a keyframe: $(jq -s -c '[.[] | [.seq, .keyframe, .lost]]' "$out" | head -c 400)"
