#!/bin/bash
# Proves: the kernel's own YNL CLI (tools/net/ynl/cli.py of Debian's
# linux-source-6.12, unpacked into build/ynl by scripts/install-deps.sh)
# scripts the whole family from docs/netlink/specs/kstat.yaml, which
# validates against that tree's schema, and its numbers are kstat's:
#  - every do and dump: CPU time (one CPU, the sum, every CPU) bracketed
#    by `kstat -j cpu show`; an IRQ with its per-CPU counts, chip and
#    actions; a range dump's packed chunks and a list dump's; arch rows;
#    softirq vectors; the config; the producer's stats;
#  - CONFIG_SET as root changes what `kstat config show` says; uid 65534
#    is refused with EPERM (genetlink's core refuses it before kstat's
#    handler runs: no extended ACK there), the config unchanged; an
#    interval below the floor or above the ceiling is refused with kstat's
#    message (both checked in code) and the attribute path; SUBSCRIBE
#    without joining names what to do;
#  - `--subscribe summary --do subscribe` with the producer idle answers
#    with one snapshot keyframe whose IRQ totals are `kstat -j irq show`'s
#    (cli.py of 6.12 fails with "'NoneType' object has no attribute
#    'attr_set'" on a notification that reaches its socket before the
#    ACK, as the first sample's multicast did);
#  - the multicast stream read by cli.py (keyframes in two parts, deltas
#    with IRQ increments) rebuilds, sample by sample, the IRQ, CPU time,
#    softirq and intr totals `kstat -j monitor` printed for the same seq.
# The kstat.ko code it drives, summary-join.sh (SUBSCRIBE starting the
# producer), privilege.sh and dump.sh drive too.
# leave-out: kernel-paths-covered
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
# one_line JSON: compact, for comparisons
one_line() { jq -c . <<< "$1"; }

# The spec validates against the 6.12 tree's own schema, and lists the ops.
assert_ok python3 "$YNL/tools/net/ynl/cli.py" --spec "$SPEC" \
	--schema "$YNL/Documentation/netlink/genetlink-legacy.yaml" --list-ops
for op in cpu-get irq-get softirq-get config-get config-set stats-get subscribe; do
	assert_match "^$op " "$T_OUT" "cli.py --list-ops"
done

# 4096: a keyframe's IRQ totals, 32-bit where they fit (version 4), then
# need two 16 KiB parts, for the multi-part check of the stream below.
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
# bracket OLD YNL NEW: every field of YNL between OLD's and NEW's
bracket() {
	python3 - "$@" <<-'EOF'
	import json, sys
	old, got, new = (json.loads(a) for a in sys.argv[1:])
	fields = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq',
	          'steal', 'guest', 'guest-nice']
	for o, g, n in zip(old, got, new):
	    if o['cpu'] != g.get('id'):
	        sys.exit(f"CPU {o['cpu']}: cli.py has id {g.get('id')}")
	    for f in fields:
	        k = f.replace('-', '_')
	        if not o[k] <= g[f] <= n[k]:
	            sys.exit(f"CPU {o['cpu']} {f}: {o[k]} <= {g[f]} <= {n[k]} fails")
	if not len(old) == len(got) == len(new):
	    sys.exit(f'{len(old)}, {len(got)}, {len(new)} rows')
	EOF
}
# check_cpu WHAT KSTAT_ARG CLI_ARGS...: kstat -j cpu show KSTAT_ARG (the
# CPUs only, with "cpus"), cli.py, kstat again.
check_cpu() {
	local what=$1 karg=$2 old new sel='.'
	shift 2
	if [[ $karg == cpus ]]; then
		karg= sel='map(select(.cpu != null))'
	fi
	old=$("$KSTAT" -j cpu show $karg | jq -c "$sel")
	assert_ok ynl "$@"
	new=$("$KSTAT" -j cpu show $karg | jq -c "$sel")
	bracket "$old" "$(jq -c 'if type == "array" then [.[].cpu[]] else .cpu end' <<< "$T_OUT")" "$new" ||
		t_fail "$what: cli.py's CPU time is not within kstat's"
}
check_cpu "cpu-get do (the sum)" total --do cpu-get
check_cpu "cpu-get do sel-cpu 1" 1 --do cpu-get --json '{"sel-cpu": 1}'
check_cpu "cpu-get dump" cpus --dump cpu-get
assert_ok ynl --do cpu-get --json '{"sel-flags": 1}'
assert_eq "$({ "$KSTAT" -j cpu show; "$KSTAT" -j cpu show total; } | jq -s -c '[.[][].cpu]')" \
	"$(jq -c '[.cpu[].id]' <<< "$T_OUT")" "cpu-get do percpu: the CPUs, then the sum"
