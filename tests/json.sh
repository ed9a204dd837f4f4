#!/bin/bash
# Proves: every -j output parses with jq, and its keys are exactly the
# documented ones (docs/cli.md), with integer counters; one shape per
# concept: config's sections are names, its limits an object; a monitor's
# sample carries the sections it was asked for (the default stream's or
# its own), its first one says it was read on joining (from_get); stats
# is the producer's telemetry; CPU shares of watch and top are *_pct
# (user is nanoseconds, with or without cpu show's ns; the shares add up
# to 100, as mpstat's, whose %usr leaves the guest time out).  A bare
# TIME is milliseconds: watch interval 200 and top -d 200 give frames of
# about 200 ms.  Also the
# grammar: watch's first word abbreviates (watch ir), -t timestamps
# monitor's text lines and each table of watch and top -b; watch softirq
# percpu's keys and mpstat -I SCPU table, with its Average.
# leave-out: userspace-only
source tests/lib.sh
require_cmd jq

keys() { jq -c "$1" <<<"$2"; }

j=$("$KSTAT" -j cpu show)
assert_eq '["cpu","guest","guest_nice","idle","iowait","irq","nice","softirq","steal","system","user"]' \
	"$(keys '.[0] | keys' "$j")" "cpu show keys"
assert_eq true "$(keys 'all(.[]; (.user|type) == "number")' "$j")" "cpu times are numbers"
# ns changes the text only: JSON is nanoseconds either way
j2=$("$KSTAT" -j cpu show total ns)
assert_eq '["cpu","guest","guest_nice","idle","iowait","irq","nice","softirq","steal","system","user"]' \
	"$(keys '.[0] | keys' "$j2")" "cpu show total ns keys"
assert_eq true "$(keys '.[0].idle >= 1000000000 and (.[0].idle | floor) == .[0].idle' "$j2")" \
	"cpu show -j: idle in nanoseconds, an integer: $(keys '.[0].idle' "$j2")"

j=$("$KSTAT" -j irq show)
assert_eq '["actions","chip","count","hwirq","irq","type"]' "$(keys '.[0] | keys' "$j")" "irq show keys"
j=$("$KSTAT" -j irq show percpu)
assert_eq '["actions","chip","count","hwirq","irq","percpu","type"]' "$(keys '.[0] | keys' "$j")" "irq show percpu keys"

j=$("$KSTAT" -j softirq show)
assert_eq '["count","name"]' "$(keys '.[0] | keys' "$j")" "softirq show keys"
assert_eq 10 "$(keys length "$j")" "softirq vectors"
j=$("$KSTAT" -j softirq show percpu)
assert_eq '["count","name","percpu"]' "$(keys '.[0] | keys' "$j")" "softirq show percpu keys"

"$KSTAT" -p cpu show | jq -e . >/dev/null || t_fail "pretty JSON does not parse"

# config: sections as names, the limits an object
j=$("$KSTAT" -j config show)
assert_eq '["batch","interval_ms","limits","netns","percpu","sections"]' "$(keys 'keys' "$j")" "config show keys"
assert_eq '["max_subscriptions","min_interval_ms"]' "$(keys '.limits | keys' "$j")" "config show limits keys"
assert_eq true "$(keys '.sections | length > 0 and all(.[]; type == "string")' "$j")" "config show sections are names"
assert_eq true "$(keys '(.percpu | type) == "boolean" and (.netns | type) == "boolean"' "$j")" "config show percpu and netns are booleans"
# stats: the producer's telemetry, numbers and two booleans
j=$("$KSTAT" -j stats)
assert_eq '["alloc_failures","bytes","delivery_failures","generation","interval_ms","listening","messages","running","samples","subscriptions","tick_ns_max","tick_ns_total","ticks"]' \
	"$(keys 'keys' "$j")" "stats keys"
assert_eq true "$(keys 'del(.running, .listening) | all(.[]; type == "number")' "$j")" "stats counters are numbers"
# monitor: the first sample read on joining, then the stream's; each
# carries the sections asked for, and the same keys besides
j=$("$KSTAT" -j monitor interval 300ms sections softirq count 2)
assert_eq '[true,false]' "$(jq -s -c 'map(.from_get // false)' <<<"$j")" "monitor: from_get on the first sample only"
assert_eq '["from_get","generation","received_ns","seq","softirq","timestamp_ns"]' \
	"$(jq -s -c '.[1] | keys' <<<"$j")" "monitor keys of a softirq sample"
j=$("$KSTAT" -j monitor count 2 | tail -n 1)
assert_eq '["arch","cpu","from_get","generation","intr","irq","received_ns","seq","softirq","timestamp_ns"]' \
	"$(keys 'keys' "$j")" "monitor keys of a sample of every section"
assert_eq '["count","irq"]' "$(keys '.irq[0] | keys' "$j")" "monitor irq keys"
# one config printer: config show's text spells percpu and netns as on/off
out=$("$KSTAT" config show)
assert_match 'percpu (on|off)' "$out" "config show text: percpu"
assert_match 'netns (on|off)' "$out" "config show text: netns"

