#!/bin/bash
# Proves: the kernel's own YNL CLI (tools/net/ynl/cli.py of Debian's
# linux-source-6.12, unpacked into build/ynl by scripts/install-deps.sh)
# scripts the whole family from docs/netlink/specs/kstat.yaml, which
# validates against that tree's schema, and its numbers are kstat's:
#  - every op: GET of CPU time (the sum, every CPU) bracketed by `kstat -j
#    cpu show`; of an IRQ with its per-CPU record, chip and actions; a
#    range dump's and a list dump's IRQ runs; arch rows, the intr sum and
#    nr_irqs; softirq vectors; the config; the producer's stats;
#  - CONFIG_SET as root changes what `kstat config show` says; uid 65534
#    is refused with EPERM (genetlink's core refuses it before kstat's
#    handler runs: no extended ACK there), the config unchanged; an
#    interval below 10 ms or above 60 s is refused with kstat's message
#    and the attribute path; SUBSCRIBE without joining names what to do;
#  - `--subscribe summary` prints each sample whole (issue 38): with 4096
#    synthetic IRQs (a sample in two parts) every sample cli.py printed
#    has every IRQ's count, the IRQ set of a GET dump, read from its own
#    messages alone (tests/helpers/ynl_stream.py samples), and agrees with
#    `kstat -j monitor`'s sample of the same seq on every IRQ, CPU row,
#    softirq and the intr sum (ynl_stream.py compare).
# The kstat.ko code it drives, dump.sh, privilege.sh and raw-sample.sh
# drive too, on every kernel: what it adds is cli.py, a client, so the
# other kernels' runs and CI's debug stage leave it out (170 s on each of
# rt and 6.12 in a CI rehearsal).
# leave-out: userspace-only
# timeout: 600
source tests/lib.sh
require_cmd jq setpriv python3
require_py_package yaml python3-yaml
require_py_package jsonschema python3-jsonschema
require_kstat

YNL=$KSTAT_ROOT/build/ynl
if [[ ! -f $YNL/tools/net/ynl/cli.py ]]; then
	[[ -e /usr/src/linux-source-6.12.tar.xz ]] ||
		t_skip "no /usr/src/linux-source-6.12.tar.xz (scripts/install-deps.sh installs it)"
	t_fail "no $YNL/tools/net/ynl/cli.py: run scripts/install-deps.sh (or scripts/ynl-tree.sh) before booting the guest"
fi
SPEC=$KSTAT_ROOT/docs/netlink/specs/kstat.yaml
NOCAPS=(--reuid 65534 --regid 65534 --clear-groups --inh-caps=-all --bounding-set=-all)
t_cleanup config_reset

# ynl ARGS...: cli.py, JSON out, no schema (validated once, below).
ynl() { python3 "$YNL/tools/net/ynl/cli.py" --spec "$SPEC" --no-schema --output-json "$@"; }

# The spec validates against the 6.12 tree's own schema, and lists the ops.
assert_ok python3 "$YNL/tools/net/ynl/cli.py" --spec "$SPEC" \
	--schema "$YNL/Documentation/netlink/genetlink-legacy.yaml" --list-ops
for op in get config-get config-set stats-get subscribe unsubscribe; do
	assert_match "^$op " "$T_OUT" "cli.py --list-ops"
done

# 4096: a sample of the irq section then takes two parts.
irqsim_load irqs=4096
t_cleanup irqsim_unload
irq0=$(irqsim_irq 0)
irq1=$(irqsim_irq 1)
irqsim_fire 0 0 7
irqsim_fire 0 1 5
irqsim_fire 1 1 3
irqlast=$(irqsim_irq 2047)

