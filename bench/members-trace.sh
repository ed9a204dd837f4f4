#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/members-trace.sh - what 64 members add to a tick, timed in the
# kernel: function_graph on kst_members_send (the per-member loop) beside
# STATS' tick time, union (1 member) and m64 (64 members) alternating,
# 2800 affine IRQs.  Not part of make bench; run as a guest script, e.g.
#   SMP=96 BOOT_MARGIN=900 tests/vm/run-guest.sh bench/members-trace.sh
# and read results/members-trace/res.txt under the VM directory.
# timeout: 3000
source tests/lib.sh
source bench/streams-cost.sh
out=/run/kstat-results/members-trace
mkdir -p $out
n=2800
irqsim_load irqs="$n"
irqsim_fire_affine "$n"
T=/sys/kernel/tracing
mountpoint -q $T || mount -t tracefs nodev $T
echo 0 >$T/tracing_on
echo kst_members_send >$T/set_ftrace_filter
echo function_graph >$T/current_tracer
mapfile -t m64 < <(streams_m64)
graph_window() {	# ROUND CASE SPEC...
	local r=$1 name=$2 line
	shift 2
	echo >$T/trace
	echo 1 >$T/tracing_on
	line=$(streams_window "$r" "$name" 10 "$@")
	echo 0 >$T/tracing_on
	python3 - "$line" $T/trace <<'PY' >>$out/res.txt
import re, sys
line, path = sys.argv[1], sys.argv[2]
d = [float(m.group(1)) for m in
     (re.search(r'([\d.]+) us\s+\|\s+kst_members_send', l) for l in open(path)) if m]
print(f"{line} send_calls {len(d)} send_us {sum(d):.1f}")
PY
}
for ((r = 1; r <= 4; r++)); do
	graph_window "$r" union "$STREAMS_UNION"
	graph_window "$r" m64 "${m64[@]}"
	sleep 2
done
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
cat $out/res.txt >&2
