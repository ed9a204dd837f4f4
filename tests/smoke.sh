#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proves the guest is what the harness promises (docs/testing.md): the
# kernel we meant to boot, a read-only / that is this machine's, writable
# scratch space, debugfs, the documented environment, stdin from /dev/null,
# a process group of its own, and kstat.ko loaded when it is built.
source tests/lib.sh

if [[ -n ${KSTAT_GUEST_KVER:-} ]]; then
	assert_eq "$KSTAT_GUEST_KVER" "$(uname -r)" "kernel release"
fi
t_log "kernel $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs"

# The host's / over 9p, read-only, with the repository at the same path.
assert_eq "$KSTAT_ROOT" "$PWD" "working directory"
[[ -f $KSTAT_ROOT/tests/lib.sh ]] || t_fail "$KSTAT_ROOT is not the repository"
assert_fail touch /kstat-smoke-test
assert_match 'Read-only file system' "$T_ERR" "touching a file in /"
assert_match '^hostroot / 9p ro[, ]' "$(< /proc/mounts)" "root mount"

# Scratch space: a fresh, empty, writable TMPDIR under /tmp.
assert_match '^/tmp/' "$TMPDIR" "TMPDIR"
assert_eq "" "$(ls -A "$TMPDIR")" "contents of the fresh TMPDIR"
echo data > "$TMPDIR/f"
assert_eq data "$(< "$TMPDIR/f")" "file written in TMPDIR"
for d in /tmp /var/tmp /run; do
	assert_ok touch "$d/kstat-smoke.$$"
	rm -f "$d/kstat-smoke.$$"
done

# File systems and kernel interfaces the tests use.
mounts=$(< /proc/mounts)
for m in "tmpfs /tmp" "tmpfs /run" "tmpfs /var/tmp" "debugfs /sys/kernel/debug" \
	 "proc /proc" "sysfs /sys" "devtmpfs /dev"; do
	assert_match "^[^ ]+ ${m#* } ${m%% *} rw" "$mounts" "mount of ${m#* }"
done
[[ -w /dev/kmsg ]] || t_fail "/dev/kmsg is not writable"
[[ -r /proc/interrupts ]] || t_fail "/proc/interrupts is not readable"

# The environment of docs/testing.md.
assert_eq "$KSTAT_ROOT/kernel/kstat.ko" "$KSTAT_KO" "KSTAT_KO"
assert_eq "$KSTAT_ROOT/tests/irqsim/kstat_irqsim.ko" "$IRQSIM_KO" "IRQSIM_KO"
assert_eq "$KSTAT_ROOT/userspace/cli/kstat" "$KSTAT" "KSTAT"
assert_eq tests/smoke.sh "$TEST_NAME" "TEST_NAME"
assert_match "(^|:)$KSTAT_ROOT/userspace/lib(:|$)" "$LD_LIBRARY_PATH" "LD_LIBRARY_PATH"
assert_match "(^|:)$KSTAT_ROOT/userspace/cli(:|$)" "$PATH" "PATH"

# stdin is /dev/null; the test leads its own session and process group (so
# that a timeout kills all of it).
assert_eq /dev/null "$(readlink /proc/self/fd/0)" "stdin"
read -r -a stat < /proc/$$/stat
assert_eq "$$" "${stat[4]}" "process group of the test"
assert_eq "$$" "${stat[5]}" "session of the test"

# kstat.ko, once built, is loaded before every test.
if [[ -f $KSTAT_KO ]]; then
	require_kstat
	assert_eq "$(uname -r)" "$(modinfo -F vermagic "$KSTAT_KO" | cut -d' ' -f1)" \
		"kernel kstat.ko is built for"
else
	t_log "kstat.ko not built yet: not checking that it is loaded"
fi
