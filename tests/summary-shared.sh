#!/bin/bash
# Proves: the kernel computes each sample once for all listeners of the
# default stream: 2, then 16 concurrent `kstat -j monitor` see the same
# seq -> timestamp pairs (once all listen, the next 5 samples reach every
# one), and with 16 listening STATS' ticks grow by one per interval, not
# per listener.
# Its kernel paths (16 subscribers of one producer) are stress.sh's too;
# what it proves is a count, which the debug kernel's checkers do not
# judge.  So CI's debug stage leaves it out (52 s there).
# leave-out: kernel-paths-covered
# timeout: 300
source tests/lib.sh
require_cmd jq
t_cleanup config_reset

# last_seqs FILE...: "LOW HIGH", the lowest and the highest of the last
# seq each FILE (`kstat -j monitor` output) holds; LOW is 0 while a FILE
# holds none.  The comma leaves out a number still being written.
last_seqs() {
	awk '/"from_get":true/ { next }
	     match($0, /^{"seq":[0-9]+,/) { last[FILENAME] = substr($0, 8, RLENGTH - 8) + 0 }
	     END {
		low = high = 0
		for (f in last) {
			if (low == 0 || last[f] < low) low = last[f]
			if (last[f] > high) high = last[f]
		}
		for (i = 1; i < ARGC; i++) if (!(ARGV[i] in last)) low = 0
		print low + 0, high + 0
	     }' "$@"
}
low_seq_at_least() {
	local low
	read -r low _ < <(last_seqs "${files[@]}")
	((low >= $1))
}

# start_monitors N PREFIX: N `kstat -j monitor` into PREFIX.1 .. PREFIX.N
# (files), their pids in pids; once all listen (each holds a sample).
pids=() files=()
start_monitors() {
	local i
	pids=() files=()
	for i in $(seq "$1"); do
		files+=("$2.$i")
		"$KSTAT" -j monitor >"$2.$i" &
		pids+=($!)
	done
	wait_until 60 low_seq_at_least 1
}
stop_monitors() {
	kill -INT "${pids[@]}" 2>/dev/null || true
	wait "${pids[@]}" 2>/dev/null || true
}
t_cleanup stop_monitors

# ticks_per_interval: with the monitors listening, STATS' ticks must grow
# by elapsed / interval, not that times the listeners.
ticks_per_interval() {
	local t0 t1 before after taken intervals
	t0=$(boottime_ns)
	before=$(stat_of ticks)
	sleep 3
	after=$(stat_of ticks)
	t1=$(boottime_ns)
	taken=$((after - before))
	intervals=$(((t1 - t0) / 100000000))
	t_log "${#pids[@]} listeners for $intervals intervals of 100 ms: $taken ticks"
	((taken >= intervals / 2 && taken <= intervals * 3 / 2 + 2)) ||
		t_fail "expected ~$intervals ticks for ${#pids[@]} listeners, got $taken"
}

"$KSTAT" config set interval 100
for n in 2 16; do
	# However slowly they start: once all listen, every later sample must
	# reach all of them.  Wait for 5 of those.
	start_monitors "$n" "$TMPDIR/m$n"
	read -r _ high < <(last_seqs "${files[@]}")
	if ((n == 16)); then ticks_per_interval; fi
	wait_until 30 low_seq_at_least $((high + 5))
	stop_monitors
	# every (seq, timestamp) pair seen by anyone must be the same for all;
	# one jq for all the files (complete now): a program costs under TCG
	jq -r "$T_PUSHED"' | "\(input_filename) \(.seq) \(.timestamp_ns)"' \
		"${files[@]}" | sort -u >"$TMPDIR/samples$n"
	read -r seqs pairs common < <(awk -v n="$n" '
		{ seq[$2]; pair[$2 " " $3]++ }
		END { for (p in pair) { np++; if (pair[p] == n) all++ }
		      for (s in seq) ns++
		      print ns + 0, np + 0, all + 0 }' "$TMPDIR/samples$n")
	assert_eq "$seqs" "$pairs" "distinct seq vs distinct (seq, timestamp) with $n subscribers"
	t_log "$n subscribers: $pairs distinct samples, $common seen by all"
	((common >= 5)) || t_fail "expected >= 5 samples seen by all $n subscribers, got $common"
done
