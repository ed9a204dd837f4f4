#!/bin/bash
# Proves: bad command lines that only the kernel can reject (a CPU or IRQ
# that does not exist, configuration values out of range, the same in a
# batch) exit 1 with a "kstat: " message and the kernel's reason, never a
# crash; the configuration stays as it was.  The CLI's own checks (bad
# options, numbers, words, prefixes, batch garbage: hundreds of command
# lines) need no module and run on the host: tests/unit/test_cli_garbage,
# same table (tests/helpers/cli-garbage-table.sh).
# leave-out: userspace-only
source tests/lib.sh
require_kstat

garbage_fail() { t_fail "$*"; }
G_TMP=$TMPDIR
source tests/helpers/cli-garbage-table.sh

before=$("$KSTAT" -j config show)
cli_garbage_kernel
assert_eq "$before" "$("$KSTAT" -j config show)" "configuration after the refused changes"
t_log "$G_CHECKED command lines refused by the kernel: exit 1 with a kstat: message each"
