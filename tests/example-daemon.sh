#!/bin/bash
# Proves: examples/kstat-irqrate, the libkstat daemon example (epoll over
# the subscription and a signalfd), prints per-interval IRQ rates that add
# up: with kstat sampling every 100 ms and a synthetic IRQ fired 3 x 500
# times, the deltas it prints for that IRQ sum to exactly 1500, each rate
# is delta / interval over the samples' timestamps (positive, increasing),
# no interval lists more than -n IRQs, and it exits 0 after -c 20
# intervals.  Stopped (SIGSTOP) for 2 s with a 16 KiB socket buffer at a
# 10 ms interval it reports the loss and prints rates again from the next
# sample (every sample is whole); when the module is reloaded under it, it
# reports the loss as
# "reload" (the old example indexed a 3-entry table with it and died,
# status 139) and prints rates again; SIGTERM and SIGINT end it with
# status 0.
# timeout: 90
# leave-out: userspace-only
source tests/lib.sh
require_kstat

BIN=$KSTAT_ROOT/examples/kstat-irqrate
[[ -x $BIN ]] || t_fail "$BIN is not built (make examples)"
t_cleanup config_reset
PID=
stop_daemon() { if [[ -n $PID ]]; then kill -KILL "$PID" 2>/dev/null; fi; true; }
t_cleanup stop_daemon

irqsim_load irqs=4
IRQ=$(irqsim_irq 2)
"$KSTAT" config set interval 100 batch 1 sections all percpu off

# ---- rates that add up ----

out=$TMPDIR/irqrate.out
err=$TMPDIR/irqrate.err
: > "$out"
"$BIN" -n 50 > "$out" 2> "$err" &
PID=$!
# Fire once the daemon has its baseline (its first interval line is out).
wait_until 20 grep -q ' interval ' "$out"
for cpu in 0 1 0; do
	echo "2 $cpu 500" > "$IRQSIM_DIR/fire"
	sleep 0.15
done

# intervals, sum of IRQ's deltas, and the lines that break a rule
check_rates() {
	awk -v irq="$IRQ" -v top=50 '
	/ seq [0-9]+ interval / {
		n++; dt = $5; lines = 0
		# The spacing is up to the kernel scheduler, slow and noisy under
		# TCG: only require a positive interval, not a timing.
		if (dt <= 0) bad_dt++
		if (n > 1 && $1 <= last) nonmono++
		last = $1
		next
	}
	$1 == "irq" {
		if (++lines > top) over++
		if ($2 == irq) {
			rate = $3; sub("/s", "", rate); delta = $4; sum += delta
			want = delta / dt
			if (rate <= 0 || rate - want > want / 100 + 0.1 ||
			    want - rate > want / 100 + 0.1) badrate++
		}
	}
	END { printf "%d %d %d %d %d %d\n", n, sum, bad_dt, badrate, over, nonmono }' "$out"
}
# All 1500 printed, then 5 intervals more (a late delta would show).
all_printed() {
	read -r intervals sum _ < <(check_rates)
	((sum >= 1500)) || return 1
	: "${done_at:=$intervals}"
	((intervals >= done_at + 5))
}
wait_until 30 all_printed
kill -TERM "$PID"
wait "$PID" || true
PID=
read -r intervals sum bad_dt bad_rate over_top nonmono < <(check_rates)
t_log "intervals $intervals, IRQ $IRQ delta sum $sum"
grep -m 3 -E "^  irq $IRQ " "$out" >&2 || true
assert_eq 1500 "$sum" "sum of IRQ $IRQ's printed deltas (fired 3 x 500)"
assert_eq 0 "$bad_dt" "intervals of zero or negative length"
assert_eq 0 "$bad_rate" "rates that are not delta / interval"
assert_eq 0 "$over_top" "IRQ lines beyond -n 50 in an interval"
assert_eq 0 "$nonmono" "timestamps not increasing"
assert_no_match '^lost' "$(cat "$out")" "loss at 100 ms with 4 MiB"

# ---- exit after -c COUNT ----

rc=0
timeout "$(t_scaled 30)" "$BIN" -c 20 > "$out" 2> "$err" || rc=$?
assert_eq 0 "$rc" "exit status after -c 20 (stderr: $(head -c 300 "$err"))"
assert_eq 20 "$(grep -c ' seq [0-9]* interval ' "$out")" "interval lines printed with -c 20"

# ---- loss, SIGTERM ----

"$KSTAT" config set interval 10
: > "$out"
"$BIN" -n 3 -b 16384 > "$out" 2> "$err" &
PID=$!
wait_until 20 grep -q ' interval ' "$out"
kill -STOP "$PID"
sleep 2
kill -CONT "$PID"
wait_until 20 grep -q '^lost' "$out"
lost_line=$(grep -n -m 1 '^lost' "$out" | cut -d: -f1)
t_log "after a 2 s stop: $(sed -n "${lost_line}p" "$out")"
# Rates go on after the loss, from the next sample.
wait_until 20 awk -v l="$lost_line" 'NR > l && / interval / { f = 1 } END { exit !f }' "$out"
kill -TERM "$PID"
rc=0
wait "$PID" || rc=$?
PID=
assert_eq 0 "$rc" "exit status on SIGTERM"
assert_match 'Terminated, exiting' "$(cat "$err")" "SIGTERM message"

# ---- the module reloaded under it ----

: > "$out"
"$BIN" -n 3 > "$out" 2> "$err" &
PID=$!
wait_until 20 grep -q ' interval ' "$out"
t_cleanup kstat_load
kstat_unload_busy
kstat_load
"$KSTAT" config set interval 100
wait_until 30 grep -q '^lost .*(reload)' "$out"
reload_line=$(grep -n -m 1 '^lost .*(reload)' "$out" | cut -d: -f1)
wait_until 30 awk -v l="$reload_line" 'NR > l && / interval / { f = 1 } END { exit !f }' "$out"
t_exited "$PID" && t_fail "the example died after the reload: $(tail -c 300 "$err")"
t_log "reload: $(sed -n "${reload_line}p" "$out")"
kill -TERM "$PID"
rc=0
wait "$PID" || rc=$?
PID=
assert_eq 0 "$rc" "exit status on SIGTERM after the reload"

# ---- SIGINT ----

rc=0
timeout --preserve-status -s INT 1 "$BIN" > "$out" 2> "$err" || rc=$?
assert_eq 0 "$rc" "exit status on SIGINT (stderr: $(head -c 300 "$err"))"
assert_match 'Interrupt, exiting' "$(cat "$err")" "SIGINT message"
t_log "SIGINT after 1 s: exit 0, $(grep -c ' interval ' "$out") intervals printed"
