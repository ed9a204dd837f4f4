#!/bin/bash
# Proves: `kstat -j run percpu -- CMD` reports exactly what CMD made
# happen: N interrupts fired by irqsim on CPU c are N on CPU c for that
# IRQ, and the other synthetic IRQs have no row; kstat exits with CMD's
# status (3 for `exit 3`, 128+9 when SIGKILL killed it, 127 when it is not
# found); a SIGTERM sent to kstat reaches CMD and kstat waits for it; an
# irqsim reload during the run shows the reloaded IRQ as "gone" and
# "new", never as a negative count or a jump, also when its new total
# passed the old one (only the per-CPU counts tell).
# timeout: 240
# leave-out: userspace-only
source tests/lib.sh
require_kstat
require_cmd jq
(($(nproc) >= 2)) || t_fail "needs 2 CPUs (SMP=2, the default)"

irqsim_load irqs=8
t_cleanup irqsim_unload
c=$(($(nproc) - 1))
a=$(irqsim_irq 3)
fire=$IRQSIM_DIR/fire

# rows JSON JQ-FILTER: jq over the run's IRQ rows of irqsim
sim_rows() { jq -c "[.irq[] | select((.actions[0] // \"\") | startswith(\"kstat-sim-\"))] | $2" <<<"$1"; }

t_log "fire 1234 on CPU $c for IRQ $a"
j=$("$KSTAT" -j run percpu -- sh -c "echo '3 $c 1234' > $fire")
assert_eq 1234 "$(sim_rows "$j" ".[] | select(.irq == $a) | .count")" "count of IRQ $a"
assert_eq 1234 "$(sim_rows "$j" ".[] | select(.irq == $a) | .percpu[$c]")" "CPU $c of IRQ $a"
assert_eq 1234 "$(sim_rows "$j" "[.[] | select(.irq == $a) | .percpu[]] | add")" \
	"per-CPU sum of IRQ $a"
assert_eq '"same"' "$(sim_rows "$j" ".[] | select(.irq == $a) | .state")" "state of IRQ $a"
assert_eq 1 "$(sim_rows "$j" length)" "irqsim rows (only IRQ $a fired)"
assert_eq '0 null true' "$(jq -r '"\(.status) \(.signal) \(.end_ns > .start_ns)"' <<<"$j")" \
	"status, signal, timestamps"
assert_eq "[\"sh\",\"-c\",\"echo '3 $c 1234' > $fire\"]" "$(jq -c .command <<<"$j")" "command"
assert_eq 1 "$(jq '[.cpu[] | select(.cpu == null)] | length' <<<"$j")" "a total CPU row"

t_log "text output"
assert_exit 0 "$KSTAT" run sections irq -- sh -c "echo '3 0 5' > $fire"
assert_match "^ *$a +5 .*same .*kstat-sim-3" "$T_OUT" "text row of IRQ $a"

t_log "exit statuses"
assert_exit 3 "$KSTAT" run sections cpu -- sh -c 'exit 3'
assert_exit 137 "$KSTAT" run sections cpu -- sh -c 'kill -KILL $$'
assert_match '"signal":9' "$("$KSTAT" -j run sections cpu -- sh -c 'kill -KILL $$' || true)" \
	"JSON signal of a killed command"
assert_exit 127 "$KSTAT" run -- /nonexistent/cmd
assert_match '^kstat: /nonexistent/cmd: No such file or directory' "$T_ERR" "not found message"
assert_eq "" "$T_OUT" "no output when CMD was not found"

t_log "SIGTERM to kstat reaches CMD"
rm -f "$TMPDIR/ready" "$TMPDIR/term"
"$KSTAT" -j run sections cpu -- sh -c "trap 'echo term > $TMPDIR/term; exit 7' TERM;
	touch $TMPDIR/ready; while :; do sleep 0.1; done" > "$TMPDIR/out" &
