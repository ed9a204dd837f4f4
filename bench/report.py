#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn kstat-bench results into an LKP-style comparison table.

usage: report.py RESULTS_DIR PARSE_COST_FILE COMMAND > table

RESULTS_DIR holds irqs-N-cpus-M.txt files from bench/guest-bench.sh;
PARSE_COST_FILE the output of bench/parse-cost.sh.  For every metric: the
/proc baseline median +- stddev (as % of the median), the %change, and
kstat's median +- stddev, as in the kernel test robot's reports.
"""
import datetime
import glob
import os
import re
import sys

GOALS = [
    ("cpu at 4096 IRQs: kstat >= 20x cheaper than /proc/stat", "cpu", 4096, "ratio", 20),
    ("irq at 4096 IRQs: >= 10x cheaper than /proc/interrupts", "irq_vs_interrupts", 4096, "ratio", 10),
    ("agent: >= 20x cheaper than reading the three files", "agent", None, "ratio", 20),
    ("cpu: within 3x of the floor", "cpu", None, "floor", 3),
]


def load(path):
    cfg, metrics, values = {}, {}, {}
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == "config":
            cfg = {"irqs": int(f[2]), "cpus": int(f[4]), "descs": int(f[6])}
        elif f[0] == "metric":
            metrics[f[1]] = (float(f[3]), float(f[4]), float(f[6]), float(f[7]), f[9])
        elif f[0] == "value":
            values[f[1]] = (float(f[2]), f[4])
    return cfg, metrics, values


def pct(sd, med):
    return f"{100 * sd / med:3.0f}%" if med else "  - "


def row(base, bsd, new, nsd, label):
    change = 100 * (new - base) / base if base else 0
    return (f"{base:12.1f} ±{pct(bsd, base)} {change:+9.1f}% "
            f"{new:12.1f} ±{pct(nsd, new)}  {label}")


def goal14_row(cfg, m, v):
    """One configuration's line of issue 14's goals; "-" where not measured."""
    def med(name, side):
        return m[name][2 * side] if name in m else None

    def ratio(a, b, fmt="{:.2f}×"):
        return fmt.format(a / b) if a and b else "-"

    stat = med("irq_vs_stat_intr", 0)
    interrupts = med("irq_vs_interrupts", 0)
    irq_lib, irq_raw = med("irq_libkstat_vs_raw", 0), med("irq_libkstat_vs_raw", 1)
    cpu_lib, cpu_raw = med("cpu_libkstat_vs_raw", 0), med("cpu_libkstat_vs_raw", 1)
    floor_lib, floor_raw = med("floor_libkstat_vs_raw", 0), med("floor_libkstat_vs_raw", 1)
    kf = v.get("summary_bytes_keyframe", (None,))[0]
    kf = f"{kf / 1e3:.1f} KB" if kf else "-"
    return (f"| {cfg['cpus']} | {cfg['irqs']} "
            f"| {ratio(irq_raw, stat)} / {ratio(irq_lib, stat)} "
            f"| {ratio(interrupts, irq_raw, '{:.1f}×')} / {ratio(interrupts, irq_lib, '{:.1f}×')} "
            f"| {ratio(cpu_raw, floor_raw)} / {ratio(cpu_lib, floor_lib)} "
            f"| {ratio(irq_lib, irq_raw)} "
            f"| {kf} |")


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    runs = sorted((load(p) for p in glob.glob(os.path.join(sys.argv[1], "irqs-*-cpus-*.txt"))),
                  key=lambda r: (r[0]["cpus"], r[0]["irqs"]))
    if not runs:
        print("report.py: no results", file=sys.stderr)
        return 1
    parse = {}
    for line in open(sys.argv[2]):
        f = line.split()
        if f and f[0] == "value":
            parse[f[1]] = (float(f[2]), f[4])

    out = []
    out.append(f"Command: `{sys.argv[3]}`  ")
    # When each part was measured (BENCH_REPORT_ONLY may rebuild the page
    # from guest results older than the host's parse cost).
    guest = max(os.path.getmtime(p) for p in
                glob.glob(os.path.join(sys.argv[1], "irqs-*-cpus-*.txt")))
    host = os.path.getmtime(sys.argv[2])
    when = lambda t: f"{datetime.datetime.utcfromtimestamp(t):%Y-%m-%d %H:%M} UTC"
    if when(guest)[:13] == when(host)[:13]:
        out.append(f"Date: {when(guest)}  ")
    else:
        out.append(f"Date: guests {when(guest)}, host parse cost {when(host)}  ")
    out.append("Guest: Debian 6.1 kernel under QEMU TCG on a 2-core host; "
               "synthetic IRQs from tests/irqsim.  Medians of 7 runs after warm-up; "
               "± is the standard deviation in % of the median.\n")
    out.append("## /proc against kstat\n")
    out.append("```")
    out.append(f"{'/proc':>12} {'±sd':>4} {'%change':>10} {'kstat':>12} {'±sd':>4}  metric")
    for cfg, m, v in runs:
        tag = f"cpus={cfg['cpus']} irqs={cfg['irqs']} (descriptors {cfg['descs']})"
        out.append(f"# {tag}")
        floor = m["floor"][0] if "floor" in m else None
        for name in ("cpu", "irq_vs_interrupts", "irq_vs_stat_intr", "irq_libkstat_vs_raw", "agent"):
            if name in m:
                b, bsd, k, ksd, unit = m[name]
                out.append(row(b, bsd, k, ksd, f"{name}.{unit}"))
        if floor:
            out.append(f"{'':12} {'':4} {'':10} {floor:12.1f} ±{pct(m['floor'][3], floor)}  floor.us/op (CONFIG_GET)")
            for name in ("cpu", "irq_vs_interrupts"):
                if name in m:
                    out.append(f"{'':12} {'':4} {'':10} {m[name][2] / floor:12.2f}       {name}.kstat_in_floors")
        for name, (val, unit) in sorted(v.items()):
            out.append(f"{'':12} {'':4} {'':10} {val:12.1f}       {name}.{unit}")
    out.append("```\n")

    out.append("## Library parse cost (host, valgrind --tool=callgrind, tests/fixtures/summary.nl)\n")
    out.append("```")
    for name, (val, unit) in parse.items():
        out.append(f"{val:12.1f}  {name}.{unit}")
    out.append("```\n")

    out.append("## Issue 14's goals, this run (nothing here is asserted)\n")
    out.append("Raw: a plain netlink socket that counts the reply's attributes; "
               "libkstat: the library call, its parse into structs included.  "
               "Each ratio divides two medians of this run.\n")
    out.append("| cpus | irqs | IRQ dump ÷ /proc/stat (≤ 0.5×) raw / libkstat "
               "| /proc/interrupts ÷ IRQ dump (≥ 20×) raw / libkstat "
               "| CPU GET ÷ empty round trip (≤ 1.5×) raw / libkstat "
               "| libkstat ÷ raw IRQ dump (≤ 1.2×) | keyframe (≤ 40 KB) |")
    out.append("|---|---|---|---|---|---|---|")
    for cfg, m, v in runs:
        out.append(goal14_row(cfg, m, v))
    out.append("")

    out.append("## Issue 26's goal for totals dumps, this run (nothing here is asserted)\n")
    out.append("A totals IRQ dump (IRQ_GET dump without flags) in one dumpit call and at "
               "most 0.5× one /proc/stat read (its intr line parsed), by the raw client; "
               "its shape from the same client (one read per dumpit call).\n")
    out.append("| cpus | irqs | raw dump ÷ /proc/stat (≤ 0.5×) | libkstat dump ÷ /proc/stat "
               "| dumpit calls | messages | bytes |")
    out.append("|---|---|---|---|---|---|---|")
    for cfg, m, v in runs:
        if "irq_vs_stat_intr" not in m or "irq_libkstat_vs_raw" not in m:
            continue
        stat = m["irq_vs_stat_intr"][0]
        lib, raw = m["irq_libkstat_vs_raw"][0], m["irq_libkstat_vs_raw"][2]
        shape = [f"{v[k][0]:.0f}" if k in v else "-"
                 for k in ("irq_dump_reads", "irq_dump_msgs", "irq_dump_bytes")]
        out.append(f"| {cfg['cpus']} | {cfg['irqs']} | {raw / stat:.2f}× | {lib / stat:.2f}× | "
                   + " | ".join(shape) + " |")
    out.append("")

    out.append("## Earlier goals\n")
    out.append("| goal | measured | met |")
    out.append("|---|---|---|")
    for text, metric, irqs, kind, goal in GOALS:
        for cfg, m, _ in runs:
            if metric not in m or (irqs is not None and cfg["irqs"] != irqs):
                continue
            b, _, k, _, _ = m[metric]
            if kind == "ratio":
                meas, ok = b / k if k else 0, (b / k if k else 0) >= goal
                txt = f"{meas:.1f}x cheaper"
            else:
                fl = m["floor"][2]
                meas, ok = k / fl, k / fl <= goal
                txt = f"{meas:.2f}x the floor"
            out.append(f"| {text} (cpus={cfg['cpus']}, irqs={cfg['irqs']}) | {txt} | {'yes' if ok else 'no'} |")
    for cfg, _, v in runs:
        if "summary_cost_1_subscribers" in v and "summary_cost_64_subscribers" in v:
            one, many = v["summary_cost_1_subscribers"][0], v["summary_cost_64_subscribers"][0]
            r = many / one if one else 0
            out.append(f"| summary: 64 subscribers <= 1.5x the cost of 1 (cpus={cfg['cpus']}, irqs={cfg['irqs']}) | {r:.2f}x | {'yes' if r <= 1.5 else 'no'} |")
        if cfg["irqs"] == 4096 and "summary_bytes_keyframe" in v:
            kf, d = v["summary_bytes_keyframe"][0], v["summary_bytes_delta"][0]
            r = 100 * d / kf if kf else 0
            out.append(f"| summary: delta <= 2% of keyframe (cpus={cfg['cpus']}) | {r:.2f}% ({d:.0f} of {kf:.0f} bytes) | {'yes' if r <= 2 else 'no'} |")
        if "idle_samples" in v:
            n = v["idle_samples"][0]
            out.append(f"| idle: exactly 0 samples in 10 s (cpus={cfg['cpus']}, irqs={cfg['irqs']}) | {n:.0f} | {'yes' if n == 0 else 'no'} |")
    if "parse_keyframe_instr_per_irq" in parse:
        n = parse["parse_keyframe_instr_per_irq"][0]
        out.append(f"| parse: <= 100 instructions per IRQ (keyframe) | {n:.1f} | {'yes' if n <= 100 else 'no'} |")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
