#!/bin/bash
# Deliberately skipping test for tests/harness.sh (not run directly).
source tests/lib.sh

t_skip "harness self-test skip"
