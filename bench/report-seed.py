#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The seed-scale section of docs/performance.md, from `make bench-seed`.

usage: report-seed.py RESULTS_DIR > section

RESULTS_DIR (build/bench-seed) holds seed-cpus-N.txt and export-cpus-N.txt
from bench/guest-bench-seed.sh and run.txt from scripts/bench-seed.sh.  Every
comparison is a ratio of figures taken in the same guest run; the seed's
own figures (real hardware) are quoted beside them, never divided by them.
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import pct, row  # noqa: E402

# The seed: Waiman Long, "/proc/stat: Add sysctl parameter to control irq
# counts latency", 4-socket 96-core Broadwell (HT off), 2824 IRQs,
# 10,000 reads of /proc/stat.
SEED_READS = 10000
SEED_ELAPSED = 11.041	# s, proc-stat-irqs-latency-ms = 0 (mainline)
SEED_SYS = 9.452
SEED_CACHED = 8.000	# s, latency 1000 ms: the refused cache patch
SEED_CACHED_SYS = 4.740


def load(path):
    cfg, metrics, times, values = {"repeats": 7}, {}, {}, {}
    for line in open(path):
        f = line.split()
        if f[:2] == ["#", "kstat-bench"] and "-r" in f:
            cfg["repeats"] = int(f[f.index("-r") + 1])
        if not f or f[0] == "#":
            continue
        if f[0] == "config":
            cfg.update(irqs=int(f[2]), cpus=int(f[4]), descs=int(f[6]))
        elif f[0] == "metric":
            metrics[f[1]] = (float(f[3]), float(f[4]), float(f[6]), float(f[7]), f[9])
        elif f[0] == "time":
            times[f[1]] = (float(f[2]), float(f[3]), f[5])
        elif f[0] == "value":
            values[f[1]] = (float(f[2]), f[4])
    return cfg, metrics, times, values


def load_export(res):
    """export-cpus-N.txt (bench/export-vs-node.sh), or None."""
    files = sorted(glob.glob(os.path.join(res, "export-cpus-*.txt")))
    if not files:
        return None
    e = {"round": {}, "quiet": {}, "unit": {}, "notes": []}
    for line in open(files[0]):
        f = line.split()
        if not f:
            continue
        if f[0] == "#":
            e["notes"].append(line[2:].rstrip())
        elif f[0] == "config":
            e["cfg"] = dict(irqs=int(f[2]), cpus=int(f[4]), descs=int(f[6]))
        elif f[0] in ("export", "export_quiet", "export_unit"):
            kv = {f[i]: f[i + 1] for i in range(3 if f[0] != "export_unit" else 1, len(f) - 1, 2)}
            if f[0] == "export_unit":
                e["unit"][kv["percpu"]] = kv
            else:
                e["round" if f[0] == "export" else "quiet"][(f[1], f[2])] = kv
    return e