# ---- CPU time: each value within two `kstat -j cpu show` readings -------
t_log "CPU time"
# bracket OLD YNL NEW: every row of YNL (cli.py's cpu nests, "id" absent
# for the sum) between OLD's and NEW's of the same CPU (kstat's rows,
# "cpu" null for the sum)
bracket() {
	python3 - "$@" <<-'EOF'
	import json, sys
	old, got, new = (json.loads(a) for a in sys.argv[1:])
	old = {r['cpu']: r for r in old}
	new = {r['cpu']: r for r in new}
	fields = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq',
	          'steal', 'guest', 'guest-nice']
	if sorted(old, key=str) != sorted((g.get('id') for g in got), key=str):
	    sys.exit(f"rows {sorted(old, key=str)}, cli.py has {[g.get('id') for g in got]}")
	for g in got:
	    c = g.get('id')
	    for f in fields:
	        k = f.replace('-', '_')
	        if not old[c][k] <= g[f] <= new[c][k]:
	            sys.exit(f"CPU {c} {f}: {old[c][k]} <= {g[f]} <= {new[c][k]} fails")
	EOF
}
# kstat_cpu ARG: `kstat -j cpu show` of the total ("total") or of every CPU
# and the total (""), one JSON array
kstat_cpu() {
	if [[ $1 == total ]]; then
		"$KSTAT" -j cpu show total
	else
		{ "$KSTAT" -j cpu show; "$KSTAT" -j cpu show total; } | jq -s -c 'add | unique_by(.cpu)'
	fi
}
check_cpu() {	# WHAT KSTAT_ARG JSON
	local old new
	old=$(kstat_cpu "$2")
	assert_ok ynl --do get --json "$3"
	new=$(kstat_cpu "$2")
	bracket "$old" "$(jq -c '.cpu' <<< "$T_OUT")" "$new" ||
		t_fail "$1: cli.py's CPU time is not within kstat's"
}
check_cpu "get do, sections cpu (the sum)" total '{"sections": 1}'
check_cpu "get do, sections cpu, percpu (the sum and every CPU)" "" '{"sections": 1, "flags": 1}'
assert_exit 1 ynl --do get --json '{"sections": 1, "flags": 1, "cpu-first": 0, "cpu-last": 4096}'
assert_match "'msg': 'CPU out of range'" "$T_OUT" "get do of an impossible CPU: the extack"

# ---- IRQs -------------------------------------------------------------------
t_log "IRQs"
assert_ok ynl --do get --json "{\"sections\": 2, \"flags\": 3, \"irq-first\": $irq0, \"irq-last\": $irq0}"
got=$T_OUT
want=$("$KSTAT" -j irq show "$irq0" percpu | jq -c '.[0]')
assert_eq "$(jq -c '[.irq, .count, .chip, .actions]' <<< "$want")" \
	"$(jq -c '[.irqs[0].ids[0], .irqs[0].counts[0], .irq[0].chip, .irq[0].action]' <<< "$got")" \
	"get do of IRQ $irq0 with meta: id, count, chip, actions"
