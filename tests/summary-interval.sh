#!/bin/bash
# Proves: with interval 200 ms, a subscriber gets 12 samples in a row
# with consecutive seq numbers and timestamps 200 ms +- 50% apart (so none
# is missing or extra); with batch 5 the samples arrive in groups of 5
# (same arrival, one message), still with consecutive seq numbers.  The
# count is not taken over a fixed window: the monitor's own start-up
# (seconds on the debug kernel) would eat into it.
source tests/lib.sh
require_cmd jq
t_cleanup "$KSTAT" config set interval 1000 batch 1

check_seq() {	# FILE: consecutive seq, timestamps 100..300 ms apart
	jq -s -e '[.[] | select(.seq)] as $s | ($s | length) > 1 and
		all(range(1; $s | length); $s[.].seq == $s[. - 1].seq + 1)' "$1" >/dev/null ||
		t_fail "seq numbers not consecutive: $(jq -c .seq "$1" | tr '\n' ' ')"
	jq -s -e '[.[] | select(.seq)] as $s |
		all(range(1; $s | length); ($s[.].timestamp_ns - $s[. - 1].timestamp_ns) as $d |
		    $d >= 100000000 and $d <= 300000000)' "$1" >/dev/null ||
		t_fail "sample spacing outside 200 ms +-50%: $(jq -s -c '[.[] | .timestamp_ns / 1e6 | floor]' "$1")"
}

"$KSTAT" config set interval 200 batch 1
timeout -s INT "$(t_scaled 10)" "$KSTAT" -j monitor count 12 >"$TMPDIR/one" || true
n=$(grep -c '"seq"' "$TMPDIR/one")
t_log "interval 200: $n samples, $(jq -s -c '[.[] | select(.seq) | .timestamp_ns / 1e6 | floor]' "$TMPDIR/one") ms"
assert_eq 12 "$n" "samples with interval 200"
check_seq "$TMPDIR/one"

"$KSTAT" config set batch 5
timeout -s INT "$(t_scaled 6)" "$KSTAT" -j monitor count 10 >"$TMPDIR/five" || true
assert_eq 10 "$(grep -c '"seq"' "$TMPDIR/five")" "samples with batch 5"
check_seq "$TMPDIR/five"
# A batch arrives at once: the 5 samples of a batch reach us within a few
# ms of each other, the next batch about 5 x 200 ms later.
spread=$(jq -s -c '[.[] | select(.seq)] | [.[0:5], .[5:10]] |
	map((map(.received_ns) | max - min) / 1e6 | floor)' "$TMPDIR/five")
gap=$(jq -s '[.[] | select(.seq)] | (.[5].received_ns - .[4].received_ns) / 1e6 | floor' "$TMPDIR/five")
t_log "batch 5: arrival spread within batches ${spread} ms, gap between them ${gap} ms"
jq -e 'all(. < 50)' <<<"$spread" >/dev/null || t_fail "a batch of 5 did not arrive at once: spread $spread ms"
((gap >= 500)) || t_fail "batches arrived only $gap ms apart"