pid=$!
wait_until 20 test -e "$TMPDIR/ready"
kill -TERM $pid
rc=0
wait $pid || rc=$?
assert_eq 7 "$rc" "kstat's status after SIGTERM (CMD's, which trapped it)"
assert_eq term "$(cat "$TMPDIR/term" 2>/dev/null)" "CMD got the SIGTERM"
assert_eq 7 "$(jq .status "$TMPDIR/out")" "JSON status after SIGTERM"

t_log "irqsim reloaded during the run"
irqsim_fire 2 0 50
j=$("$KSTAT" -j run percpu -- sh -c "rmmod kstat_irqsim && insmod $IRQSIM_KO irqs=8 &&
	echo '2 $c 60' > $fire")
t_log "$(sim_rows "$j" '[.[] | {irq, count, state, actions}]')"
assert_eq '"gone"' "$(sim_rows "$j" '[.[] | select(.actions == ["kstat-sim-2"] and .state != "new")] | .[0].state')" \
	"the old IRQ of kstat-sim-2"
assert_eq null "$(sim_rows "$j" '.[] | select(.actions == ["kstat-sim-2"] and .state == "gone") | .count')" \
	"its count is unknown"
assert_eq 60 "$(sim_rows "$j" '.[] | select(.actions == ["kstat-sim-2"] and .state == "new") | .count')" \
	"the new IRQ of kstat-sim-2: all of its 60"
assert_eq 0 "$(jq '[.irq[] | select(.count != null and .count < 0)] | length' <<<"$j")" \
	"negative counts"
assert_eq 0 "$(sim_rows "$j" '[.[] | select(.state == "same" and .count > 0)] | length')" \
	"synthetic IRQs shown as the same IRQ with a count"

t_log "-o FILE with interval 250: the samples in between are recorded"
f=$TMPDIR/run.jsonl
a=$(irqsim_irq 3)
"$KSTAT" -j run percpu interval 250 -o "$f" -- sh -c "echo '3 0 100' > $fire; sleep 2;
	echo '3 0 50' > $fire" > "$TMPDIR/out"
assert_eq '1 250 "sh"' "$(head -1 "$f" | jq -r '"\(.kstat_record) \(.interval_ms) \(.command[0] | tojson)"')" \
	"header: version, interval, command"
n=$(jq -s '[.[] | select(.seq != null)] | length' "$f")
((n >= 4)) || t_fail "$n samples recorded: want before, at least two in between, after"
t_log "$n samples recorded"
assert_eq true "$(jq -s '[.[] | select(.seq != null) | .timestamp_ns] | . == sort' "$f")" \
	"sample timestamps ascend"
assert_eq "$(jq .start_ns "$TMPDIR/out") $(jq .end_ns "$TMPDIR/out")" \
	"$(jq -s -r '[.[] | select(.seq != null)] | "\(first.timestamp_ns) \(last.timestamp_ns)"' "$f")" \
	"first and last samples are the run's readings"
assert_eq 150 "$(jq -s "[.[] | select(.seq != null)] |
	(last.irq[] | select(.irq == $a) | .count) - (first.irq[] | select(.irq == $a) | .count)" "$f")" \
	"IRQ $a's count from the first sample to the last"
assert_eq '0 null' "$(jq -r 'select(.end) | "\(.end.status) \(.end.signal)"' "$f")" "end line"

t_log "-o FILE without interval: the two readings"
assert_exit 3 "$KSTAT" run sections irq -o "$f" -- sh -c 'exit 3'
assert_eq 'null 2 3' "$(jq -s -r '"\(.[0].interval_ms) \([.[] | select(.seq != null)] | length) \(.[-1].end.status)"' "$f")" \
	"header without interval, two samples, end status"
assert_exit 1 "$KSTAT" run -o /nonexistent/dir/file -- true
assert_match '^kstat: cannot create "/nonexistent/dir/file"' "$T_ERR" "unwritable -o FILE"
