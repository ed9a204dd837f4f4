#!/bin/bash
# Proves: kstat.ko loads and unloads cleanly 20 times in a row; while it is
# loaded, generic netlink lists the family "kstat", version 5 (the base of
# protocol 5: docs/protocol.md, "Versions"), with the
# multicast group "summary"; once unloaded, the family is gone.  (The
# harness fails the test on any kernel complaint in dmesg.)
source tests/lib.sh
require_cmd genl

kstat_unload
for i in $(seq 20); do
	kstat_load
	kstat_unload
done

kstat_load
out=$(genl ctrl get name kstat)
assert_match 'Name: kstat' "$out" "family name in 'genl ctrl get'"
assert_match 'Version: 0x5\b' "$out" "family version"
assert_match 'name: summary' "$out" "multicast group"

kstat_unload
assert_fail genl ctrl get name kstat
