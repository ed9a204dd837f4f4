#!/bin/bash
# Proves: a dump of 4096+ IRQs with per-CPU counts, read through a 4 KiB
# socket receive buffer (so it spans many messages and resumes many
# times), returns every IRQ descriptor exactly once, then the trailer.
# timeout: 300
source tests/lib.sh

irqsim_load irqs=4096
t_cleanup irqsim_unload

out=$(tests/tools/nlraw dump-irqs 4096) || t_fail "nlraw dump-irqs: $out"
# Every IRQ descriptor has a directory in /sys/kernel/irq.
want=$(ls /sys/kernel/irq | wc -l)
assert_match "^irqs $want dupes 0 " "$out" "IRQs in the dump (sysfs lists $want)"
msgs=$(sed -n 's/.* msgs \([0-9]*\) .*/\1/p' <<<"$out")
[ "$msgs" -gt 10 ] || t_fail "expected a dump over many messages, got $msgs"
