#!/bin/bash
# Proves: kstat holds up under concurrency: 16 subscribers, 8 GET/dump
# loops (kstat do and dump requests, /proc printers, nlraw dumps with 4 KiB
# and 1 MiB reads) and a summary configuration change every 10 ms, all at
# once for 15 s (5 minutes in tests/long/stress-5min.sh, `make stress`).
# Every GET succeeds, every configuration change is applied (the last one
# is in force), every subscriber accounts for every sample (no seq jump
# without a loss report), the counters still
# bracket /proc afterwards, and dmesg stays clean (the harness checks).
# The body is tests/helpers/stress-lib.sh.
# timeout: 300
source tests/lib.sh
source tests/helpers/stress-lib.sh
require_cmd jq python3

irqsim_load irqs=256
t_cleanup irqsim_unload
stress_run 15 16 8
