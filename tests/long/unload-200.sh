#!/bin/bash
# Proves: kstat unloads cleanly 200 times under the load of
# tests/stress.sh (8 GET/dump loops, a configuration change every 10 ms,
# 16 subscriber sockets opened anew each cycle, in one process: 16 kstat
# processes a cycle cost more than the cycle under TCG), with a slow dump
# in flight at every rmmod: rmmod is refused while a dump holds the
# module and works
# once it is done, the dump completes, no sample taken after rmmod
# returned reaches a subscriber and no subscriber socket stays in the
# group.  No leak: slab caches and MemAvailable (caches dropped, load
# stopped) after the 200 cycles, against a control phase of the same load
# without the unloads (see tests/helpers/slabdiff.py for the threshold).
# Run by `make stress`.
# timeout: 5400
source tests/lib.sh
source tests/helpers/stress-lib.sh
require_cmd jq python3

CONTROL=20 CYCLES=200 STRESS_NICE=1
# A leak of one object per cycle shows as +CYCLES: flag anything above
# half that which also exceeds twice the control's movement; MemAvailable
# 4 MiB (1000 pages lost over 200 cycles: 20 KiB per cycle).
MIN_OBJS=$((CYCLES / 2)) MIN_KB=4096

stress_unload_run() {
	irqsim_load irqs=512
	t_cleanup irqsim_unload
	stress_init
	# The first unloads touch files and caches once (rmmod, insmod, the
	# .ko over 9p): in the warm-up, not in the measured phase.
	t_log "warm-up: 2 cycles with unload, 1 without"
	stress_gets_start 8 1
	stress_config_start 1
	stress_cycles 2 16 1
	stress_cycles 1 16 0
	stress_bg_stop
	stress_mem_snapshot start

	t_log "control: $CONTROL cycles of the same load without unload"
	stress_gets_start 8 0
	stress_config_start 0
	stress_cycles "$CONTROL" 16 0
	figure "control: $CONTROL cycles, $CYC_SAMPLES samples received"
	stress_bg_stop
	stress_mem_snapshot control

	t_log "unload: $CYCLES cycles"
	stress_gets_start 8 1
	stress_config_start 1
	stress_cycles "$CYCLES" 16 1
	figure "unload: $CYCLES cycles, $CYC_SAMPLES samples received, none taken after rmmod; rmmod refused first (dump in flight) in $CYC_BUSY_FIRST cycles, $CYC_TRIES rmmod calls in all; dump not yet begun at rmmod in $CYC_DUMP_LATE"
	stress_bg_stop
	config_reset
	stress_mem_snapshot unload
	python3 tests/helpers/slabdiff.py "$STRESS_DIR" "$MIN_OBJS" "$MIN_KB" >&2 ||
		t_fail "memory grew over the unload cycles (see the table above)"
	((CYC_BUSY_FIRST > 0)) || t_fail "rmmod was never refused with a dump in flight"
	stress_bracket
}
stress_unload_run
