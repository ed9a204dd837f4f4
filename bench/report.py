#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn `make bench` results into docs/performance.md's tables.

usage: report.py RESULTS_DIR PARSE_COST_FILE COMMAND [BEFORE_FILE]

RESULTS_DIR holds irqs-N-cpus-M.txt and readers-cpus-M.txt from
bench/guest-bench.sh and host.txt from scripts/bench.sh; PARSE_COST_FILE
the output of bench/parse-cost.sh; BEFORE_FILE (default
bench/before/protocol4-bench.txt) the figures protocol 4's run reported.
Every ratio of "this run" divides two medians of the same guest run
(their rounds alternated); "before" figures come from another run, on
another day, and are labelled so.  Nothing here is asserted.
"""
import datetime
import glob
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BEFORE = os.path.join(HERE, "before", "protocol4-bench.txt")


def load(path):
    """A kstat-bench output: config, metrics, times, values, rounds."""
    r = {"cfg": {}, "m": {}, "t": {}, "v": {}, "rounds": {}, "notes": []}
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == "#":
            r["notes"].append(line[2:].rstrip())
        elif f[0] == "config":
            r["cfg"] = {"irqs": int(f[2]), "cpus": int(f[4]), "descs": int(f[6])}
        elif f[0] == "metric":
            r["m"][f[1]] = (float(f[3]), float(f[4]), float(f[6]), float(f[7]), f[9])
        elif f[0] == "time":
            r["t"][f[1]] = (float(f[2]), float(f[3]), f[5])
        elif f[0] == "value":
            r["v"][f[1]] = (float(f[2]), f[4])
        elif f[0] == "round":
            kv = dict(zip(f[3::2], (int(x) for x in f[4::2])))
            r["rounds"].setdefault(int(f[1]), {})[f[2]] = kv
    return r


def load_before(path):
    """protocol4-bench.txt: configs as load() has them, and the rest."""
    b = {"runs": {}, "parse": {}, "readers": {}, "ratio": {}, "run": ""}
    cur = None
    for line in open(path):
        f = line.split()
        if not f or f[0] == "#":
            continue
        if f[0] == "run":
            b["run"] = " ".join(f[2:5])
        elif f[0] == "config":
            cur = {"cfg": {"irqs": int(f[2]), "cpus": int(f[4]), "descs": int(f[6])},
                   "m": {}, "v": {}}
            b["runs"][(cur["cfg"]["cpus"], cur["cfg"]["irqs"])] = cur
        elif f[0] == "metric":
            cur["m"][f[1]] = (float(f[3]), float(f[4]), float(f[6]), float(f[7]), f[9])
        elif f[0] == "value":
            cur["v"][f[1]] = (float(f[2]), f[4])
        elif f[0] == "parse":
            b["parse"][f[1]] = float(f[2])
        elif f[0] == "readers":
            b["readers"][f[1]] = dict(zip(f[2::2], (float(x) for x in f[3::2])))
        elif f[0] == "readers_ratio":
            b["ratio"][f[1]] = float(f[2])
    return b


def pct(sd, med):
    return f"{100 * sd / med:3.0f}%" if med else "  - "


def row(base, bsd, new, nsd, label):
    change = 100 * (new - base) / base if base else 0
    return (f"{base:12.1f} ±{pct(bsd, base)} {change:+9.1f}% "
            f"{new:12.1f} ±{pct(nsd, new)}  {label}")


def mark(b):
    return "¹" if b.get("same") else "²"


def ratio(a, b, fmt="{:.2f}×"):
    return fmt.format(a / b) if a and b else "-"


def med(m, name, side):
    """Median of metric @name: side 0 the base, 1 kstat; None if absent."""
    return m[name][2 * side] if name in m else None


# ---- readers: what they cost the producer ----

def per_s(kv):
    return kv["tick_ns"] / (kv["elapsed_ns"] / 1e9) if kv["elapsed_ns"] else 0


CASES = (("union", "one subscription, 250 ms, every section"),
         ("eight", "8 subscriptions, 250-4000 ms, other sections each (union: the row above)"),
         ("group64", "64 listeners of the summary group, 250 ms, every section"),
         ("only_cpu", "one subscription, 250 ms, cpu only"),
         ("only_irq", "one subscription, 250 ms, irq only"),
         ("only_softirq", "one subscription, 250 ms, softirq only"),
         ("idle", "nobody"))


def readers_ratios(rounds, case):
    return [per_s(r[case]) / per_s(r["union"]) for r in rounds.values()
            if case in r and "union" in r and r["union"]["tick_ns"]]


def readers_section(res, before=None, before_label=""):
    """The readers' table and ratios; @before: {case: {...}} of protocol 4."""
    rounds, notes = res["rounds"], res["notes"]
    o = []
    if not rounds:
        return ["No readers' results in this run.", ""]
    o.append(f"{'; '.join(n for n in notes if n.startswith('readers:'))}; "
             f"the guest: {res['cfg'].get('cpus')} CPUs, {res['cfg'].get('descs')} IRQ descriptors.")
    o.append("")
    head = "| case | readers | ticks/s | samples/s | producer µs/s | producer µs/tick | received by the readers | ENOBUFS |"
    if before:
        head += f" before: producer µs/s ({before_label}) |"
    o.append(head)
    o.append("|---|---|---|---|---|---|---|---|" + ("---|" if before else ""))
    for case, what in CASES:
        kvs = [r[case] for r in rounds.values() if case in r]
        if not kvs:
            continue
        secs = [kv["elapsed_ns"] / 1e9 for kv in kvs]
        ticks = statistics.median(kv["ticks"] / s for kv, s in zip(kvs, secs))
        samples = statistics.median(kv["samples"] / s for kv, s in zip(kvs, secs))
        cost = statistics.median(per_s(kv) / 1e3 for kv in kvs)
        each = statistics.median(kv["tick_ns"] / kv["ticks"] / 1e3 if kv["ticks"] else 0
                                 for kv in kvs)
        got = sum(kv.get("received", 0) for kv in kvs)
        nobufs = sum(kv.get("enobufs", 0) for kv in kvs)
        line = (f"| {case} ({what}) | {kvs[0]['readers']} | {ticks:.1f} | {samples:.1f} | "
                f"{cost:.0f} | {each:.0f} | {got} | {nobufs} |")
        if before:
            old = before.get({"group64": "m64"}.get(case, case))
            line += f" {old['producer_us_per_s']:.0f}{' (64 members of one stream)' if case == 'group64' else ''} |" \
                if old else " |"
        o.append(line)
    o.append("")
    for case, goal, what in (("eight", 1.5, "8 readers of different intervals and sections ÷ one reader of their union"),
                             ("group64", None, "64 listeners of the group ÷ one subscriber (no goal)")):
        rs = readers_ratios(rounds, case)
        if not rs:
            continue
        m = statistics.median(rs)
        listed = ", ".join(f"{x:.2f}" for x in rs)
        verdict = f"; the goal is ≤ {goal}×: {'meets' if m <= goal else 'misses'} it" if goal else ""
        o.append(f"- {what}, producer µs/s: **{m:.2f}×** (rounds: {listed}){verdict}.")
    idle = [r["idle"] for r in rounds.values() if "idle" in r]
    if idle:
        t = sum(kv["ticks"] for kv in idle)
        ns = sum(kv["tick_ns"] for kv in idle)
        s = sum(kv["samples"] for kv in idle)
        o.append(f"- Nobody reading: {t} ticks, {ns} ns, {s} samples over {len(idle)} windows "
                 f"of {idle[0]['elapsed_ns'] / 1e9:.0f} s.")
    for n in notes:
        if any(k in n for k in (": a reader got nothing", "SUBSCRIBE failed", "not every reader", ": reader ")):
            o.append(f"- In this run: {n}")
    o.append("")
    return o


