# SPDX-License-Identifier: GPL-2.0
#
# bench/streams-cost.sh - sourced by bench/guest-bench.sh and
# bench/guest-bench-seed.sh (tests/lib.sh loaded, the IRQs in place):
# what streams of readers' own cost the producer (issue 27), side by
# side in one guest, in rounds that alternate the cases:
#   union   one stream, 250 ms, every section, one member
#   eight   8 streams, 250 to 4000 ms, each with other sections (their
#           union: every section; 250 ms the shortest interval)
#   m64     the union's stream with 64 members
#   idle    no reader: no stream, nothing should run
# The producer's cost is STATS' tick_ns_total (every stream's ticks,
# reading, building and sending; wall time in the work item) over a
# window that starts once every reader has its first sample.  Readers are
# raw sockets in one process that only receive (tests/helpers/streams.py
# drain; STREAMS_MODE=watch parses every sample instead): the work item's
# wall time counts any time its vCPU waits for the host, and with 64
# parsing readers on a 2-core host that wait, not the kernel's work, was
# much of the difference between m64 and union.
# Prints "round R CASE elapsed_ns N ticks N tick_ns N samples N readers N"
# (samples: every stream's, taken in the window; a member's deliveries
# are its stream's samples).

STREAMS_UNION="interval=250,sections=7"
STREAMS_EIGHT="interval=250,sections=2 interval=500,sections=1
	interval=750,sections=4 interval=1000,sections=3
	interval=1500,sections=5 interval=2000,sections=6
	interval=3000,sections=7 interval=4000,sections=2"

streams_stats() {	# "TICKS TICK_NS SAMPLES", every stream's
	"$KSTAT" -j stats | jq -r '"\(.ticks) \(.tick_ns_total) \([.streams[].samples] | add)"'
}

# streams_window ROUND CASE SECS SPEC...: readers of SPECs for the window.
streams_window() {
	local round=$1 name=$2 secs=$3 pid t0 n0 s0 t1 n1 s1 b0 b1
	shift 3
	if (($#)); then
		python3 tests/helpers/streams.py "${STREAMS_MODE:-drain}" $((secs + 5)) "$@" >"$TMPDIR/streams.out" &
		pid=$!
		sleep 3		# every reader's SUBSCRIBE, and its first sample
	fi
	read -r t0 n0 s0 <<<"$(streams_stats)"
	b0=$(boottime_ns)
	sleep "$secs"
	read -r t1 n1 s1 <<<"$(streams_stats)"
	b1=$(boottime_ns)
	if (($#)); then
		wait "$pid"
		jq -e -s 'all(.[]; .err == 0)' "$TMPDIR/streams.out" >/dev/null ||
			echo "# $name: a SUBSCRIBE failed: $(jq -c -s '[.[] | select(.err != 0)]' "$TMPDIR/streams.out")"
		# a member that got nothing would make its stream look cheap
		jq -e -s 'all(.[]; (.messages // 1) > 0 and (.enobufs // 0) == 0)' "$TMPDIR/streams.out" >/dev/null ||
			echo "# $name: a reader got nothing or overran: $(jq -c -s '[.[] | select((.messages // 1) == 0 or (.enobufs // 0) > 0)]' "$TMPDIR/streams.out")"
	fi
	echo "round $round $name elapsed_ns $((b1 - b0)) ticks $((t1 - t0)) tick_ns $((n1 - n0)) samples $((s1 - s0)) readers $#"
}

# streams_m64: the m64 case's 64 readers' SPECs, one a line.
streams_m64() {
	local i
	for ((i = 0; i < 64; i++)); do echo "$STREAMS_UNION"; done
}

# streams_cost [ROUNDS] [SECS]
streams_cost() {
	local rounds=${1:-5} secs=${2:-10} r m64
	# shellcheck disable=SC2206
	local eight=($STREAMS_EIGHT)
	mapfile -t m64 < <(streams_m64)
	echo "# streams cost: $rounds rounds of $secs s windows; irqs $(ls /sys/kernel/irq | wc -l) cpus $(nproc)"
	for ((r = 1; r <= rounds; r++)); do
		streams_window "$r" union "$secs" "$STREAMS_UNION"
		streams_window "$r" eight "$secs" "${eight[@]}"
		streams_window "$r" m64 "$secs" "${m64[@]}"
		sleep 2		# the readers' streams go at once
		streams_window "$r" idle "$secs"
	done
	echo "# kstat stats after the runs:"
	"$KSTAT" stats | sed 's/^/# /'
}
