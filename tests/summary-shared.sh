#!/bin/bash
# Proves: the kernel computes each sample once for all subscribers: 2,
# then 16 concurrent `kstat -j monitor` see the same seq -> timestamp
# pairs (at least 5 samples seen by every one of them), and samples_taken
# grows by one per interval, not per subscriber.
# timeout: 300
source tests/lib.sh
require_cmd jq
t_cleanup "$KSTAT" config set interval 1000

"$KSTAT" config set interval 100
for n in 2 16; do
	pids=()
	# Each runs 12 s: however slowly they start, they overlap for a while.
	for i in $(seq "$n"); do
		timeout -s INT 12 "$KSTAT" -j monitor >"$TMPDIR/m$n.$i" &
		pids+=($!)
	done
	wait "${pids[@]}" || true
	# every (seq, timestamp) pair seen by anyone must be the same for all
	cat "$TMPDIR"/m"$n".* | jq -c '[.seq, .timestamp_ns]' | sort -u >"$TMPDIR/pairs$n"
	seqs=$(cut -d, -f1 "$TMPDIR/pairs$n" | sort -u | wc -l)
	pairs=$(wc -l <"$TMPDIR/pairs$n")
	assert_eq "$seqs" "$pairs" "distinct seq vs distinct (seq, timestamp) with $n subscribers"
	common=$(for f in "$TMPDIR"/m"$n".*; do jq .seq "$f"; done | sort | uniq -c |
		awk -v n="$n" '$1 == n' | wc -l)
	t_log "$n subscribers: $pairs distinct samples, $common seen by all"
	((common >= 5)) || t_fail "expected >= 5 samples seen by all $n subscribers, got $common"
done

# One sample per interval, whatever the number of subscribers.
before=$("$KSTAT" -j stats | jq .samples_taken)
for i in $(seq 16); do timeout -s INT 3 "$KSTAT" -j monitor >/dev/null & done
wait || true
after=$("$KSTAT" -j stats | jq .samples_taken)
taken=$((after - before))
t_log "16 subscribers for 3 s at 100 ms: $taken samples taken"
((taken >= 15 && taken <= 45)) || t_fail "expected ~30 samples for 16 subscribers in 3 s, got $taken"