def before_agent(b):
    m = b.get("m", {})
    if "agent" not in m:
        return "-"
    files, sub = m["agent"][0], m["agent"][2]
    prod = b.get("v", {}).get("summary_cost_1_subscribers", (None,))[0]
    both = f"; {ratio(files, sub + prod, '{:.1f}×')}" if prod else ""
    return f"{ratio(files, sub, '{:.1f}×')}{both} {mark(b)}"


# ---- the page ----

def tree_line(res_dir):
    p = os.path.join(res_dir, "tree.txt")
    if not os.path.exists(p):
        return None
    kv = {}
    for line in open(p):
        f = line.split(None, 1)
        if f:
            kv[f[0]] = f[1].strip() if len(f) > 1 else ""
    dirty = kv.get("dirty", "")
    return (f"Tree: commit {kv.get('head', '?')}"
            + (f", with uncommitted changes in {dirty} (work in progress in the same tree)"
               if dirty else ", nothing uncommitted") + ".  ")


def host_line(res_dir):
    p = os.path.join(res_dir, "host.txt")
    if not os.path.exists(p):
        return None
    lines = [line.split() for line in open(p) if line.strip()]
    parts = []
    for f in lines:
        kv = dict(zip(f[::2], f[1::2]))
        line = (f"{kv.get('smp', '?')}-CPU guest: {kv.get('wall', '?')} s, host load "
                f"average {kv.get('load_start', '?')} at its start and {kv.get('load_end', '?')} "
                f"at its end, {kv.get('other_qemu', '?')} other QEMU guest(s) running at its start")
        if kv.get("guest_rc", "0") != "0":
            log = os.path.join(res_dir, f"guest-{kv.get('smp')}.log")
            why = [x.strip() for x in open(log) if x.startswith("not ok")] if os.path.exists(log) else []
            line += (f" (the guest runner failed the run, exit {kv['guest_rc']}"
                     + (": " + "; ".join(why) if why else "") + ")")
        parts.append(line)
    return "; ".join(parts)


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 2
    res_dir, parse_path, command = sys.argv[1:4]
    before = load_before(sys.argv[4] if len(sys.argv) == 5 else BEFORE)
    paths = [p for p in glob.glob(os.path.join(res_dir, "irqs-*-cpus-*.txt"))
             if not p.endswith(".before.txt")]
    runs = sorted((load(p) for p in paths), key=lambda r: (r["cfg"]["cpus"], r["cfg"]["irqs"]))
    # protocol 4 in the same boot where the guest ran it, else the old page
    same = {}
    for p in paths:
        bp = p[:-len(".txt")] + ".before.txt"
        if os.path.exists(bp):
            b = load(bp)
            if b["m"] and b["cfg"]:
                same[(b["cfg"]["cpus"], b["cfg"]["irqs"])] = b
    for key, b in same.items():
        b["same"] = True
        before["runs"][key] = b
    readers = [load(p) for p in sorted(glob.glob(os.path.join(res_dir, "readers-cpus-*.txt")))]
    if not runs:
        print("report.py: no results", file=sys.stderr)
        return 1
    parse, sources = {}, []
    if os.path.exists(parse_path):
        for line in open(parse_path):
            f = line.split()
            if f and f[0] == "value":
                parse[f[1]] = float(f[2])
            elif f[:2] == ["#", "source"]:
                sources.append(" ".join(f[2:]).replace("../tests/", "tests/"))

    when = lambda t: f"{datetime.datetime.fromtimestamp(t, datetime.timezone.utc):%Y-%m-%d %H:%M} UTC"
    guest = max(os.path.getmtime(p) for p in glob.glob(os.path.join(res_dir, "*-cpus-*.txt")))
    for r in runs:
        before["runs"].setdefault((r["cfg"]["cpus"], r["cfg"]["irqs"]), {"m": {}, "v": {}})
    o = []
    o.append(f"Command: `{command}`  ")
    o.append(f"Date: guests {when(guest)}"
             + (f", host parse cost {when(os.path.getmtime(parse_path))}" if parse else "") + "  ")
    o.append("Guest: Debian 6.1 kernel under QEMU TCG on a 2-core host; synthetic IRQs "
             "from tests/irqsim (not fired: their counts are 0).  Medians of the runs "
             "after warm-up (7 unless BENCH_ARGS said otherwise); ± is the standard "
             "deviation in % of the median.  Protocol 5 (issue 38).  ")
    tree = tree_line(res_dir)
    if tree:
        o.append(tree)
    h = host_line(res_dir)
    if h:
        o.append(f"Host while the guests ran: {h}.")
    o.append("")
    samekeys = sorted(same)
    o.append("The **before** columns are protocol 4's (commit ffdd1b0, the last before "
             "issue 38).  Marked ¹: measured **in the same guest boot** as this run's "
             "figures, its module swapped in after this tree's kstat-bench "
             "(`scripts/bench-before.sh` builds it; protocol 4's own kstat-bench, so its "
             "raw client is the old one, which only counted attributes).  Marked ²: as "
             f"the previous page reported them (`make bench` of {before['run']}; "
             "`bench/before/protocol4-bench.txt`): another run, another day, another "
             "host load.  "
             + (f"This run has ¹ for (cpus, irqs) {', '.join(map(str, samekeys))}.  " if samekeys
                else "This run has no ¹ figures.  ")
             + "Only ratios taken within one run are compared with a goal.\n")

    # ---- the goals ----
    o.append("## Issue 38's cost goals, this run (nothing here is asserted)\n")
    o.append("### An IRQ totals dump against one /proc/stat read (goal ≤ 0.5×)\n")
    o.append("One GET dump of the irq section without flags, against one pread of "
             "/proc/stat with its intr line parsed, the three alternating round by "
             "round.  Raw: `kstat-bench`'s own client over libmnl, which takes every "
             "count from the IRQS runs' packed arrays; libkstat: `kstat_get()`, its "
             "parse into `struct kstat_sample` included.  Before: protocol 4's "
             "IRQ_GET dump, its raw client a plain socket that only counted the "
             "reply's attributes.\n")
    o.append("| cpus | irqs | raw ÷ /proc/stat | libkstat ÷ /proc/stat | met (raw / libkstat) "
             "| before: raw / libkstat | dump: bytes, messages, dumpit calls | before: bytes |")
    o.append("|---|---|---|---|---|---|---|---|")
    for r in runs:
        c, m, v = r["cfg"], r["m"], r["v"]
        b = before["runs"].get((c["cpus"], c["irqs"]), {"m": {}, "v": {}})
        stat = med(m, "irq_vs_stat_intr", 0)
        raw, lib = med(m, "irq_vs_stat_raw", 1), med(m, "irq_vs_stat_intr", 1)
        ok = lambda x: "-" if not x or not stat else ("yes" if x / stat <= 0.5 else "no")
        bstat = med(b["m"], "irq_vs_stat_intr", 0)
        blib, braw = med(b["m"], "irq_libkstat_vs_raw", 0), med(b["m"], "irq_libkstat_vs_raw", 1)
        shape = ", ".join(f"{v[k][0]:.0f}" if k in v else "-"
                          for k in ("irq_dump_bytes", "irq_dump_msgs", "irq_dump_reads"))
        bb = b["v"].get("irq_dump_bytes", (None,))[0]
        b.setdefault("same", False)
        o.append(f"| {c['cpus']} | {c['irqs']} | {ratio(raw, stat)} | {ratio(lib, stat)} | "
                 f"{ok(raw)} / {ok(lib)} | {ratio(braw, bstat)} / {ratio(blib, bstat)} {mark(b) if bstat else ''} "
                 f"| {shape} | {'-' if bb is None else f'{bb:.0f}'} |")
    o.append("")

    o.append("### An agent taking every counter (goal ≥ 100× at the seed's scale)\n")
    o.append("Per sample: the procfs agent reads and parses /proc/stat, /proc/interrupts "
             "and /proc/softirqs whole (thread CPU, its syscalls included); the kstat "
             "agent is a libkstat subscriber of every section that takes every count of "
             "each sample (thread CPU) plus the producer's time per tick (STATS "
             "tick-ns-total ÷ ticks over the same samples: the kernel's sampling, "
             "reading, encoding and sending).  `agent_percpu`: with per-CPU counts, "
             "every counter the files have; `agent`: totals (and the cpu section's "
             "rows).  The goal is the seed's (`make bench-seed`); here for the trend.  "
             "Before: protocol 4's subscriber of the default stream (totals, mostly "
             "deltas), its CPU alone, and with the producer's build time per sample "
             "(its `summary` metric, one subscriber) where the run had it.\n")
    o.append("| cpus | irqs | files ÷ (subscriber + producer), per-CPU | files ÷ (subscriber + producer), totals "
             "| subscriber / producer µs, per-CPU | subscriber / producer µs, totals "
             "| before: files ÷ subscriber; ÷ (subscriber + producer) |")
    o.append("|---|---|---|---|---|---|---|")
    for r in runs:
        c, m, t = r["cfg"], r["m"], r["t"]
        b = before["runs"].get((c["cpus"], c["irqs"]), {"m": {}})

        def split(name):
            s, p = t.get(f"{name}_subscriber"), t.get(f"{name}_producer")
            return f"{s[0]:.0f} / {p[0]:.0f}" if s and p else "-"
        o.append(f"| {c['cpus']} | {c['irqs']} | {ratio(med(m, 'agent_percpu', 0), med(m, 'agent_percpu', 1), '{:.1f}×')} "
                 f"| {ratio(med(m, 'agent', 0), med(m, 'agent', 1), '{:.1f}×')} | {split('agent_percpu')} "
                 f"| {split('agent')} | {before_agent(b)} |")
    o.append("")

    o.append("### Readers with different intervals and sections (goal ≤ 1.5× one reader of their union)\n")
    for res in readers:
        o.extend(readers_section(res, before["readers"],
                                 f"protocol 4's own streams, {before['run']}"))
        if "eight" in before["ratio"]:
            o.append(f"Before (protocol 4's own streams, same cases, {before['run']}): "
                     f"eight ÷ union {before['ratio']['eight']:.2f}×, 64 members of one "
                     f"stream ÷ one {before['ratio'].get('m64', 0):.2f}×.\n")
    if not readers:
        o.append("Not measured in this run (kstat-bench readers runs in the 4-CPU guest).\n")

    o.append("### With no reader the producer costs nothing\n")
    o.append("After the agent's subscription ended, nobody reading: STATS over 10 s.\n")
    o.append("| cpus | irqs | ticks | tick ns | samples | running | before: samples in 10 s |")
    o.append("|---|---|---|---|---|---|---|")
    for r in runs:
        c, v = r["cfg"], r["v"]
        b = before["runs"].get((c["cpus"], c["irqs"]), {"v": {}})
        g = lambda k: f"{v[k][0]:.0f}" if k in v else "-"
        bs = b["v"].get("idle_samples", (None,))[0]
        o.append(f"| {c['cpus']} | {c['irqs']} | {g('idle_ticks')} | {g('idle_tick_ns')} | "
                 f"{g('idle_samples')} | {g('idle_running')} | {'-' if bs is None else f'{bs:.0f} {mark(b)}'} |")
    o.append("")
    o.append("The exporter against node_exporter (goal ≥ 300×) is measured at the seed's "
             "scale only: `make bench-seed`, its section at the end.\n")

    # ---- sizes ----
    o.append("## What a whole sample costs in bytes\n")
    o.append("Every section, as one own subscription receives it (the raw client): the "
             "bytes of all its messages and their number (a sample over 32 KiB comes "
             "in parts); the IRQ section alone; the per-CPU dump of every section.  "
             "Before: protocol 4's keyframe and delta of the default stream (totals).\n")
    o.append("| cpus | irqs | sample, totals: bytes (parts) | sample, per-CPU: bytes (parts) "
             "| irq section alone | per-CPU GET dump, every section: bytes (messages) | before: keyframe / delta bytes |")
    o.append("|---|---|---|---|---|---|---|")
    for r in runs:
        c, v = r["cfg"], r["v"]
        b = before["runs"].get((c["cpus"], c["irqs"]), {"v": {}})
        g = lambda k: v[k][0] if k in v else 0
        kf, d = b["v"].get("summary_bytes_keyframe", (0,))[0], b["v"].get("summary_bytes_delta", (0,))[0]
        o.append(f"| {c['cpus']} | {c['irqs']} | {g('sample_bytes_totals'):.0f} ({g('sample_parts_totals'):.0f}) "
                 f"| {g('sample_bytes_percpu'):.0f} ({g('sample_parts_percpu'):.0f}) "
                 f"| {g('sample_bytes_irq_totals'):.0f} ({g('sample_parts_irq_totals'):.0f}) "
                 f"| {g('dump_all_percpu_bytes'):.0f} ({g('dump_all_percpu_msgs'):.0f}) "
                 f"| {f'{kf:.0f} / {d:.0f} {mark(b)}' if kf else '-'} |")
    o.append("")

    # ---- LKP tables ----
    o.append("## /proc against kstat, this run\n")
    o.append("```")
    o.append(f"{'/proc':>12} {'±sd':>4} {'%change':>10} {'kstat':>12} {'±sd':>4}  metric")
    labels = {
        "cpu": "cpu.us/read (/proc/stat cpu lines vs GET cpu percpu, libkstat)",
        "cpu_raw": "cpu_raw.us/read (the same, raw client)",
        "irq_vs_stat_intr": "irq_vs_stat_intr.us/read (/proc/stat intr vs IRQ totals dump, libkstat)",
        "irq_vs_stat_raw": "irq_vs_stat_raw.us/read (the same, raw client)",
        "irq_vs_interrupts": "irq_vs_interrupts.us/read (/proc/interrupts vs IRQ totals dump, libkstat)",
        "irq_vs_interrupts_raw": "irq_vs_interrupts_raw.us/read (the same, raw client)",
        "agent": "agent.us-cpu/sample (three files vs subscriber + producer, totals)",
        "agent_percpu": "agent_percpu.us-cpu/sample (the same, per-CPU counts)",
    }
    for r in runs:
        c, m = r["cfg"], r["m"]
        o.append(f"# cpus={c['cpus']} irqs={c['irqs']} (descriptors {c['descs']})")
        for name, label in labels.items():
            if name in m:
                b_, bsd, k, ksd, _ = m[name]
                o.append(row(b_, bsd, k, ksd, label))
        o.append(f"{'libkstat':>12} {'':4} {'':10} {'raw':>12} {'':4}  # the same request, two clients")
        for name, label in (("irq_libkstat_vs_raw", "irq.us/read (IRQ totals dump: libkstat vs raw)"),
                            ("floor_libkstat_vs_raw", "floor.us/op (CONFIG_GET: libkstat vs raw)")):
            if name in m:
                b_, bsd, k, ksd, _ = m[name]
                o.append(row(b_, bsd, k, ksd, label))
    o.append("```\n")

    o.append("## Before and after in absolute time\n")
    o.append("Protocol 4's medians against this run's, as the kernel test robot shows a "
             "base and a new kernel.  ¹: both in the same boot, one after the other; ²: "
             f"protocol 4's from the page of {before['run']}, another run with its own host "
             "load, and TCG times move with it (the /proc rows show how much: the same "
             "procfs reads in both).\n")
    o.append("```")
    o.append(f"{'protocol 4':>12} {'±sd':>4} {'%change':>10} {'protocol 5':>12} {'±sd':>4}  metric")
    pairs = (  # (label, before metric, side, this run's metric, side)
        ("proc_stat_intr.us/read (the same /proc read in both)", "irq_vs_stat_intr", 0, "irq_vs_stat_intr", 0),
        ("proc_stat_cpu.us/read (the same /proc read in both)", "cpu", 0, "cpu", 0),
        ("cpu_get.us/read (libkstat: CPU_GET dump / GET cpu percpu)", "cpu", 1, "cpu", 1),
        ("irq_totals_dump.us/read (libkstat)", "irq_vs_stat_intr", 1, "irq_vs_stat_intr", 1),
        ("irq_totals_dump.us/read (raw client; protocol 4's counted attributes)", "irq_libkstat_vs_raw", 1, "irq_vs_stat_raw", 1),
        ("floor.us/op (CONFIG_GET, libkstat)", "floor", 1, "floor_libkstat_vs_raw", 0),
    )
    for r in runs:
        c, m = r["cfg"], r["m"]
        b = before["runs"].get((c["cpus"], c["irqs"]))
        if not b:
            continue
        if not b["m"]:
            continue
        o.append(f"# cpus={c['cpus']} irqs={c['irqs']} {mark(b)}")
        for label, bn, bs, nn, ns in pairs:
            if bn in b["m"] and nn in m:
                o.append(row(b["m"][bn][2 * bs], b["m"][bn][2 * bs + 1],
                             m[nn][2 * ns], m[nn][2 * ns + 1], label))
        if "agent_subscriber" in r["t"] and "agent" in b["m"]:
            t = r["t"]["agent_subscriber"]
            o.append(row(b["m"]["agent"][2], b["m"]["agent"][3], t[0], t[1],
                         "agent_subscriber.us-cpu/sample (totals; protocol 4's mostly deltas)"))
    o.append("```\n")

    # ---- parse cost ----
    o.append("## The library's parse cost (host, callgrind)\n")
    if parse:
        o.append("Instructions libkstat spends per IRQ, through its public API, on the "
                 "host (`bench/parse-cost.sh`: a fake kernel answers libkstat's socket "
                 "calls with the messages below; two run lengths subtracted).  "
                 "Messages: " + "; ".join(sources) + ".  Before: protocol 4's "
                 "(`tests/fixtures` of protocol 4, 4096 IRQs): a keyframe, a delta, "
                 "dumps per object (one IRQ nest each).\n")
        o.append("| reading | instructions per IRQ | instructions per reading | IRQs | before |")
        o.append("|---|---|---|---|---|")
        bp = before["parse"]
        old = {"dump_totals": ("parse_irq_dump_totals_instr_per_obj", "/IRQ (IRQ_GET dump, totals)"),
               "dump_percpu": ("parse_irq_dump_percpu_instr_per_obj", "/IRQ (IRQ_GET dump, per-CPU)"),
               "sample_totals": ("parse_keyframe_instr_per_irq", "/IRQ (a keyframe)")}
        names = [f"{k}{tag}" for tag in ("_rec", "", "_seed")
                 for k in ("dump_totals", "dump_percpu", "sample_totals", "sample_percpu")]
        for name in names:
            if f"parse_{name}_instr_per_irq" not in parse:
                continue
            bo = old.get(name) if not name.endswith(("_seed", "_rec")) else None
            bt = f"{bp[bo[0]]:.1f}{bo[1]}" if bo and bo[0] in bp else ""
            if name == "sample_totals" and "parse_delta_instr" in bp:
                bt += f"; a delta {bp['parse_delta_instr']:.0f} per sample"
            label = (name.replace("_seed", " (built: 2804 IRQs, 96 CPUs)")
                     .replace("_rec", " (recorded)").replace("_", " "))
            if not name.endswith(("_seed", "_rec")):
                label += " (built: 4096 IRQs, 2 CPUs)"
            o.append(f"| {label} "
                     f"| {parse[f'parse_{name}_instr_per_irq']:.1f} "
                     f"| {parse[f'parse_{name}_instr']:.0f} | {parse[f'parse_{name}_irqs']:.0f} | {bt} |")
        o.append("")
    else:
        o.append("Not measured in this run (no valgrind, or parse-cost failed).\n")

    o.append("## What this page does not measure\n")
    o.append("- The exporter against node_exporter, the seed's agent goal and the seed's "
             "sizes: `make bench-seed` (its section below, when it ran).\n"
             "- Anything on hardware: every figure is a QEMU TCG guest's, where a load "
             "from another CPU's per-CPU area costs far more than on a real machine.\n"
             "- Fired IRQs in `make bench`: the synthetic IRQs' counts are 0, so per-CPU "
             "records are the shortest; `make bench-seed` fires them affine.\n"
             "- Protocol 4 in the same boot for what its own kstat-bench measured "
             "(GETs, the agent, the producer per sample); its readers' streams, parse "
             "cost and the rest are its page's (²), and its idle check is not rerun.\n"
             + ("" if all(f"parse_{k}_rec_instr" in parse for k in
                          ("dump_totals", "dump_percpu", "sample_totals", "sample_percpu"))
                else "- The parse cost of the recordings tests/fixtures does not have in "
                     "protocol 5 (no \"recorded\" row above): only messages parse-cost "
                     "builds the kernel's way.\n"))
    print("\n".join(o))
    return 0


if __name__ == "__main__":
    sys.exit(main())
