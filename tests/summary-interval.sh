#!/bin/bash
# Proves: with interval 200 ms, a listener of the default stream gets its
# samples with consecutive seq numbers, timestamps 100 to 400 ms apart
# but for one host stall (which makes one gap long and, the schedule kept,
# the next one short: two gaps) and 200 ms +- 15 % on average (none
# missing or extra); with batch 5 the samples arrive in groups of 5 (same
# arrival, one message), still with consecutive seq numbers.  The first sample a
# listener gets is the state it read on joining (a GET, "from_get"), not
# the producer's: the spacing is checked from the pushed samples on.  The
# count is not taken over a fixed window: the monitor's own start-up
# (seconds on the debug kernel) would eat into it.
# Its kernel paths (CONFIG_SET of interval and batch, batched samples)
# are summary-config.sh's and summary-cputime.sh's (batch 64) too; what
# it proves is timing.  So CI's debug stage leaves it out.
# leave-out: kernel-paths-covered
source tests/lib.sh
require_cmd jq
t_cleanup config_reset

check_seq() {	# FILE: consecutive seq, gaps 100..400 ms but 2, 200 +- 15 % on average
	jq -s -e '[.[] | '"$T_PUSHED"'] as $s | ($s | length) > 1 and
		all(range(1; $s | length); $s[.].seq == $s[. - 1].seq + 1)' "$1" >/dev/null ||
		t_fail "seq numbers not consecutive: $(jq -c "$T_PUSHED | .seq" "$1" | tr '\n' ' ')"
	jq -s -e '[.[] | '"$T_PUSHED"' | .timestamp_ns / 1e6] as $t |
		[range(1; $t | length) as $i | $t[$i] - $t[$i - 1]] as $d |
		([$d[] | select(. < 100 or . >= 400)] | length) <= 2 and
		($d | add / length) as $mean | $mean >= 170 and $mean <= 230' "$1" >/dev/null ||
		t_fail "sample spacing not 200 ms (gaps 100..400 but 2, mean +-15 %): $(jq -s -c '[.[] | '"$T_PUSHED"' | .timestamp_ns / 1e6 | floor]' "$1")"
}

"$KSTAT" config set interval 200 batch 1
timeout -s INT "$(t_scaled 10)" "$KSTAT" -j monitor count 13 >"$TMPDIR/one" || true
n=$(jq -c "$T_PUSHED | .seq" "$TMPDIR/one" | wc -l)
t_log "interval 200: $n pushed samples, $(jq -s -c '[.[] | '"$T_PUSHED"' | .timestamp_ns / 1e6 | floor]' "$TMPDIR/one") ms"
assert_eq 12 "$n" "pushed samples with interval 200 (count 13, the first read on joining)"
check_seq "$TMPDIR/one"

"$KSTAT" config set batch 5
timeout -s INT "$(t_scaled 8)" "$KSTAT" -j monitor count 21 >"$TMPDIR/five" || true
assert_eq 20 "$(jq -c "$T_PUSHED | .seq" "$TMPDIR/five" | wc -l)" "pushed samples with batch 5"
check_seq "$TMPDIR/five"
# A batch arrives at once: the 5 samples of a batch reach us within a few
# ms of each other, the next batch about 5 x 200 ms later.  The first
# group may be part of a batch (the listener joined in its middle): check
# the groups between the first and the last, which are whole batches.
groups=$(jq -s -c '[.[] | '"$T_PUSHED"'] | map(.received_ns / 1e6) as $r |
	reduce range(1; $r | length) as $i ([[$r[0]]];
		if $r[$i] - .[-1][-1] > 300 then . + [[$r[$i]]]
		else .[-1] += [$r[$i]] end) |
	map({n: length, spread: (max - min | floor), first: min, last: max})' "$TMPDIR/five")
t_log "batch 5: arrival groups $(jq -c 'map([.n, .spread])' <<<"$groups") (size, spread in ms)"
jq -e 'length >= 3' <<<"$groups" >/dev/null || t_fail "fewer than 3 arrival groups: $groups"
jq -e '.[1:-1] | all(.n == 5 and .spread < 50)' <<<"$groups" >/dev/null ||
	t_fail "a batch of 5 did not arrive at once: $(jq -c 'map([.n, .spread])' <<<"$groups")"
gap=$(jq '[range(1; length) as $i | .[$i].first - .[$i - 1].last] | min | floor' <<<"$groups")
((gap >= 500)) || t_fail "batches arrived only $gap ms apart"