assert_exit 1 ynl --do cpu-get --json '{"sel-cpu": 4096}'
assert_match "'msg': 'CPU out of range'" "$T_OUT" "cpu-get do of an impossible CPU: the extack"

# ---- IRQs -------------------------------------------------------------------
t_log "IRQs"
assert_ok ynl --do irq-get --json "{\"sel-irq\": $irq0, \"sel-flags\": 3}"
got=$T_OUT
want=$("$KSTAT" -j irq show "$irq0" percpu | jq -c '.[0]')
assert_eq "$(jq -c '[.irq, .count, .chip, .actions, .percpu]' <<< "$want")" \
	"$(jq -c '.irq[0] | [.id, .count, .chip, .action, .percpu]' <<< "$got")" \
	"irq-get do $irq0 percpu meta: id, count, chip, actions, per-CPU"
assert_eq 12 "$(jq '.irq[0].count' <<< "$got")" "IRQ $irq0 fired 7 + 5 times"

# A range dump: packed chunks (first, present, counts32: a dump's counts
# are the kernel's 32-bit totals), at most 256 IRQs each.
assert_ok ynl --dump irq-get --json "{\"sel-irq-first\": $irq0, \"sel-irq-last\": $irqlast}"
ynl_counts=$(python3 -c '
import json, sys
out = {}
for msg in json.load(sys.stdin):
    for c in msg.get("irqs", []):
        raw = bytes.fromhex(c["present"])
        ids = [c["first"] + i for i in range(len(raw) * 8) if raw[i // 8] >> (i % 8) & 1]
        assert "counts" not in c, "a dump chunk with 64-bit counts"
        assert len(ids) == len(c["counts32"]) <= 256, (len(ids), len(c["counts32"]))
        out.update(zip(ids, c["counts32"]))
print(json.dumps(sorted(out.items())))' <<< "$T_OUT" | jq -c '.[]')
kstat_counts=$("$KSTAT" -j irq show "$irq0-$irqlast" | jq -c '.[] | [.irq, .count]')
[[ $kstat_counts == "$ynl_counts" ]] ||
	t_fail "irq-get dump of $irq0-$irqlast: [IRQ, count] differ from kstat irq show's (<) at: $(diff <(echo "$kstat_counts") <(echo "$ynl_counts") | head -n 4 | tr '\n' ' ')"
assert_eq 2048 "$(wc -l <<< "$ynl_counts")" "IRQs in the range dump"

# A list dump: sel-irq-list is __u32[] in host byte order (cli.py takes hex).
list=$(python3 -c "import struct, sys; print(struct.pack('=2I', $irq1, $irq0).hex())")
assert_ok ynl --dump irq-get --json "{\"sel-irq-list\": \"$list\"}"
assert_eq "[[$irq1,$irq0],[3,12]]" "$(jq -c '[.[].irqs // empty | .[]] | [map(.ids[]), map(.counts32[])]' <<< "$T_OUT")" \
	"irq-get dump of the list $irq1 $irq0: ids and counts, in the order listed"

# The meta and arch flags: irq nests, arch rows, the last message's totals.
assert_ok ynl --dump irq-get --json "{\"sel-irq-first\": $irq0, \"sel-irq-last\": $irq1, \"sel-flags\": 6}"
got=$T_OUT
assert_eq "[\"kstat-sim-0\",\"kstat-sim-1\"]" "$(jq -c '[.[].irq // empty | .[].action[]]' <<< "$got")" \
	"irq-get dump with meta: the actions"
# kstat interrupts prints the rows /proc/interrupts prints: some of them.
rows=$("$KSTAT" interrupts | awk '$1 ~ /^[A-Z][A-Z0-9]*:$/ { sub(":", "", $1); print $1 }' | jq -R -s -c 'split("\n")[:-1]')
assert_eq "[]" "$(jq -c --argjson rows "$rows" '$rows - [.[].arch // empty | .[].name]' <<< "$got")" \
	"irq-get dump with arch: rows of kstat interrupts ($rows) missing"
assert_eq true "$(jq '.[-1] | has("intr-sum") and has("nr-irqs") and has("online-cpus")' <<< "$got")" \
	"the dump's last message carries intr-sum, nr-irqs, online-cpus"

# ---- softirq, config, stats ---------------------------------------------
t_log "softirq, config, stats"
assert_ok ynl --do softirq-get --json '{"sel-flags": 1}'
assert_eq "$("$KSTAT" -j softirq show | jq -c '[.[].name]')" \
	"$(jq -c '[.softirq[].name]' <<< "$T_OUT")" "softirq-get: the vectors"
assert_eq "[0,1,2,3,4,5,6,7,8,9]" "$(jq -c '[.softirq[].vec]' <<< "$T_OUT")" "softirq-get: vector numbers"
assert_eq "$("$KSTAT" -j softirq show | jq length)" \
	"$(jq '[.softirq[] | select(.percpu | length > 0)] | length' <<< "$T_OUT")" "softirq-get percpu: per-CPU arrays"

# config_pair: cli.py's config-get and kstat's config show, in one shape
config_ynl() {
	ynl --do config-get | jq -c '.config | [."interval-ms", .batch, .keyframe, (.sections | sort), .percpu]'
}
config_kstat() {
	"$KSTAT" -j config show | jq -c '[.interval_ms, .batch, .keyframe, (.sections | sort), (if .percpu then 1 else 0 end)]'
}
assert_eq "$(config_kstat)" "$(config_ynl)" "config-get"
assert_ok ynl --do stats-get
for key in samples summaries messages delivery-failures alloc-failures listening running \
	build-ns-last build-ns-max keyframe-bytes delta-bytes generation build-ns-total \
	ticks tick-ns-total; do
	assert_eq number "$(jq -r ".stats.\"$key\" | type" <<< "$T_OUT")" "stats-get $key"
done

# ---- CONFIG_SET: as root, refused for uid 65534, refused out of range -------
t_log "CONFIG_SET"
assert_ok ynl --do config-set --json '{"config": {"interval-ms": 250, "batch": 1, "keyframe": 3, "sections": 7, "percpu": 0}}'
assert_eq '[250,1,3,["cpu","irq","softirq"],0]' "$(config_kstat)" "config-set as root, seen by kstat config show"
before=$(config_kstat)
assert_exit 1 setpriv "${NOCAPS[@]}" -- python3 "$YNL/tools/net/ynl/cli.py" --spec "$SPEC" --no-schema \
	--do config-set --json '{"config": {"batch": 2}}'
assert_match "Netlink error: Operation not permitted" "$T_OUT" "config-set as uid 65534"
assert_match "error: -1$" "$T_OUT" "config-set as uid 65534: EPERM"
assert_eq "$before" "$(config_kstat)" "the config after uid 65534's config-set"
assert_exit 1 ynl --do config-set --json '{"config": {"interval-ms": 5}}'
assert_match "error: -22$" "$T_OUT" "config-set interval 5: EINVAL"
assert_match "'msg': 'interval below the 10 ms minimum'" "$T_OUT" "config-set interval 5: the extack"
assert_match "'bad-attr': '.config.interval-ms'" "$T_OUT" "config-set interval 5: the attribute"
# The ceiling is checked in code too (6.12's generator makes no policy of
# it that 6.1 takes): its own words, not the policy's.
assert_exit 1 ynl --do config-set --json '{"config": {"interval-ms": 60001}}'
assert_match "error: -34$" "$T_OUT" "config-set interval 60001: ERANGE"
assert_match "'msg': 'interval above the 60000 ms maximum'" "$T_OUT" "config-set interval 60001: the extack"
# No listener may be left in the namespace, or SUBSCRIBE is taken.
nobody_listens() { "$KSTAT" -j stats | jq -e '.listening == false' > /dev/null; }
wait_until 10 nobody_listens
assert_exit 1 ynl --do subscribe
assert_match "'msg': 'join the \"summary\" multicast group first'" "$T_OUT" "subscribe without joining: the extack"

# ---- SUBSCRIBE: the answer is a snapshot, and nothing before the ACK --------
t_log "SUBSCRIBE"
wait_until 5 bash -c '"$KSTAT" -j stats | jq -e ".running == false or .running == 0" > /dev/null' ||
	t_fail "the producer still runs with no subscriber"
"$KSTAT" config set interval 250 batch 1 keyframe 3
ynl --subscribe summary --do subscribe > "$TMPDIR/snapshot.json" 2> "$TMPDIR/snapshot.err" ||
	t_fail "cli.py --subscribe summary --do subscribe: $(tail -n 1 "$TMPDIR/snapshot.err")"
[[ $(head -n 1 "$TMPDIR/snapshot.json") == null ]] || t_fail "subscribe: a reply other than its snapshot: $(head -c 200 "$TMPDIR/snapshot.json")"
want0=$("$KSTAT" -j irq show "$irq0" | jq '.[0].count')
want1=$("$KSTAT" -j irq show "$irq1" | jq '.[0].count')
out=$(python3 tests/helpers/ynl_stream.py snapshot "$TMPDIR/snapshot.json" "$irq0=$want0" "$irq1=$want1") ||
	t_fail "subscribe's snapshot, as cli.py decoded it: see above"
t_log "snapshot: $out"

# ---- the multicast stream against kstat monitor's samples ---------------
t_log "the multicast stream"
"$KSTAT" -j monitor > "$TMPDIR/monitor.jsonl" 2> "$TMPDIR/monitor.err" &
mon=$!
t_cleanup t_kill "$mon"
monitor_wait 10 "$TMPDIR/monitor.jsonl" 1
# IRQ increments in the deltas: fire until cli.py is done.
(while [[ ! -e $TMPDIR/stop ]]; do irqsim_fire 0 1 3; irqsim_fire 1 0 2; sleep 0.2; done) &
fire=$!
t_cleanup t_kill "$fire"
assert_ok ynl --subscribe summary --sleep 2
echo "$T_OUT" > "$TMPDIR/stream.json"
touch "$TMPDIR/stop"
wait "$fire" || true
monitor_wait 10 "$TMPDIR/monitor.jsonl" "$(($(monitor_count "$TMPDIR/monitor.jsonl") + 1))"
t_term "$mon" 5
out=$(python3 tests/helpers/ynl_stream.py stream "$TMPDIR/stream.json" "$TMPDIR/monitor.jsonl") ||
	t_fail "the stream cli.py decoded disagrees with kstat monitor: see above"
t_log "stream: $out"
read -r _ samples _ keys _ deltas _ multi _ common _ incs <<< "$out"
((keys >= 1 && deltas >= 1)) || t_fail "stream: $keys keyframes and $deltas deltas decoded, expected some of each"
((multi >= 1)) || t_fail "stream: no batch in several parts (4096 IRQs should need two)"
((common >= 3)) || t_fail "stream: only $common samples compared with kstat monitor's"
((incs > 0)) || t_fail "stream: no IRQ increment decoded (IRQs fired meanwhile)"
