#!/bin/bash
# Proves: every -j output parses with jq, and its keys are exactly the
# documented ones (docs/cli.md), with integer counters; one shape per
# concept: config's sections are names in config show, in monitor and in
# stats' streams (config's limits, monitor's stream id, stats' streams),
# CPU shares of watch and top are *_pct (user is nanoseconds).  Also the
# grammar: watch's first word abbreviates (watch ir), -t timestamps
# monitor's text lines and each table of watch and top -b.
# leave-out: userspace-only
source tests/lib.sh
require_cmd jq

keys() { jq -c "$1" <<<"$2"; }

j=$("$KSTAT" -j cpu show)
assert_eq '["cpu","guest","guest_nice","idle","iowait","irq","nice","softirq","steal","system","user"]' \
	"$(keys '.[0] | keys' "$j")" "cpu show keys"
assert_eq true "$(keys 'all(.[]; (.user|type) == "number")' "$j")" "cpu times are numbers"

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

# config: sections as names, in config show and in monitor's config
j=$("$KSTAT" -j config show)
assert_eq '["batch","interval_ms","keyframe","limits","percpu","sections"]' "$(keys 'keys' "$j")" "config show keys"
assert_eq '["max_members_net","max_members_user","max_streams","min_interval_ms"]' \
	"$(keys '.limits | keys' "$j")" "config show limits keys"
assert_eq true "$(keys '.sections | length > 0 and all(.[]; type == "string")' "$j")" "config show sections are names"
show_sections=$(keys '.sections' "$j")
j=$("$KSTAT" -j monitor count 3 | jq -c 'select(.config) | .config' | head -n 1)
[[ -n $j ]] || t_fail "monitor printed no config in 3 samples"
assert_eq "$show_sections" "$(keys '.sections' "$j")" "monitor config sections = config show sections"
# streams: monitor's lines say theirs, stats lists them with their config
assert_eq 0 "$(keys '.stream' "$("$KSTAT" -j monitor count 1)")" "monitor's default stream"
"$KSTAT" -j monitor interval 300ms sections softirq count 30 >"$TMPDIR/own" &
own=$!
t_cleanup t_kill $own
monitor_wait 30 "$TMPDIR/own" 1
j=$("$KSTAT" -j stats)
assert_eq '["batch","bytes","id","interval_ms","keyframe","members","percpu","resyncs","samples","sections"]' \
	"$(keys '.streams[0] | keys' "$j")" "stats streams keys"
assert_eq '["softirq"]' "$(keys '[.streams[] | select(.interval_ms == 300)][0].sections' "$j")" \
	"stats: the stream's sections are names"
t_term $own 10
assert_eq true "$(jq -s -c 'all(.[] | select(.seq); .stream > 0) and
	(.[0].config.sections == ["softirq"])' "$TMPDIR/own")" "monitor's own stream and config"
# one config printer: monitor's text spells percpu as config show does
out=$("$KSTAT" monitor count 3 | grep ' config: ' | head -n 1)
assert_match ' config: interval_ms [0-9]+ batch [0-9]+ keyframe [0-9]+ sections [a-z,]+ percpu (on|off)' "$out" "monitor text config"

# watch and top: CPU shares carry their unit
j=$("$KSTAT" -j watch cpu interval 0.2 count 1)
assert_eq '["cpu","guest_nice_pct","guest_pct","idle_pct","iowait_pct","irq_pct","nice_pct","softirq_pct","steal_pct","system_pct","user_pct"]' \
	"$(keys '.cpu[0] | keys' "$j")" "watch cpu keys"
j=$("$KSTAT" -j top -b -n 1 -d 0.2 rows 3)
assert_eq '["cpu","interval_ns","irq","softirq","timestamp_ns"]' "$(keys 'keys' "$j")" "top -b keys"
assert_eq true "$(keys '.cpu[0] | has("user_pct")' "$j")" "top cpu shares are user_pct"
# one IRQ printer: the labels have the shapes of irq show in watch and top
assert_eq '["actions","chip","count","hwirq","irq","rate","type"]' "$(keys '.irq[0] | keys' "$j")" "top irq keys"
assert_eq true "$(keys '.irq | all(.[]; (.actions | type) == "array" and ((.chip | type) == "string" or .chip == null))' "$j")" \
	"top irq actions an array, chip a string or null"
j=$("$KSTAT" -j watch irq interval 0.2 count 1 top 3)
assert_eq '["actions","chip","count","hwirq","irq","rate","type"]' "$(keys '.irq[0] | keys' "$j")" "watch irq keys"

# grammar: abbreviated first word of watch; -t on monitor text
j=$("$KSTAT" -j watch ir in 0.2 co 1)
assert_eq true "$(keys 'has("irq")' "$j")" "watch ir in 0.2 co 1 is watch irq"
assert_exit 2 "$KSTAT" watch c
out=$("$KSTAT" -t monitor count 1)
assert_match '^\[[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{6}\] seq [0-9]+' "$out" "kstat -t monitor"
# -t on watch and top -b: one line with the time before each text table,
# in monitor's format; JSON has timestamp_ns and no such line.
STAMP='^\[[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{6}\]$'
out=$("$KSTAT" -t watch softirq interval 0.2 count 2)
assert_eq 2 "$(grep -cE "$STAMP" <<<"$out")" "kstat -t watch: a time line per table"
assert_eq 2 "$(grep -A1 -E "$STAMP" <<<"$out" | grep -c '^NAME  *RATE/s')" \
	"kstat -t watch: each time line heads its table"
assert_match "$STAMP" "$(head -n 1 <<<"$out")" "kstat -t watch starts with the time"
j=$("$KSTAT" -t -j watch cpu interval 0.2 count 1)
assert_eq true "$(keys 'has("timestamp_ns")' "$j")" "kstat -t -j watch is JSON as before"
out=$("$KSTAT" -t top -b -n 1 -d 0.2 rows 3)
assert_match "$STAMP" "$(head -n 1 <<<"$out")" "kstat -t top -b starts with the time"
assert_match '^kstat top - interval' "$(sed -n 2p <<<"$out")" "then top's frame"
