#!/bin/bash
# Deliberately odd but passing test for tests/harness.sh (not run directly).
# Leaves the runner some cleaning up to do: kstat unloaded, kstat_irqsim
# loaded.  Prints text that looks like kernel trouble only to its own output
# and harmless look-alikes to the kernel log: neither may fail it.
source tests/lib.sh

echo "BUG: this is stdout, not the kernel log"
echo "kstat harness self-test: no WARNINGS here, a DEBUG_BUG_ON-free Oopsie" > /dev/kmsg
kstat_unload
if [[ -f $IRQSIM_KO ]]; then
	irqsim_load irqs=2
fi
assert_eq 4 $((2 + 2)) "arithmetic"