assert_eq 12 "$(jq '.irqs[0].counts[0]' <<< "$got")" "IRQ $irq0 fired 7 + 5 times"
# Its per-CPU record: a header word h, then h >> 1 words, dense (h & 1) or
# (index, count) pairs.
percpu=$(jq -c '.irqs[0].cpus' <<< "$got" | python3 -c '
import json, sys
w = json.load(sys.stdin); h = w[0]; body = w[1:1 + (h >> 1)]
d = dict(enumerate(body)) if h & 1 else dict(zip(body[0::2], body[1::2]))
print(json.dumps([d.get(c, 0) for c in range(2)], separators=(",", ":")))')
assert_eq "[7,5]" "$percpu" "IRQ $irq0's per-CPU record, decoded"

# A range dump: IRQ runs (ids, 64-bit counts), at most 256 IRQs each.
assert_ok ynl --dump get --json "{\"sections\": 2, \"irq-first\": $irq0, \"irq-last\": $irqlast}"
ynl_counts=$(python3 -c '
import json, sys
out = []
for msg in json.load(sys.stdin):
    for run in msg.get("irqs", []):
        assert len(run["ids"]) == len(run["counts"]) <= 256, (len(run["ids"]), len(run["counts"]))
        out += [[i, c] for i, c in zip(run["ids"], run["counts"])]
print("\n".join(json.dumps(x, separators=(",", ":")) for x in out))' <<< "$T_OUT")
kstat_counts=$("$KSTAT" -j irq show "$irq0-$irqlast" | jq -c '.[] | [.irq, .count]')
[[ $kstat_counts == "$ynl_counts" ]] ||
	t_fail "get dump of $irq0-$irqlast: [IRQ, count] differ from kstat irq show's (<) at: $(diff <(echo "$kstat_counts") <(echo "$ynl_counts") | head -n 4 | tr '\n' ' ')"
assert_eq 2048 "$(wc -l <<< "$ynl_counts")" "IRQs in the range dump"
assert_eq true "$(jq '[.[] | select(has("intr-sum") and has("nr-irqs"))] | length == 1' <<< "$T_OUT")" \
	"the dump carries intr-sum and nr-irqs once"
arch=$(jq -c '[.[].arch // empty | .[].name]' <<< "$T_OUT")
rows=$("$KSTAT" interrupts 2>/dev/null | awk '$1 ~ /^[A-Z][A-Z0-9]*:$/ { sub(":", "", $1); print $1 }' | jq -R -s -c 'split("\n")[:-1]')
assert_eq "[]" "$(jq -c -n --argjson rows "$rows" --argjson arch "$arch" '$rows - $arch')" \
	"arch rows of kstat interrupts missing from the dump ($arch)"

# A list dump: irq-list is __u32[] in host byte order (cli.py takes hex);
# the IRQs come in ascending order.
list=$(python3 -c "import struct; print(struct.pack('=2I', $irq1, $irq0).hex())")
assert_ok ynl --dump get --json "{\"sections\": 2, \"irq-list\": \"$list\"}"
assert_eq "[[$irq0,$irq1],[12,3]]" "$(jq -c '[.[].irqs // empty | .[]] | [map(.ids[]), map(.counts[])]' <<< "$T_OUT")" \
	"get dump of the list $irq1 $irq0: ids and counts, ascending"

# ---- softirq, config, stats ---------------------------------------------
t_log "softirq, config, stats"
assert_ok ynl --do get --json '{"sections": 4, "flags": 1}'
assert_eq "$("$KSTAT" -j softirq show | jq -c '[.[].name]')" \
	"$(jq -c '[.softirq[].name]' <<< "$T_OUT")" "get softirq: the vectors"
assert_eq "[0,1,2,3,4,5,6,7,8,9]" "$(jq -c '[.softirq[].vec]' <<< "$T_OUT")" "get softirq: vector numbers"
assert_eq "$("$KSTAT" -j softirq show | jq length)" \
	"$(jq '[.softirq[] | select(has("percpu"))] | length' <<< "$T_OUT")" "get softirq percpu: per-CPU records"

# cli.py's config-get and kstat's config show, in one shape
config_ynl() {
	ynl --do config-get | jq -c '[.config."interval-ms", .config.batch, (.config.sections | sort),
		.config.percpu, .config.netns, .limits."min-interval-ms", .limits."max-subscriptions"]'
}
config_kstat() {
	"$KSTAT" -j config show | jq -c '[.interval_ms, .batch, (.sections | sort),
		(if .percpu then 1 else 0 end), (if .netns then 1 else 0 end),
		.limits.min_interval_ms, .limits.max_subscriptions]'
}
assert_eq "$(config_kstat)" "$(config_ynl)" "config-get"
assert_ok ynl --do stats-get
for key in ticks tick-ns-total tick-ns-max samples messages bytes delivery-failures \
	alloc-failures running listening subscriptions interval-ms generation; do
	assert_eq number "$(jq -r ".stats.\"$key\" | type" <<< "$T_OUT")" "stats-get $key"
done

# ---- CONFIG_SET: as root, refused for uid 65534, refused out of range -------
t_log "CONFIG_SET"
assert_ok ynl --do config-set --json '{"config": {"interval-ms": 250, "batch": 2, "sections": 7, "percpu": 0}, "limits": {"max-subscriptions": 32}}'
assert_eq '[250,2,["cpu","irq","softirq"],0,0,250,32]' "$(config_kstat)" "config-set as root, seen by kstat config show"
before=$(config_kstat)
assert_exit 1 setpriv "${NOCAPS[@]}" -- python3 "$YNL/tools/net/ynl/cli.py" --spec "$SPEC" --no-schema \
	--do config-set --json '{"config": {"batch": 3}}'
