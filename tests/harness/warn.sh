#!/bin/bash
# expect: kernel-warning
#
# Deliberately warning test for tests/harness.sh (not run directly): it
# passes by itself, but makes kstat_irqsim WARN(), so the runner must fail
# it on the kernel log.  The header line above tells an enclosing runner
# (the one running tests/harness.sh) that this warning is accounted for.
source tests/lib.sh

irqsim_load irqs=1
irqsim_warn
t_log "kernel warned on purpose"