def export_section(e):
    o = ["### The exporter beside node_exporter\n"]
    if not e["round"]:
        o.append("Not measured in this run: " + "; ".join(e["notes"]) + "\n")
        return o
    o.append("`kstat export prometheus` beside Debian 12's prometheus-node-exporter "
             "(1.5.0) with only the collectors that export the same counters "
             "(`--collector.disable-defaults --collector.cpu --collector.stat "
             "--collector.stat.softirq --collector.interrupts`), in the same boot, "
             "both as uid 65534 without capabilities (the shipped unit's way), each "
             "scraped with gzip by its own loop (a scrape, then 3 s, again) until "
             "node_exporter has had its scrapes; kstat's summaries every 1 s "
             "(`bench/export-vs-node.sh`).  CPU is the process's utime + stime "
             "(`/proc/PID/stat`, all threads) over that one window, divided by the "
             "scrapes each got: kstat's includes receiving the window's samples "
             "(about 3 per scrape).  Run once with the summaries' `percpu off` (kstat "
             "exports IRQ totals) and once with `percpu on` (per-CPU IRQ counts, as "
             "node_interrupts_total has them).\n")
    o.append("| summaries | exporter | scrapes | CPU | CPU per scrape | body (gzip) | series | ratio |")
    o.append("|---|---|---|---|---|---|---|---|")
    for percpu in ("off", "on"):
        k, n = e["round"].get((percpu, "kstat")), e["round"].get((percpu, "node"))
        own = n is not None
        if not n:	# a round without node_exporter: the other round's
            n = next((v for (p, w), v in e["round"].items() if w == "node"), None)
        if not k or not n:
            continue
        kc = int(k["cpu_ms"]) / max(int(k["scrapes"]), 1)
        nc = int(n["cpu_ms"]) / max(int(n["scrapes"]), 1)
        ratio = (f"{nc / kc:.0f}× less (goal 300×)" if kc else "kstat's CPU below the clock's 10 ms") + \
            ("" if own else ", against node_exporter's row above (kstat alone in this round)")
        for who, r, c in (("kstat", k, kc), ("node_exporter", n, nc)):
            if who == "node_exporter" and not own:
                continue
            o.append(f"| percpu {percpu} | {who} | {r['scrapes']} in {r['wall_s']} s | "
                     f"{int(r['cpu_ms']) / 1e3:.2f} s | {c:.0f} ms | "
                     f"{int(r['bytes']) / 1e3:.0f} KB | {r['series']} | "
                     f"{ratio if who == 'kstat' else ''} |")
    o.append("")
    o.append("Issue 25's figure, at the same scale before its changes: 416 ms of the exporter's CPU per scrape "
             "against node_exporter's 28 s, 67× less; the goal is 300×.\n")
    q = [(p, e["quiet"].get((p, "kstat"))) for p in ("off", "on")]
    q = [(p, x) for p, x in q if x and int(x["samples"])]
    if q:
        o.append("Nobody scraping (the quiet phase before each round): kstat spent " +
                 ", ".join(f"{int(x['cpu_ms']) / int(x['samples']):.0f} ms per sample "
                           f"with percpu {p} ({x['samples']} samples)" for p, x in q) +
                 "; node_exporter " + ", ".join(
                     f"{e['quiet'][(p, 'node')]['cpu_ms']} ms in {e['quiet'][(p, 'node')]['seconds']} s"
                     for p, _ in q if (p, "node") in e["quiet"]) + ".\n")
    u = e["unit"].get("on")
    if u:
        o.append("The shipped unit's case, `percpu on` at this scale: the exporter as uid "
                 f"65534 without capabilities, net.core.rmem_max {int(u['rmem_max']):,} "
                 f"(the default): its subscription's receive buffer {int(u['rcvbuf']):,} "
                 f"bytes (`ss`, halved as SO_RCVBUF reports it), the kernel's keyframe "
                 f"{int(u['keyframe_bytes']):,} bytes (`kstat stats`); after "
                 f"{u['samples']} samples it had lost {u['lost']} (up {u['up']}, "
                 f"{int(u['cpu_series']):,} kstat_interrupts_cpu_total series, "
                 f"{u['warnings']} libkstat warnings).\n")
    return o


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    res = sys.argv[1]
    files = sorted(glob.glob(os.path.join(res, "seed-cpus-*.txt")))
    if not files:
        print("report-seed.py: no results", file=sys.stderr)
        return 1
    cfg, m, t, v = load(files[0])
    run = {}
    if os.path.exists(os.path.join(res, "run.txt")):
        f = open(os.path.join(res, "run.txt")).read().split()
        run = {"smp": f[2], "wall": int(f[4]), "date": " ".join(f[6:])}

    def val(name):
        return v[name][0] if name in v else float("nan")

    def med(name, side):	# side 0 base, 1 kstat
        return m[name][2 * side] if name in m else float("nan")

    reads = int(val("seed_reads"))
    wall, sys_s = val("seed_wall"), val("seed_sys")
    per_read = val("seed_per_read")
    stat_read = t["proc_stat"][0]
    interrupts = t["proc_interrupts"][0]
    softirqs = t["proc_softirqs"][0]
    cpu_lib, cpu_raw = med("cpu_libkstat_vs_raw", 0), med("cpu_libkstat_vs_raw", 1)
    floor_lib, floor_raw = med("floor_libkstat_vs_raw", 0), med("floor_libkstat_vs_raw", 1)
    irq_lib, irq_raw = med("irq_libkstat_vs_raw", 0), med("irq_libkstat_vs_raw", 1)
    agent_files, agent_sub = med("agent", 0), med("agent", 1)
    producer = val("summary_cost_1_subscribers")
    keyframe, delta = val("summary_bytes_keyframe"), val("summary_bytes_delta")
    agent_total = agent_sub + producer

    o = []
    o.append("## The seed's experiment at its own scale (`make bench-seed`)\n")
    o.append("The seed (Waiman Long, \"/proc/stat: Add sysctl parameter to control irq "
             "counts latency\") measured a 4-socket 96-core Broadwell with 2824 IRQs: "
             f"{SEED_READS:,} reads of /proc/stat took {SEED_ELAPSED:.1f} s "
             f"({SEED_SYS:.1f} s system), about {1e3 * SEED_ELAPSED / SEED_READS:.1f} ms "
             f"per read; with the refused cache patch (proc-stat-irqs-latency-ms=1000) "
             f"{SEED_CACHED:.1f} s ({SEED_CACHED_SYS:.1f} s system), still "
             f"{1e3 * SEED_CACHED / SEED_READS:.1f} ms per read.\n")
    o.append(f"Here: one QEMU TCG guest with {cfg['cpus']} vCPUs on a 2-core host shared "
             f"with other guests, {cfg['descs']} IRQ descriptors ({cfg['irqs']} of them "
             "synthetic, from tests/irqsim), Debian's 6.1 kernel.  "
             + (f"Run {run['date']} UTC; `make bench-seed` took {run['wall']} s of host "
                "wall time, boot included.  " if run else "")
             + "Times are the guest's clock.  TCG makes every absolute time several times "
             "the hardware's and the host is noisy (other guests share its 2 cores): only "
             "the ratios within this run mean something, and those with a large ± "
             f"only roughly (libkstat's CPU GET, measured twice in this run: "
             f"{med('cpu', 1):.0f} and {cpu_lib:.0f} µs).  Medians of "
             f"{cfg['repeats']} runs after warm-up; ± is the standard deviation in % of "
             "the median.\n")

    o.append("### The seed's loop\n")
    o.append(f"| | seed, 96-core Broadwell | this guest, {cfg['cpus']} vCPUs under TCG |")
    o.append("|---|---|---|")
    o.append(f"| reads of /proc/stat (open, read, close) | {SEED_READS:,} | {reads:,} |")
    o.append(f"| elapsed | {SEED_ELAPSED:.1f} s (8.0 s with the refused cache) | {wall:.2f} s |")
    o.append(f"| system time | {SEED_SYS:.1f} s (4.7 s with the cache) | {sys_s:.2f} s |")
    o.append(f"| per read | {1e3 * SEED_ELAPSED / SEED_READS:.1f} ms (0.8 ms with the cache) "
             f"| {per_read / 1e3:.2f} ms |")
    o.append("")
    o.append(f"The same {reads:,} reads' worth of counters from kstat, at this run's medians: "
             f"{reads * cpu_raw / 1e6:.1f} s of CPU GET over a raw socket "
             f"({reads * cpu_lib / 1e6:.1f} s through libkstat) for the cputime, or "
             f"{reads * agent_total / 1e6:.1f} s of summaries (producer plus subscriber) "
             "for cputime, IRQs and softirqs together.\n")

    o.append("### Side by side, one run\n")
    o.append("```")
    o.append(f"{'/proc':>12} {'±sd':>4} {'%change':>10} {'kstat':>12} {'±sd':>4}  metric")
    o.append(f"# cpus={cfg['cpus']} irqs={cfg['irqs']} (descriptors {cfg['descs']})")
    for name, label in (("cpu", "cpu.us/read (/proc/stat cpu lines vs CPU GET, libkstat)"),
                        ("irq_vs_stat_intr", "irq_vs_stat_intr.us/read (intr line vs IRQ totals dump, libkstat)"),
                        ("irq_vs_interrupts", "irq_vs_interrupts.us/read (/proc/interrupts vs IRQ totals dump, libkstat)"),
                        ("agent", "agent.us-cpu/sample (three files vs subscriber)")):
        if name in m:
            b, bsd, k, ksd, _ = m[name]
            o.append(row(b, bsd, k, ksd, label))
    o.append(f"{'libkstat':>12} {'':4} {'':10} {'raw':>12} {'':4}  # the same request, two clients")
    for name, label in (("floor_libkstat_vs_raw", "floor.us/op (CONFIG_GET: libkstat vs raw)"),
                        ("cpu_libkstat_vs_raw", "cpu.us/read (CPU GET: libkstat vs raw)"),
                        ("irq_libkstat_vs_raw", "irq.us/read (IRQ totals dump: libkstat vs raw)")):
        if name in m:
            b, bsd, k, ksd, _ = m[name]
            o.append(row(b, bsd, k, ksd, label))
    o.append(f"{'/proc':>12} {'':4} {'':10} {'kstat':>12} {'':4}  # single figures")
    for name in ("proc_stat", "proc_interrupts", "proc_softirqs"):
        r, sd, unit = t[name]
        o.append(f"{r:12.1f} ±{pct(sd, r)} {'':10} {'':12} {'':4}  {name}.{unit} (one read+parse)")
    o.append(f"{'':12} {'':4} {'':10} {producer:12.1f}       summary_producer.us/sample "
             "(kernel build_ns, 1 subscriber, keyframe every 10)")
    o.append(f"{'':12} {'':4} {'':10} {agent_sub:12.1f}       summary_subscriber.us-cpu/sample")
    o.append(f"{'':12} {'':4} {'':10} {keyframe:12.0f}       summary_keyframe.bytes")
    o.append(f"{'':12} {'':4} {'':10} {delta:12.0f}       summary_delta.bytes")
    o.append("```\n")

    def ratio(a, b):
        return a / b if b else float("nan")

    o.append("### Ratios (issue 14's goals beside them; nothing here is asserted)\n")
    o.append("| ratio, this run | raw client (or the one figure) | libkstat | goal |")
    o.append("|---|---|---|---|")
    o.append(f"| one /proc/stat read ÷ CPU GET | {ratio(stat_read, cpu_raw):.1f}× | "
             f"{ratio(stat_read, cpu_lib):.1f}× | |")
    o.append(f"| CPU GET ÷ empty round trip | {ratio(cpu_raw, floor_raw):.2f}× | "
             f"{ratio(cpu_lib, floor_lib):.2f}× | ≤ 1.5× |")
    o.append(f"| IRQ totals dump ÷ one /proc/stat read | {ratio(irq_raw, stat_read):.2f}× | "
             f"{ratio(irq_lib, stat_read):.2f}× | ≤ 0.5× |")
    o.append(f"| one /proc/interrupts read ÷ IRQ totals dump | {ratio(interrupts, irq_raw):.1f}× | "
             f"{ratio(interrupts, irq_lib):.1f}× | ≥ 20× |")
    o.append(f"| one /proc/softirqs read ÷ one /proc/stat read | "
             f"{ratio(softirqs, stat_read):.2f}× | | |")
    o.append(f"| producer per sample ÷ one /proc/stat read | {ratio(producer, stat_read):.2f}× "
             "| | ≤ 0.25× |")
    o.append(f"| keyframe size | {keyframe / 1e3:.1f} KB (delta {delta / 1e3:.1f} KB) | | ≤ 40 KB |")
    o.append(f"| agent: three /proc files ÷ subscriber CPU per sample | | "
             f"{ratio(agent_files, agent_sub):.1f}× | |")
    o.append(f"| agent: three /proc files ÷ (subscriber + producer) per sample | | "
             f"{ratio(agent_files, agent_total):.1f}× | ≥ 100× |")
    o.append("")
    if "percpu_dump_vs_totals" in m:
        tot, tsd, pc, psd, _ = m["percpu_dump_vs_totals"]
        rtot, rtsd, rpc, rpsd, _ = m["percpu_dump_vs_totals_raw"]
        o.append("### Per-CPU IRQ counts against totals only (issue 26's goals)\n")
        o.append("The synthetic IRQs fired affine, as on real machines: IRQ i "
                 f"(i % 7) + 1 times on CPU i % {cfg['cpus']}.  Each ratio divides two "
                 "figures of this run.\n")
        o.append("| | totals only | per-CPU | ratio | goal |")
        o.append("|---|---|---|---|---|")
        o.append(f"| IRQ dump, libkstat (µs) | {tot:.0f} ±{pct(tsd, tot).strip()} "
                 f"| {pc:.0f} ±{pct(psd, pc).strip()} | {ratio(pc, tot):.2f}× | ≤ 2× |")
        o.append(f"| IRQ dump, raw client (µs) | {rtot:.0f} ±{pct(rtsd, rtot).strip()} "
                 f"| {rpc:.0f} ±{pct(rpsd, rpc).strip()} | {ratio(rpc, rtot):.2f}× | |")
        o.append(f"| IRQ dump bytes | {val('dump_bytes_totals'):.0f} "
                 f"| {val('dump_bytes_percpu'):.0f} "
                 f"| {ratio(val('dump_bytes_percpu'), val('dump_bytes_totals')):.2f}× | |")
        if "dump_reads_percpu" in v:
            o.append(f"| IRQ dump, dumpit calls | {val('dump_reads_totals'):.0f} "
                     f"| {val('dump_reads_percpu'):.0f} | | |")
        o.append(f"| keyframe bytes | {val('keyframe_bytes_totals'):.0f} "
                 f"| {val('keyframe_bytes_percpu'):.0f} "
                 f"| {ratio(val('keyframe_bytes_percpu'), val('keyframe_bytes_totals')):.2f}× "
                 "| ≤ 2× |")
        o.append("")
    if "irq_dump_reads" in v:
        o.append(f"A totals dump over the raw client: {val('irq_dump_bytes'):.0f} bytes in "
                 f"{val('irq_dump_msgs'):.0f} messages, {val('irq_dump_reads'):.0f} "
                 "dumpit call(s).\n")
    split = [(name, val(f"summary_cost_only_{name}"))
             for name in ("cpu", "irq", "softirq")]
    if all(x == x for _, x in split):	# none is NaN: the run measured them
        o.append("Where the producer's time goes, one section at a time in the same run "
                 "(config `sections`, one subscriber, µs per sample, ÷ one /proc/stat "
                 "read): " + ", ".join(f"{name} {x:.0f} µs ({ratio(x, stat_read):.2f}×)"
                                       for name, x in split)
                 + f"; all three together {producer:.0f} µs.\n")
    if cpu_raw > cpu_lib:
        o.append(f"In this run the raw client's CPU GET ({cpu_raw:.0f} µs "
                 f"±{pct(m['cpu_libkstat_vs_raw'][3], cpu_raw).strip()}) came out slower "
                 f"than libkstat's ({cpu_lib:.0f} µs); take it as noise until another run "
                 "shows it again.\n")
    o.append("The agent's procfs side reads and parses /proc/stat, /proc/interrupts and "
             "/proc/softirqs (thread CPU time, its syscalls included); its kstat side is "
             "one subscriber receiving and applying one summary (thread CPU time) plus the "
             "producer's kernel time for that sample (`kstat stats`: build_ns_total / "
             "samples_taken, multicast included, keyframes included).")
    ex = load_export(res)
    if ex:
        o.append("")
        o.extend(export_section(ex))
    print("\n".join(o))
    return 0


if __name__ == "__main__":
    sys.exit(main())
