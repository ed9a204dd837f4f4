#!/bin/bash
# Proves: without the module, the CLI says what to do and exits 1, for
# every command that needs the kernel; commands that don't (help, -V)
# still work.
# leave-out: userspace-only
source tests/lib.sh

kstat_unload
t_cleanup kstat_load

for cmd in "cpu show" "irq show" "softirq show" "stat" "interrupts"; do
	assert_exit 1 "$KSTAT" $cmd
	assert_eq "kstat: the kstat kernel module is not loaded (try: modprobe kstat)" \
		"$T_ERR" "error for 'kstat $cmd'"
done
assert_exit 0 "$KSTAT" -V
assert_exit 0 "$KSTAT" help