# watch and top: CPU shares carry their unit
j=$("$KSTAT" -j watch cpu interval 0.2s count 1)
assert_eq '["cpu","guest_nice_pct","guest_pct","idle_pct","iowait_pct","irq_pct","nice_pct","softirq_pct","steal_pct","system_pct","user_pct"]' \
	"$(keys '.cpu[0] | keys' "$j")" "watch cpu keys"
# mpstat's shares: %usr without guest, beside %guest: the ten add up to 100
assert_eq true "$(keys '.cpu | all(.[]; (del(.cpu) | [.[]] | add) as $s | $s > 99.9 and $s < 100.1)' "$j")" \
	"watch cpu: each row's shares add up to 100: $(keys '.cpu' "$j")"
# a bare TIME is milliseconds, in watch and top as everywhere
j=$("$KSTAT" -j watch cpu interval 200 count 1)
assert_eq true "$(keys '.interval_ns > 100000000 and .interval_ns < 400000000' "$j")" \
	"watch interval 200 is 200 ms: interval_ns $(keys .interval_ns "$j")"
j=$("$KSTAT" -j top -bn1 -d 200 rows 1)
assert_eq true "$(keys '.interval_ns > 100000000 and .interval_ns < 400000000' "$j")" \
	"top -d 200 is 200 ms: interval_ns $(keys .interval_ns "$j")"
j=$("$KSTAT" -j top -b -n 1 -d 0.2s rows 3)
assert_eq '["cpu","interval_ns","irq","softirq","timestamp_ns"]' "$(keys 'keys' "$j")" "top -b keys"
assert_eq true "$(keys '.cpu[0] | has("user_pct")' "$j")" "top cpu shares are user_pct"
# one IRQ printer: the labels have the shapes of irq show in watch and top
assert_eq '["actions","chip","count","hwirq","irq","rate","type"]' "$(keys '.irq[0] | keys' "$j")" "top irq keys"
assert_eq true "$(keys '.irq | all(.[]; (.actions | type) == "array" and ((.chip | type) == "string" or .chip == null))' "$j")" \
	"top irq actions an array, chip a string or null"
j=$("$KSTAT" -j watch irq interval 0.2s count 1 top 3)
assert_eq '["actions","chip","count","hwirq","irq","rate","type"]' "$(keys '.irq[0] | keys' "$j")" "watch irq keys"

# grammar: abbreviated first word of watch; -t on monitor text
j=$("$KSTAT" -j watch ir in 200 co 1)
assert_eq true "$(keys 'has("irq")' "$j")" "watch ir in 200 co 1 is watch irq"
assert_exit 2 "$KSTAT" watch c
out=$("$KSTAT" -t monitor count 1)
assert_match '^\[[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{6}\] seq [0-9]+' "$out" "kstat -t monitor"
# -t on watch and top -b: one line with the time before each text table,
# in monitor's format; JSON has timestamp_ns and no such line.
STAMP='^\[[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{6}\]$'
out=$("$KSTAT" -t watch softirq interval 0.2s count 2)
assert_eq 2 "$(grep -cE "$STAMP" <<<"$out")" "kstat -t watch: a time line per table"
assert_eq 2 "$(grep -A1 -E "$STAMP" <<<"$out" | grep -c '^NAME  *RATE/s')" \
	"kstat -t watch: each time line heads its table"
assert_match "$STAMP" "$(head -n 1 <<<"$out")" "kstat -t watch starts with the time"
# watch softirq percpu: mpstat -I SCPU's table, then "Average:" and another
out=$("$KSTAT" watch softirq percpu interval 0.2s count 1)
assert_match '^ *CPU +HI/s +TIMER/s +NET_TX/s +NET_RX/s' "$(head -n 1 <<<"$out")" \
	"watch softirq percpu: a column per vector"
assert_eq 2 "$(grep -cE '^ *CPU +HI/s' <<<"$out")" "watch softirq percpu: a table and the average's"
assert_eq 1 "$(grep -cx 'Average:' <<<"$out")" "without -t, Average: on a line of its own"
j=$("$KSTAT" -j watch softirq percpu interval 0.2s count 1)
assert_eq '["name","percpu_rate","rate"]' "$(jq -sc '.[0].softirq[0] | keys' <<<"$j")" \
	"watch softirq percpu: a vector's keys"
assert_eq "[null,true]" "$(jq -sc '[.[].average]' <<<"$j")" "then the average"
# per interval, the per-CPU rates of a vector add up to its rate
assert_eq true "$(jq -s 'all(.[].softirq[]; (.percpu_rate | add) - .rate | fabs < 0.1)' <<<"$j")" \
	"watch softirq percpu: the CPUs' rates add up to the vector's: $(jq -sc '[.[].softirq[] | [.rate, (.percpu_rate | add)]]' <<<"$j")"
j=$("$KSTAT" -t -j watch cpu interval 0.2s count 1)
assert_eq true "$(keys 'has("timestamp_ns")' "$j")" "kstat -t -j watch is JSON as before"
out=$("$KSTAT" -t top -b -n 1 -d 0.2s rows 3)
assert_match "$STAMP" "$(head -n 1 <<<"$out")" "kstat -t top -b starts with the time"
assert_match '^kstat top - interval' "$(sed -n 2p <<<"$out")" "then top's frame"
