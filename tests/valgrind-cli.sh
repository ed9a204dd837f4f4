#!/bin/bash
# Proves: the CLI and libkstat, talking to the real module, run clean
# under valgrind memcheck: 0 errors and 0 definite leaks
# (--error-exitcode, --errors-for-leak-kinds=definite) over show in text
# and JSON (per-CPU counts, IRQ lists and ranges), the /proc printers,
# config and stats, monitor and watch over live summaries (batches of two
# samples, the default stream and subscriptions of their own), and batch
# mode itself.  Two valgrind runs of a batch each
# (valgrind under TCG costs ~20 s a start).  The host unit tests cover the
# parsers the same way (userspace/tests/test_memory.sh).
# timeout: 300
# leave-out: userspace-only
source tests/lib.sh
require_cmd valgrind
require_kstat
t_cleanup config_reset

irqsim_load irqs=16
t_cleanup irqsim_unload
irqsim_fire 3 0 5
irq=$(irqsim_irq 3)
# Summaries every 100 ms, two samples a batch: monitor gets batches
# within a second; watch subscribes with its own interval.
"$KSTAT" config set interval 100 batch 2

# vg NAME ARGS...: kstat ARGS under memcheck; fail on any report.
vg() {
	local log=$TMPDIR/vg.$1
	shift
	_t_capture valgrind -q --error-exitcode=99 --leak-check=full \
		--show-leak-kinds=definite --errors-for-leak-kinds=definite \
		--log-file="$log" "$KSTAT" "$@"
	if ((T_RC != 0)) || [[ -s $log ]]; then
		head -n 40 "$log" >&2
		t_fail "valgrind kstat $*: exit $T_RC; $(grep -m 1 '==[0-9]*== [A-Z]' "$log" || echo "$T_ERR")"
	fi
}

cat >"$TMPDIR/text" <<EOT
cpu show
cpu show total
irq show percpu
irq show 0 1-8 $irq
softirq show percpu
stat
interrupts
softirqs
config show
stats
monitor count 3
monitor interval 100ms sections irq percpu on count 2
watch cpu interval 0.2s count 2
watch softirq interval 0.2s count 1
EOT
vg text -b "$TMPDIR/text"
assert_eq 5 "$(grep -c '^seq ' <<<"$T_OUT")" "samples printed by monitor count 3 and count 2"
assert_match '^all ' "$T_OUT" "watch cpu output"
t_log "text batch: exit 0, valgrind silent"

cat >"$TMPDIR/json" <<EOT
cpu show
irq show percpu
irq show $irq
softirq show percpu
config show
stats
monitor count 3
watch irq interval 0.2s count 2
EOT
vg json -j -b "$TMPDIR/json"
assert_eq 3 "$(grep -c '"seq"' <<<"$T_OUT")" "samples printed by monitor count 3"
assert_eq 2 "$(grep -c '"interval_ns"' <<<"$T_OUT")" "intervals printed by watch count 2"
t_log "JSON batch: exit 0, valgrind silent"
