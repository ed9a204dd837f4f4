#!/bin/bash
# Proves: the kernel computes each sample once for all subscribers: 2,
# then 16 concurrent `kstat -j monitor` see the same seq -> timestamp
# pairs (at least 5 samples seen by every one of them), and with 16
# listening samples_taken grows by one per interval, not per subscriber.
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

# One sample per interval, whatever the number of subscribers: with 16
# listening, samples_taken grows by elapsed / interval, not 16 times that.
pids=()
for i in $(seq 16); do
	"$KSTAT" -j monitor >"$TMPDIR/s.$i" &
	pids+=($!)
done
stop_all() { kill -INT "${pids[@]}" 2>/dev/null; true; }
t_cleanup stop_all
all_listening() {
	local i
	for i in $(seq 16); do grep -q seq "$TMPDIR/s.$i" || return 1; done
}
wait_until 30 all_listening
t0=$(boottime_ns)
before=$("$KSTAT" -j stats | jq .samples_taken)
sleep 3
after=$("$KSTAT" -j stats | jq .samples_taken)
t1=$(boottime_ns)
stop_all
wait "${pids[@]}" || true
taken=$((after - before))
intervals=$(((t1 - t0) / 100000000))
t_log "16 subscribers for $intervals intervals of 100 ms: $taken samples taken"
((taken >= intervals / 2 && taken <= intervals * 3 / 2 + 2)) ||
	t_fail "expected ~$intervals samples for 16 subscribers, got $taken"
