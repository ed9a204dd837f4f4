#!/bin/bash
# Proves: every long-running command ends within 1 s of SIGINT or SIGTERM,
# whatever state its subscription is in (issue "Safety first", point 8),
# and a receive buffer too small for one sample ends the command with a
# plain `kstat:` error naming the size to ask for.  States: reading
# (monitor, watch, top -b, export); overrun after overrun (a 4 KiB
# buffer, a reader pausing 1 s, samples at 100 ms: the fd stays ready,
# and ppoll() then never delivered the signal: the old CLI kept running
# for 10 s until SIGKILL), on the default stream and on a subscription of
# its own; waiting for the module (rmmod) and after it came back
# (reload).  `monitor rcvbuf 1` exits 1 by itself within 10 s with that
# error, on the default stream and on its own subscription, with 4096
# IRQs (a sample in several parts).
# timeout: 240
# leave-out: userspace-only
source tests/lib.sh
require_kstat

# 16 IRQs: a sample of every section fits a 4 KiB buffer, a few do not.
irqsim_load irqs=16
t_cleanup irqsim_unload
t_cleanup config_reset
"$KSTAT" config set interval 100

# ends SIGNAL WHAT CMD...: start CMD, let it run 2 s, send SIGNAL; it must
# be gone within 1 s (scaled for slower kernels).
ends() {
	local sig=$1 what=$2 pid t0 ms
	shift 2
	"$@" >"$TMPDIR/out" 2>"$TMPDIR/err" &
	pid=$!
	sleep 2
	t_exited $pid && t_fail "$what: exited before the signal: $(head -c 300 "$TMPDIR/err")"
	state_hook
	t0=${EPOCHREALTIME/./}
	kill -"$sig" $pid
	until t_exited $pid; do
		ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
		((ms < $(t_scaled 1) * 1000)) || { kill -9 $pid; t_fail "$what: still running ${ms} ms after SIG$sig"; }
		sleep 0.02
	done
	ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
	wait $pid || true
	t_log "$what: gone ${ms} ms after SIG$sig ($(wc -l <"$TMPDIR/out") lines out)"
}
state_hook() { :; }

ends INT "monitor" "$KSTAT" -j monitor
ends TERM "watch" "$KSTAT" watch irq
ends INT "top -b" "$KSTAT" top -b
ends TERM "export" "$KSTAT" export prometheus --listen 127.0.0.1:19599
# Overrun: signalled once the monitor has reported a loss by overrun
# (its start-up and the GET on joining take a while under TCG).
state_hook() { wait_until 20 grep -q '"reason":"overrun"' "$TMPDIR/out"; }
ends INT "monitor, overrun" "$KSTAT" -j monitor rcvbuf 4096 delay 1s
ends TERM "monitor, overrun, own subscription" "$KSTAT" -j monitor rcvbuf 4096 delay 1s interval 100ms
state_hook() { :; }
ends INT "monitor delay 5s" "$KSTAT" -j monitor delay 5s

# Waiting for the module: unloaded while they run.
state_hook() { kstat_unload_busy; sleep 0.5; }
t_cleanup kstat_load
ends INT "monitor, module gone" "$KSTAT" -j monitor
assert_match '"present":false' "$(cat "$TMPDIR/out")" "monitor saw the family go"
kstat_load
ends TERM "watch, module gone" "$KSTAT" watch irq
kstat_load
ends INT "export, module gone" "$KSTAT" export prometheus --listen 127.0.0.1:19599
kstat_load
# ... and back: reloaded while they run.
state_hook() { kstat_unload_busy; kstat_load; "$KSTAT" config set interval 100; sleep 1; }
ends INT "monitor, reloaded" "$KSTAT" -j monitor
assert_match '"present":true' "$(cat "$TMPDIR/out")" "monitor saw the family come back"
ends TERM "top -b, reloaded" "$KSTAT" top -b
state_hook() { :; }

# A buffer that cannot hold one sample: a plain error, by itself.
irqsim_load irqs=4096
for own in "" "interval 250ms"; do
	assert_exit 1 timeout -s KILL "$(t_scaled 10)" "$KSTAT" -j monitor rcvbuf 1 $own
	assert_match '^kstat: the receive buffer \([0-9]+ bytes\) cannot hold one sample of this stream.*ask for [0-9]+ bytes' \
		"$T_ERR" "monitor rcvbuf 1 ${own:-(default stream)}"
done
t_log "rcvbuf 1: $T_ERR"
