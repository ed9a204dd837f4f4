#!/bin/bash
# Proves: unloading kstat while subscriptions are being served frees
# nothing a tick is still sending to (issue "Safety first", point 2,
# re-expressed: the old exit freed each stream while another stream's
# tick could still be sending to it).  To make the window likely, 24
# subscriptions at three intervals (250, 500 and 1000 ms: they share
# ticks) carry per-CPU counts of 2048 IRQs to readers that drain them, so
# a tick spends long in its sends; kstat is unloaded 10 times at varying
# points in that.  What shows a use after free is the debug kernel's
# KASAN (make check-debug), through the harness's scan of the kernel log;
# on other kernels the test proves the unloads succeed under that load.
# timeout: 300
source tests/lib.sh
require_kstat
S=tests/helpers/streams.py

irqsim_load irqs=2048
t_cleanup irqsim_unload
t_cleanup kstat_load
specs=()
for ms in 250 500 1000; do
	for _ in 1 2 3 4 5 6 7 8; do specs+=("interval=$ms,sections=2,percpu=1"); done
done
for round in 1 2 3 4 5 6 7 8 9 10; do
	kstat_loaded || kstat_load
	python3 "$S" drain 30 "${specs[@]}" >"$TMPDIR/drain" 2>&1 &
	pid=$!
	# a second or so of ticks, then the unload lands somewhere in one
	sleep "1.$((round * 7 % 10))"
	kstat_unload_busy
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	kstat_loaded && t_fail "round $round: kstat still loaded"
done
t_log "10 unloads under 24 subscriptions at 3 intervals"
kstat_load
assert_ok "$KSTAT" stats
