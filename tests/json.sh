#!/bin/bash
# Proves: every -j output parses with jq, and its keys are exactly the
# documented ones (docs/cli.md), with integer counters.
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
