#!/bin/bash
# Proves: the producer reads only the sections its readers ask for.  With
# the default stream at sections cpu alone and nobody else reading, IRQ
# descriptors coming and going (kstat_irqsim loaded and unloaded) are not
# even seen: the producer's generation (kstat stats), which a changed IRQ
# set bumps at the next reading of IRQs, stays, and no sample carries
# IRQs.  Then irq in the config: the next samples carry the IRQs, and the
# generation has moved (the IRQ set did change meanwhile).  Then the
# stream stops with irq out of it again (the kernel log stays clean).
# timeout: 120
source tests/lib.sh
require_cmd jq
require_kstat
t_cleanup config_reset

"$KSTAT" config set interval 300 batch 1 sections cpu
"$KSTAT" -j monitor >"$TMPDIR/mon" 2>"$TMPDIR/mon.err" &
mon=$!
t_cleanup t_kill $mon
monitor_wait 30 "$TMPDIR/mon" 2
g0=$(stat_of generation)

t=$(boottime_ns)
irqsim_load irqs=8
monitor_wait 15 "$TMPDIR/mon" 2 "$(boottime_ns)"
irqsim_unload
irqsim_load irqs=8
monitor_wait 15 "$TMPDIR/mon" 2 "$(boottime_ns)"
g1=$(stat_of generation)
jq -c --argjson t "$t" "$T_PUSHED"' | select(.timestamp_ns > $t) |
	{seq, generation, irq: (.irq != null)}' "$TMPDIR/mon" >"$TMPDIR/after"
t_log "cpu only, after the IRQs changed: $(tr '\n' ' ' <"$TMPDIR/after")"
assert_eq "$g0" "$g1" "the producer's generation with IRQs changing outside its sections"
assert_no_match '"irq":true' "$(cat "$TMPDIR/after")" "IRQs in the cpu-only stream"

t=$(boottime_ns)
"$KSTAT" config set sections cpu,irq
monitor_wait 15 "$TMPDIR/mon" 3 "$t"
# (a tick may have read the config before the change: the first sample
# that carries IRQs is the one to look at)
first=$(jq -c -n --argjson t "$t" 'first(inputs | '"$T_PUSHED"' | select(.timestamp_ns > $t and .irq != null))' "$TMPDIR/mon")
[[ -n $first ]] || t_fail "no sample with IRQs after irq came back into the config"
sim=$(irqsim_irq 0)
assert_eq 1 "$(jq --argjson q "$sim" '[.irq[] | select(.irq == $q)] | length' <<<"$first")" \
	"the synthetic IRQ $sim in the first sample with irq"
assert_ne "$g0" "$(stat_of generation)" "the generation once IRQs are read again"

"$KSTAT" config set sections cpu interval 1000
monitor_wait 15 "$TMPDIR/mon" 1 "$(boottime_ns)"
t_term $mon 10
cat "$TMPDIR/mon.err" >&2
stopped() { [[ $(stat_of running) == false ]]; }
wait_until 10 stopped
