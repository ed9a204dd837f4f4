#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The "benchmark harnesses" section of docs/performance.md (issue 40's
cost goals), from the harness part of `make bench-seed`.

usage: report-harness.py RESULTS_DIR > section

RESULTS_DIR (build/bench-seed) holds harness-cpus-N.txt
(bench/harness-vs-lkp.sh) and run.txt (scripts/bench-seed.sh).  Every
ratio divides figures of one guest run.  Nothing is asserted.
"""
import glob
import os
import sys


def load(path):
    d = {"cfg": {}, "win": {}, "run": {}, "notes": []}
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == "#":
            d["notes"].append(line[2:].rstrip())
        elif f[0] == "config":
            d["cfg"] = dict(zip(f[1::2], f[2::2]))
        elif f[0] == "harness":
            d["win"][f[1]] = {k: float(v) for k, v in zip(f[2::2], f[3::2])}
        elif f[0] == "harness_run":
            d["run"][f[1]] = {k: float(v) for k, v in zip(f[2::2], f[3::2])}
    return d


def per_sample(w):
    return (w["cpu_ms"] + w["producer_ms"]) / max(w["samples"], 1)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    files = sorted(glob.glob(os.path.join(sys.argv[1], "harness-cpus-*.txt")))
    if not files:
        print("report-harness.py: no results", file=sys.stderr)
        return 1
    d = load(files[0])
    cfg, win, run = d["cfg"], d["win"], d["run"]
    o = ["## Benchmark harnesses: kstat against LKP's monitors (`make bench-seed`)\n"]
    runtxt = os.path.join(sys.argv[1], "run.txt")
    if os.path.exists(runtxt):
        f = open(runtxt).read().split()
        o.append(f"Run {' '.join(f[f.index('date') + 1:])} UTC, host load average "
                 f"{f[f.index('load_start') + 1]} at the start.  ")
    o.append(f"One QEMU TCG guest with {cfg.get('cpus')} vCPUs and {cfg.get('descriptors')} IRQ "
             "descriptors (bench/harness-vs-lkp.sh).  CPU time per sample: the monitor's "
             "process and its children (user + system, so the kernel time of their reads "
             "is in it), plus, for kstat, the producer's time over the window (STATS "
             "tick_ns_total), which runs in a kernel worker.  Only ratios within this run "
             "mean anything: TCG multiplies every absolute time.\n")
    o.append("| monitor, a sample a second | samples | process CPU ms | producer ms | "
             "ms a sample | bytes written | LKP ÷ this |")
    o.append("|---|---|---|---|---|---|---|")
    lkp = per_sample(win["lkp"]) if "lkp" in win else float("nan")
    names = {"lkp": "LKP's interrupts + softirqs + proc-stat monitors (shell, date, cat, sleep)",
             "procread": "the three /proc files read by one process, no fork",
             "record": "`kstat record`, totals",
             "record_percpu": "`kstat record percpu` (LKP's CPU<n> names need it)"}
    for who in ("lkp", "procread", "record", "record_percpu"):
        if who not in win:
            continue
        w = win[who]
        x = per_sample(w)
        o.append(f"| {names[who]} | {w['samples']:.0f} | {w['cpu_ms']:.0f} | "
                 f"{w['producer_ms']:.0f} | {x:.2f} | {w['bytes']:.0f} | "
                 f"{lkp / x:.1f}× |")
    o.append("")
    if "kstat_run" in run and "cat" in run:
        k, c = run["kstat_run"], run["cat"]
        o.append("| one snapshot pair around a command | runs | CPU ms a run | cats ÷ this |")
        o.append("|---|---|---|---|")
        o.append(f"| two `cat /proc/interrupts` and two `cat /proc/softirqs` | {c['runs']:.0f} | "
                 f"{c['cpu_ms'] / c['runs']:.1f} | 1.0× |")
        o.append(f"| `kstat run percpu -- true` (process start included) | {k['runs']:.0f} | "
                 f"{k['cpu_ms'] / k['runs']:.1f} | "
                 f"{(c['cpu_ms'] / c['runs']) / (k['cpu_ms'] / k['runs']):.1f}× |")
        o.append("")
    goals = []
    if "record" in win and "lkp" in win:
        for who in ("record", "record_percpu"):
            if who in win:
                x = lkp / per_sample(win[who])
                goals.append(f"`kstat {who.replace('_', ' ')}` against LKP's monitors: "
                             f"**{x:.1f}×** (goal ≥ 100×: {'met' if x >= 100 else 'missed'})")
    if "kstat_run" in run and "cat" in run:
        x = (run["cat"]["cpu_ms"]) / run["kstat_run"]["cpu_ms"]
        goals.append(f"`kstat run`'s two snapshots against the cats: **{x:.1f}×** "
                     f"(goal ≥ 20×: {'met' if x >= 20 else 'missed'})")
    if goals:
        o.append("Issue 40's goals: " + "; ".join(goals) + ".\n")
    for n in d["notes"]:
        o.append(f"- {n}")
    print("\n".join(o))
    return 0


if __name__ == "__main__":
    sys.exit(main())