assert_match "Netlink error: Operation not permitted" "$T_OUT" "config-set as uid 65534"
assert_match "error: -1$" "$T_OUT" "config-set as uid 65534: EPERM"
assert_eq "$before" "$(config_kstat)" "the config after uid 65534's config-set"
assert_exit 1 ynl --do config-set --json '{"config": {"interval-ms": 5}}'
assert_match "error: -22$" "$T_OUT" "config-set interval 5: EINVAL"
assert_match "'msg': 'interval below 10 ms'" "$T_OUT" "config-set interval 5: the extack"
assert_match "'bad-attr': '.config.interval-ms'" "$T_OUT" "config-set interval 5: the attribute"
assert_exit 1 ynl --do config-set --json '{"config": {"interval-ms": 60001}}'
assert_match "error: -34$" "$T_OUT" "config-set interval 60001: ERANGE"
assert_match "'msg': 'interval above 60000 ms'" "$T_OUT" "config-set interval 60001: the extack"
assert_exit 1 ynl --do subscribe
assert_match "error: -107$" "$T_OUT" "subscribe without joining: ENOTCONN"
assert_match "'msg': 'join the summary group first" "$T_OUT" "subscribe without joining: the extack"

# ---- --subscribe summary: every sample whole, and kstat monitor's -------
t_log "the multicast stream"
"$KSTAT" config set interval 250 batch 1 sections all percpu off
"$KSTAT" -j monitor > "$TMPDIR/monitor.jsonl" 2> "$TMPDIR/monitor.err" &
mon=$!
t_cleanup t_kill "$mon"
monitor_wait 10 "$TMPDIR/monitor.jsonl" 2
# Counts that move meanwhile.
(while [[ ! -e $TMPDIR/stop ]]; do irqsim_fire 0 1 3; irqsim_fire 1 0 2; sleep 0.2; done) &
fire=$!
t_cleanup t_kill "$fire"
ynl --dump get --json '{"sections": 2}' > "$TMPDIR/dump.json" || t_fail "cli.py --dump get failed"
# cli.py reads its socket only after --sleep, and has no option for its
# receive buffer: the default one (208 KiB) holds about 2 of these samples
# (two parts of up to 32 KiB each), and the twelfth would end cli.py with
# ENOBUFS.  The new socket takes net.core.rmem_default: room for 3 s.
rmem=$(sysctl -n net.core.rmem_default)
t_cleanup sysctl -qw "net.core.rmem_default=$rmem"
sysctl -qw net.core.rmem_default=$((8 << 20))
assert_ok ynl --subscribe summary --sleep 3
sysctl -qw "net.core.rmem_default=$rmem"
echo "$T_OUT" > "$TMPDIR/stream.json"
touch "$TMPDIR/stop"
wait "$fire" || true
monitor_wait 10 "$TMPDIR/monitor.jsonl" "$(($(monitor_count "$TMPDIR/monitor.jsonl") + 1))"
t_term "$mon" 5
out=$(python3 tests/helpers/ynl_stream.py samples "$TMPDIR/stream.json" "$TMPDIR/dump.json") ||
	t_fail "the samples cli.py printed are not whole: see above"
t_log "cli.py's samples: $out"
read -r _ samples _ multi _ irqs _ _ _ _ <<< "$out"
nirqs=$(tests/tools/irqdump 0 | wc -l)
((samples >= 3)) || t_fail "only $samples whole samples in 3 s at 250 ms"
((multi >= 1)) || t_fail "no sample in several parts (4096 IRQs should need two)"
assert_eq "$nirqs" "$irqs" "IRQs in each sample vs a GET's"
out=$(python3 tests/helpers/ynl_stream.py compare "$TMPDIR/stream.json" "$TMPDIR/monitor.jsonl") ||
	t_fail "cli.py's samples disagree with kstat monitor's: see above"
t_log "against kstat monitor: $out"
read -r _ _ _ common <<< "$out"
((common >= 2)) || t_fail "only $common samples compared with kstat monitor's"
