#!/bin/bash
# Proves: a newer module is read unchanged (docs/protocol.md, "Versions":
# a client accepts every module of version 5 or later).  kstat.ko built
# as version 6 (kbuild with KSTAT_VERSION_BUMP=1: the same code, the
# family registered as version 6) is loaded in place of the stock one:
# generic netlink says version 6, and the CLI (GET of every section,
# config, stats, a subscription's samples), libkstat's GET
# (tests/tools/irqdump) and the kernel's YNL CLI (cli.py) read it as they
# read version 5, the synthetic IRQ's count exact in each.
# The module is built here, in the guest, against the running kernel's
# headers from a copy of kernel/ and include/ (build/v6/kernel/kstat.ko
# is taken instead when it is there and built for this kernel: the
# build here took 311 s under TCG, over 600 s on a loaded host).  Its
# kstat.ko paths are every test's: only the number differs.
# leave-out: userspace-only
# timeout: 900
source tests/lib.sh
require_cmd make gcc genl jq
t_cleanup kstat_load

ko=$KSTAT_ROOT/build/v6/kernel/kstat.ko
if [[ ! -f $ko || $(modinfo -F vermagic "$ko" | cut -d' ' -f1) != "$(uname -r)" ]]; then
	kdir=/lib/modules/$(uname -r)/build
	[[ -d $kdir ]] || t_skip "no headers for $(uname -r) in $kdir to build kstat.ko version 6"
	src=$TMPDIR/src
	mkdir -p "$src/kernel"
	cp kernel/*.c kernel/*.h kernel/Kbuild "$src/kernel/"
	rm -f "$src"/kernel/*.mod.c "$src"/kernel/*.gen.h
	cp -r include "$src/"
	t_log "building kstat.ko version 6 against $kdir"
	make -s -C "$kdir" M="$src/kernel" CONFIG_KSTAT=m KSTAT_VERSION_BUMP=1 \
		-j"$(nproc)" modules >"$TMPDIR/build.log" 2>&1 ||
		t_fail "building kstat.ko with KSTAT_VERSION_BUMP=1: $(grep -m 3 -i error "$TMPDIR/build.log")"
	ko=$src/kernel/kstat.ko
	t_log "built"
fi

irqsim_load irqs=4
t_cleanup irqsim_unload
irq=$(irqsim_irq 2)
irqsim_fire 2 1 17
kstat_unload
_t_insmod "$ko"
assert_match 'Version: 0x6\b' "$(genl ctrl get name kstat)" "the family's version"

# The CLI and libkstat.
for cmd in "cpu show" "softirq show" "config show" "stats"; do
	# shellcheck disable=SC2086
	assert_ok "$KSTAT" -j $cmd
done
assert_eq 17 "$("$KSTAT" -j irq show "$irq" | jq '.[0].count')" "kstat irq show $irq"
assert_ok "$KSTAT" stat
assert_ok timeout "$(t_scaled 30)" "$KSTAT" -j monitor interval 250ms sections irq count 3
assert_eq '[17,17,17]' "$(jq -s -c --argjson q "$irq" '[.[] | select(.seq != null) | .irq[] | select(.irq == $q) | .count]' <<<"$T_OUT")" \
	"IRQ $irq in a subscription's samples"
assert_match "^$irq 17\$" "$(tests/tools/irqdump 0 "$irq" "$irq")" "libkstat's GET of IRQ $irq"

# The kernel's YNL CLI, from the spec of version 5.
YNL=$KSTAT_ROOT/build/ynl/tools/net/ynl/cli.py
if [[ -f $YNL ]]; then
	out=$(python3 "$YNL" --spec docs/netlink/specs/kstat.yaml --no-schema --output-json \
		--do get --json "{\"sections\": 2, \"irq-list\": \"$(python3 -c "import struct; print(struct.pack('=I', $irq).hex())")\"}") ||
		t_fail "cli.py --do get: $out"
	assert_eq 17 "$(jq '.irqs[0].counts[0]' <<<"$out")" "IRQ $irq through cli.py"
else
	[[ ! -e /usr/src/linux-source-6.12.tar.xz ]] ||
		t_fail "no $YNL: run scripts/install-deps.sh (or scripts/ynl-tree.sh) before booting the guest"
	t_log "NOT CHECKED: YNL's cli.py (no linux-source-6.12; scripts/install-deps.sh installs it)"
fi
