#!/bin/bash
# Proves: the producer reads only the sections of its config.  With
# sections cpu alone, IRQ descriptors coming and going (kstat_irqsim
# loaded and unloaded) are not even seen: the generation stays, and no
# keyframe is forced (the periodic one is 100 batches away).  Before, every
# section was collected at every tick, and the IRQ renewals made a new
# generation and a keyframe in a cpu-only stream.  Then irq back in the
# config: its first sample is a keyframe with the IRQs; then out again,
# and the producer stops with it out.
# timeout: 120
source tests/lib.sh
require_cmd jq
require_kstat
t_cleanup "$KSTAT" config set interval 1000 batch 1 keyframe 10 sections all

"$KSTAT" config set interval 300 batch 1 keyframe 100 sections cpu
"$KSTAT" -j monitor >"$TMPDIR/mon" 2>"$TMPDIR/mon.err" &
mon=$!
t_cleanup t_kill $mon
monitor_wait 30 "$TMPDIR/mon" 2
g0=$("$KSTAT" -j stats | jq .generation)

t=$(boottime_ns)
irqsim_load irqs=8
monitor_wait 15 "$TMPDIR/mon" 2 "$(boottime_ns)"
irqsim_unload
monitor_wait 15 "$TMPDIR/mon" 2 "$(boottime_ns)"
g1=$("$KSTAT" -j stats | jq .generation)
jq -c --argjson t "$t" 'select(.seq != null and .timestamp_ns > $t) |
	{seq, keyframe, generation, irq: (.irq != null)}' "$TMPDIR/mon" >"$TMPDIR/after"
t_log "cpu only, after the IRQs changed: $(tr '\n' ' ' <"$TMPDIR/after")"
assert_eq "$g0" "$g1" "the producer's generation with IRQs changing outside its sections"
assert_no_match '"keyframe":true' "$(cat "$TMPDIR/after")" "samples of the cpu-only stream"
assert_no_match '"irq":true' "$(cat "$TMPDIR/after")" "IRQs in the cpu-only stream"

t=$(boottime_ns)
"$KSTAT" config set sections cpu,irq
monitor_wait 15 "$TMPDIR/mon" 3 "$t"	# both frames then hold IRQs
# (samples after $t whose config was read before the change are still
# cpu-only: the first that carries IRQs is the one to look at)
first=$(jq -c -n --argjson t "$t" 'first(inputs | select(.seq != null and .timestamp_ns > $t and .irq != null))' "$TMPDIR/mon")
[[ -n $first ]] || t_fail "no sample with IRQs after irq came back into the config"
assert_eq true "$(jq .keyframe <<<"$first")" "the first sample with irq back in the config is a keyframe"
assert_ne 0 "$(jq '.irq | length' <<<"$first")" "IRQs in that keyframe"

# irq out again, and the producer stopped after one sample that way: its
# frames then are one without IRQs (let go when irq left) and one whose
# IRQ pointers it no longer owns (from the sample before).  It must let
# go of each descriptor once, not twice (a refcount underflow, or worse,
# in the kernel log).  1000 ms: the monitor ends well before the next tick.
"$KSTAT" config set sections cpu interval 1000
monitor_wait 15 "$TMPDIR/mon" 1 "$(boottime_ns)"
t_term $mon 10
cat "$TMPDIR/mon.err" >&2
stopped() { [[ $("$KSTAT" -j stats | jq -r .running) == false ]]; }
wait_until 10 stopped
