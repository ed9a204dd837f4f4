#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that kstat's /proc-compatible output brackets two /proc reads.

usage: bracket.py {stat|interrupts|softirqs} BEFORE KSTAT AFTER [INTERRUPTS]

BEFORE and AFTER are procfs snapshots taken just before and just after
KSTAT (the output of `kstat stat`, `kstat interrupts` or `kstat softirqs`).
Every counter in KSTAT must lie between its two procfs values; CPU times
may be off by one tick (USER_HZ rounding of the same nanoseconds).  For
interrupts, the descriptive text of every row (chip, hwirq, type, actions)
must equal procfs's too.  Rows kstat documents it cannot serve are listed
in SKIP_ROWS; every other /proc row must be present in kstat's output.

For stat, INTERRUPTS is a /proc/interrupts snapshot taken after AFTER: the
"intr" total of kstat leaves out the SKIP_ROWS counters (documented), so
it may be below /proc's by at most their sum.
"""
import sys

# /proc/interrupts rows whose counters are not exported to modules (x86).
SKIP_ROWS = {"ERR", "MIS", "MCE", "MCP"}
# /proc/stat lines kstat does not print (documented in docs/protocol.md).
STAT_UNSERVED = {"ctxt", "btime", "processes", "procs_running", "procs_blocked"}


def parse_stat(text):
    vals, cpu_keys = {}, set()
    for line in text.splitlines():
        f = line.split()
        if not f or f[0] in STAT_UNSERVED:
            continue
        for i, v in enumerate(f[1:]):
            vals[(f[0], i)] = int(v)
        if f[0].startswith("cpu"):
            cpu_keys.add(f[0])
    return vals, cpu_keys


def parse_table(text, with_text):
    """/proc/interrupts and /proc/softirqs: row -> ([counts], text)."""
    lines = text.splitlines()
    ncpu = len(lines[0].split())
    rows = {}
    for line in lines[1:]:
        label, _, rest = line.partition(":")
        f = rest.split()
        counts = []
        for tok in f[:ncpu]:
            if not tok.isdigit():
                break
            counts.append(int(tok))
        # text after the counts, compared verbatim modulo spacing
        tail = " ".join(f[len(counts):]) if with_text else ""
        rows[label.strip()] = (counts, tail)
    return lines[0].split(), rows


def check_between(errors, key, lo, k, hi, slack=0):
    if not (lo - slack <= k <= hi + slack):
        errors.append(f"{key}: kstat {k} not within /proc [{lo}, {hi}]"
                      + (f" (slack {slack})" if slack else ""))


def skipped_rows_total(interrupts):
    """Sum of the counters kstat documents it cannot read (x86)."""
    if not interrupts:
        return 0
    _, rows = parse_table(interrupts, False)
    return sum(sum(rows[r][0]) for r in SKIP_ROWS if r in rows)


def check_stat(before, kst, after, interrupts=None):
    lo, lo_cpus = parse_stat(before)
    k, k_cpus = parse_stat(kst)
    hi, _ = parse_stat(after)
    errors = []
    if k_cpus != lo_cpus:
        errors.append(f"cpu lines differ: /proc {sorted(lo_cpus)} kstat {sorted(k_cpus)}")
    excluded = skipped_rows_total(interrupts)
    for key, v in k.items():
        slack = 1 if key[0].startswith("cpu") else 0
        low = lo.get(key, 0)
        if key == ("intr", 0):
            low -= excluded
        check_between(errors, f"{key[0]}[{key[1]}]", low, v,
                      hi.get(key, 0), slack)
    for key in lo:
        if key not in k and lo[key] != 0:
            errors.append(f"{key[0]}[{key[1]}] missing from kstat")
    return errors, len(k)


def check_table(before, kst, after, with_text):
    lo_hdr, lo = parse_table(before, with_text)
    k_hdr, k = parse_table(kst, with_text)
    _, hi = parse_table(after, with_text)
    errors = []
    if k_hdr != lo_hdr:
        errors.append(f"header differs: /proc {lo_hdr} kstat {k_hdr}")
    n = 0
    for label, (counts, tail) in k.items():
        if label not in lo and label not in hi:
            errors.append(f"row {label}: not in /proc")
            continue
        lo_c, lo_t = lo.get(label, ([0] * len(counts), tail))
        hi_c, _ = hi.get(label, lo.get(label))
        if len(counts) != len(lo_c):
            errors.append(f"row {label}: {len(counts)} columns, /proc {len(lo_c)}")
            continue
        for cpu, v in enumerate(counts):
            check_between(errors, f"{label}[cpu{cpu}]", lo_c[cpu], v, hi_c[cpu])
            n += 1
        if with_text and tail != lo_t:
            errors.append(f"row {label}: text '{tail}' != /proc '{lo_t}'")
    for label in lo:
        if label not in k and label not in SKIP_ROWS and label in hi:
            errors.append(f"row {label}: in /proc, missing from kstat")
    return errors, n


def main():
    if len(sys.argv) not in (5, 6):
        print(__doc__, file=sys.stderr)
        return 2
    mode = sys.argv[1]
    before, kst, after = (open(p).read() for p in sys.argv[2:5])
    interrupts = open(sys.argv[5]).read() if len(sys.argv) == 6 else None
    if mode == "stat":
        errors, n = check_stat(before, kst, after, interrupts)
    elif mode in ("interrupts", "softirqs"):
        errors, n = check_table(before, kst, after, mode == "interrupts")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for e in errors[:40]:
        print(f"bracket {mode}: {e}")
    print(f"bracket {mode}: {n} counters checked, {len(errors)} outside")
    return 1 if errors or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
