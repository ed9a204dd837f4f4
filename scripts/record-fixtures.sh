#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/record-fixtures.sh - boot the test guest, record real kstat
# replies and summaries (tests/fixtures/record.sh) and copy them to
# tests/fixtures/.  Run after a protocol change; commit the result.
# Move the recordings of the version before into tests/fixtures/vN/
# first when libkstat is still to read them (v3/: version 3, before the
# 32-bit count chunks); test_fixtures checks every set it lists, and
# test_sections pins each recording's parsed values.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
vmdir=${KSTAT_VMDIR:-build/vm}	# as tests/vm/run-guest.sh
rm -rf "$vmdir/results/fixtures"
tests/vm/run-guest.sh tests/fixtures/record.sh
cp "$vmdir"/results/fixtures/*.nl tests/fixtures/
ls -l tests/fixtures/*.nl
