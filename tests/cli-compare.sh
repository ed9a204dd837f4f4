#!/bin/bash
# Proves: `kstat compare` over real runs finds a known difference with the
# right sign and size: irqsim fires 1000 interrupts per run on side A and
# 3000 on side B, three runs a side (A as kstat -j run outputs, B as
# kstat run -o recordings), and compare reports that IRQ's means 1000 and
# 3000, +200% (and -66.67% the other way round); identical sides report
# 0%; threshold 10000 (LKP's rule) hides a change of 2000.
# timeout: 240
# leave-out: userspace-only
source tests/lib.sh
require_kstat
require_cmd jq

irqsim_load irqs=8
t_cleanup irqsim_unload
fire=$IRQSIM_DIR/fire

for i in 1 2 3; do
	"$KSTAT" -j run sections irq -- sh -c "echo '3 0 1000' > $fire" > "$TMPDIR/a$i.json"
	"$KSTAT" run sections irq percpu -o "$TMPDIR/b$i.jsonl" -- \
		sh -c "echo '3 1 3000' > $fire" > /dev/null
done

# total JSON: the compare row of kstat-sim-3's total, "a.mean b.mean change_pct"
total() {
	jq -r '.counters[] | select(.name | endswith("_kstat-sim-3")) |
		select(.name | startswith("interrupts.CPU") | not) |
		"\(.a.mean) \(.b.mean) \(.change_pct)"' <<<"$1"
}

j=$("$KSTAT" -j compare "$TMPDIR"/a?.json -- "$TMPDIR"/b?.jsonl)
t_log "$(jq -c '.counters[] | select(.name | test("kstat-sim"))' <<<"$j")"
assert_eq '3 3' "$(jq -r '"\(.a.runs) \(.b.runs)"' <<<"$j")" "runs per side"
assert_eq '1000 3000 200' "$(total "$j")" "A 1000, B 3000: +200%"
assert_eq 3000 "$(jq '.counters[] | select(.name | test("^interrupts.CPU1.*_kstat-sim-3$")) | .b.mean' <<<"$j")" \
	"B's per-CPU counter (recordings with percpu)"

j=$("$KSTAT" -j compare "$TMPDIR"/b?.jsonl -- "$TMPDIR"/a?.json)
assert_eq '3000 1000 -66.67' "$(total "$j")" "the other way round: -66.67%"

j=$("$KSTAT" -j compare "$TMPDIR"/a?.json -- "$TMPDIR"/a?.json)
assert_eq '1000 1000 0' "$(total "$j")" "identical sides: 0%"

j=$("$KSTAT" -j compare "$TMPDIR"/a?.json -- "$TMPDIR"/b?.jsonl threshold 10000)
assert_eq "" "$(total "$j")" "threshold 10000 hides a change of 2000"

t_log "text"
assert_exit 0 "$KSTAT" compare "$TMPDIR"/a?.json -- "$TMPDIR"/b?.jsonl
assert_match '^ +1000 +\+200\.0% +3000 +interrupts\.[^ ]*_kstat-sim-3$' "$T_OUT" "text row"
