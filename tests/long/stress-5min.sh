#!/bin/bash
# Proves: tests/stress.sh's property over 5 minutes: 16 subscribers, 8
# GET/dump loops and a configuration change every 10 ms; no GET fails,
# every change is applied, every sample is accounted for, the counters
# bracket /proc afterwards and dmesg stays clean.  Run by `make stress`.
# timeout: 900
source tests/lib.sh
source tests/helpers/stress-lib.sh
require_cmd jq python3

irqsim_load irqs=256
t_cleanup irqsim_unload
stress_run 300 16 8
