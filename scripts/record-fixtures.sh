#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/record-fixtures.sh - boot the test guest, record real kstat
# replies and summaries (tests/fixtures/record.sh) and copy them to
# tests/fixtures/.  Run after a protocol change; commit the result.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
VMDIR=${KSTAT_VMDIR:-build/vm}	# as tests/vm/run-guest.sh
rm -rf "$VMDIR/results/fixtures"
tests/vm/run-guest.sh tests/fixtures/record.sh
cp "$VMDIR"/results/fixtures/*.nl tests/fixtures/
ls -l tests/fixtures/*.nl
