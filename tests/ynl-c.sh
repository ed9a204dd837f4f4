#!/bin/bash
# Proves: the C library that the kernel's YNL generator (ynl-gen-c.py of
# Linux 6.12) makes from docs/netlink/specs/kstat.yaml, with the YNL C
# library (tools/net/ynl/lib), talks to kstat.ko: tests/ynl/kstat-ynl,
# built here by tests/ynl/Makefile (generation included; its own and the
# generated code without a warning), gets the CPU time of the sum and of
# one CPU, each value within two `kstat -j cpu show` readings; a GET dump
# whose IRQ runs give `kstat -j irq show`'s counts for a range of
# synthetic IRQs, then intr_sum and nr_irqs; a GET do with meta whose chip
# and action names are kstat's (the multi-attr string "action" needs
# scripts/ynl-gen-c-multi-attr-string.patch, applied by
# scripts/ynl-tree.sh to 6.12's generator); and one sample, of a
# subscription and of the default stream, read whole from its own
# messages, with every IRQ a GET lists and the synthetic IRQs' counts.
# The kstat.ko paths it drives, dump.sh, bracket.sh and raw-sample.sh
# drive too.
# leave-out: userspace-only
# timeout: 600
source tests/lib.sh
require_cmd make cc python3 jq
require_py_package yaml python3-yaml
require_kstat

YNL=$KSTAT_ROOT/build/ynl/tools/net/ynl
if [[ ! -f $YNL/ynl-gen-c.py ]]; then
	[[ -e /usr/src/linux-source-6.12.tar.xz ]] ||
		t_skip "no /usr/src/linux-source-6.12.tar.xz (scripts/install-deps.sh installs it)"
	t_fail "no $YNL/ynl-gen-c.py: run scripts/install-deps.sh (or scripts/ynl-tree.sh) before booting the guest"
fi

t_log "generating and building kstat-ynl"
assert_ok make -s -C tests/ynl O="$TMPDIR" CFLAGS=-O1 WARN="-Wall -Werror"
BIN=$TMPDIR/kstat-ynl
t_log "built"

irqsim_load irqs=300
t_cleanup irqsim_unload
first=$(irqsim_irq 0)
last=$(irqsim_irq 299)
irqsim_fire 0 1 4
irqsim_fire 257 0 9

# in_between OLD NEW GOT: each of GOT's 10 values within OLD's and NEW's
# (kstat -j cpu show rows, one each).
in_between() {
	python3 - "$@" <<-'EOF'
	import json, sys
	old, new = json.loads(sys.argv[1]), json.loads(sys.argv[2])
	got = sys.argv[3].split()
	keys = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq',
	        'steal', 'guest', 'guest_nice']
	want = 'cpu %s' % ('total' if old['cpu'] is None else old['cpu'])
	if ' '.join(got[:2]) != want:
	    sys.exit(f'got {got[:2]}, expected {want}')
	for k, v in zip(keys, got[2:]):
	    if not old[k] <= int(v) <= new[k]:
	        sys.exit(f'{k}: {old[k]} <= {v} <= {new[k]} fails')
	if len(got) != 12:
	    sys.exit(f'{len(got) - 2} values')
	EOF
}
old=$("$KSTAT" -j cpu show total | jq -c '.[0]')
assert_ok "$BIN" cpu
new=$("$KSTAT" -j cpu show total | jq -c '.[0]')
in_between "$old" "$new" "$T_OUT" || t_fail "kstat-ynl cpu: not within kstat's: $T_OUT"
old=$("$KSTAT" -j cpu show 1 | jq -c '.[0]')
assert_ok "$BIN" cpu 1
new=$("$KSTAT" -j cpu show 1 | jq -c '.[0]')
row=$(grep '^cpu 1 ' <<<"$T_OUT") || t_fail "kstat-ynl cpu 1: no row of CPU 1: $T_OUT"
in_between "$old" "$new" "$row" || t_fail "kstat-ynl cpu 1: not within kstat's: $row"

assert_ok "$BIN" irqs "$first" "$last"
got=$T_OUT
want=$("$KSTAT" -j irq show "$first-$last" | jq -r '.[] | "\(.irq) \(.count)"')
[[ $(grep -v '^[a-z]' <<< "$got") == "$want" ]] ||
	t_fail "kstat-ynl irqs $first $last: differs from kstat irq show (<): $(diff <(echo "$want") <(grep -v '^[a-z]' <<< "$got") | head -n 4 | tr '\n' ' ')"
assert_eq 300 "$(grep -c '^[0-9]' <<< "$got")" "IRQs dumped"
assert_match "^$first 4$" "$got" "IRQ $first fired 4 times"
assert_match "^nr_irqs [0-9]+$" "$got" "the dump's nr_irqs"
assert_match "^intr_sum [0-9]+$" "$got" "the dump's intr_sum"

# irq-get do with meta: the actions, a multi-attr string the generated
# library parses only with scripts/ynl-gen-c-multi-attr-string.patch.
assert_ok "$BIN" irq "$first"
got=$T_OUT
want=$("$KSTAT" -j irq show "$first" | jq -r '.[0] | "irq \(.irq) \(.count)", "chip \(.chip)", (.actions[] | "action \(.)")')
assert_eq "$want" "$got" "kstat-ynl irq $first (meta): id, count, chip, actions as kstat irq show"
assert_match "^action kstat-sim-0$" "$got" "IRQ $first's action, parsed by the generated library"

# One sample, whole, from its own messages: a subscription's, the default
# stream's.  The synthetic IRQs are held still: their counts are kstat's.
tests/tools/irqdump 0 | awk '{ print $1 }' >"$TMPDIR/ids"
want=$("$KSTAT" -j irq show "$first-$last" | jq -r '.[] | "\(.irq) \(.count)"')
for arg in 250 ""; do
	assert_ok timeout "$(t_scaled 60)" "$BIN" sample $arg
	got=$T_OUT
	t_log "kstat-ynl sample ${arg:-(default stream)}: $(head -n 1 <<<"$got")"
	assert_match '^sample [0-9]+ parts [0-9]+ generation [0-9]+$' "$(head -n 1 <<<"$got")" "sample ${arg:-default}: its first line"
	assert_eq "$(cat "$TMPDIR/ids")" "$(awk '/^[0-9]/ { print $1 }' <<<"$got")" \
		"sample ${arg:-default}: the IRQs of a GET"
	assert_eq "$want" "$(awk -v f="$first" -v l="$last" '/^[0-9]/ && $1 >= f && $1 <= l' <<<"$got")" \
		"sample ${arg:-default}: the synthetic IRQs' counts"
	assert_match "^intr_sum [0-9]+$" "$got" "sample ${arg:-default}: intr_sum"
done
