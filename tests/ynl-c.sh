#!/bin/bash
# Proves: the C library that the kernel's YNL generator (ynl-gen-c.py of
# Linux 6.12) makes from docs/netlink/specs/kstat.yaml, with the YNL C
# library (tools/net/ynl/lib), talks to kstat.ko: tests/ynl/kstat-ynl,
# built here by tests/ynl/Makefile (generation included; its own and the
# generated code without a warning),
# gets cpu-get for one CPU and for the sum, each value within two
# `kstat -j cpu show` readings, an irq-get dump of a range of synthetic
# IRQs with `kstat -j irq show`'s counts, then nr_irqs, and an irq-get do
# with the meta flag whose chip and action names are kstat's.  The library
# is generated from the spec in place, its multi-attr string "action"
# included (scripts/ynl-gen-c-multi-attr-string.patch, applied by
# scripts/ynl-tree.sh to 6.12's generator).
# The kstat.ko paths it drives, dump.sh and bracket.sh drive too.
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
for sel in 1 total; do
	old=$("$KSTAT" -j cpu show "$sel" | jq -c '.[0]')
	arg=$sel
	[[ $sel == total ]] && arg=
	assert_ok "$BIN" cpu $arg
	new=$("$KSTAT" -j cpu show "$sel" | jq -c '.[0]')
	in_between "$old" "$new" "$T_OUT" || t_fail "kstat-ynl cpu $arg: not within kstat's: $T_OUT"
done

assert_ok "$BIN" irqs "$first" "$last"
got=$T_OUT
want=$("$KSTAT" -j irq show "$first-$last" | jq -r '.[] | "\(.irq) \(.count)"')
[[ $(grep -v '^[a-z]' <<< "$got") == "$want" ]] ||
	t_fail "kstat-ynl irqs $first $last: differs from kstat irq show (<): $(diff <(echo "$want") <(grep -v '^[a-z]' <<< "$got") | head -n 4 | tr '\n' ' ')"
assert_eq 300 "$(grep -c '^[0-9]' <<< "$got")" "IRQs dumped"
assert_match "^$first 4$" "$got" "IRQ $first fired 4 times"
assert_match "^nr_irqs [0-9]+$" "$got" "the dump's last message: nr_irqs"
assert_match "^intr_sum [0-9]+$" "$got" "the dump's last message: intr_sum"

# irq-get do with meta: the actions, a multi-attr string the generated
# library parses only with scripts/ynl-gen-c-multi-attr-string.patch.
assert_ok "$BIN" irq "$first"
got=$T_OUT
want=$("$KSTAT" -j irq show "$first" | jq -r '.[0] | "irq \(.irq) \(.count)", "chip \(.chip)", (.actions[] | "action \(.)")')
assert_eq "$want" "$got" "kstat-ynl irq $first (meta): id, count, chip, actions as kstat irq show"
assert_match "^action kstat-sim-0$" "$got" "IRQ $first's action, parsed by the generated library"
