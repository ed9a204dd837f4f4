#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tests/helpers/prom_rules_test.py - a promtool rule test from real pages.

    prom_rules_test.py gen --naming kstat|node --gap-ms MS \\
        --rules RULES.yml [--rules ALERTS.yml] PAGE1 PAGE2 > TEST.yml
    prom_rules_test.py softirqs            (print /proc/softirqs as
                                            node_softirqs_functions_total)

`gen` reads two scrapes of one exporter (PAGE1, then PAGE2 taken MS
milliseconds later), kstat's own families (`--naming kstat`) or
node_exporter's (`--naming node`), and writes a `promtool test rules` file
(JSON, which is YAML) for contrib/prometheus's rules:

* test group 1, the pages: every counter the rules read becomes an input
  series sampled every MS ms, going up by its real growth between the two
  scrapes at each step (PAGE1's value, then PAGE2's, then on at the same
  slope: `a+bxN`); gauges keep PAGE2's value.  For every record of
  kstat.rules.yml, the series it must give 20 minutes in are computed here
  from the two pages (rates = growth / MS, sums, the non-idle fraction),
  independently of the rules' PromQL, and checked: each series by its
  exact label set, within 1e-9 relative (promtool compares floats
  exactly), and their number.  The alerts expected from the same numbers
  (CPU utilisation above 0.9, MCE growth, MCE unread) are checked to fire,
  and the others not to.
* test group 2, crafted: a machine check on one CPU 15 minutes in, in each
  naming, must fire KstatMachineCheckException within 5 minutes and not
  before; kstat_arch_interrupts_unread{type="MCE"} 1 fires
  KstatMachineChecksUnmonitored after 5 minutes.

Pages are parsed with prometheus_client's parser (the text format 0.0.4).
Exit 1 with a message when a page lacks a family the rules read.
"""

import argparse
import json
import math
import sys

from prometheus_client.parser import text_string_to_metric_families

EVAL_S = 1200          # 20m: past KstatCPUHighUtilisation's 15m
TOL = 1e-9

# Families the rules read, per naming: name -> (kind, required)
FAMILIES = {
    "kstat": {
        "kstat_cpu_seconds_total": ("counter", True),
        "kstat_cpu_guest_seconds_total": ("counter", True),
        "kstat_interrupts_total": ("counter", True),
        "kstat_interrupts_cpu_total": ("counter", True),  # --percpu
        "kstat_arch_interrupts_total": ("counter", True),
        "kstat_intr_total": ("counter", True),
        "kstat_softirqs_total": ("counter", True),
        "kstat_arch_interrupts_unread": ("gauge", False),
    },
    "node": {
        "node_cpu_seconds_total": ("counter", True),
        "node_cpu_guest_seconds_total": ("counter", True),
        "node_interrupts_total": ("counter", True),
        "node_intr_total": ("counter", True),
        "node_softirqs_total": ("counter", True),
        "node_softirqs_functions_total": ("counter", False),
        # kstat export --names node serves it too; node_exporter does not
        "kstat_arch_interrupts_unread": ("gauge", False),
    },
}
JOB = {"kstat": "kstat", "node": "node"}
INSTANCE = {"kstat": "host:19586", "node": "host:9100"}

ALERT_TEXT = {
    "KstatCPUHighUtilisation": ("info", "High CPU utilisation.",
        "CPU utilisation on {i} has been above 90% for 15 minutes."),
    "KstatMachineCheckException": ("warning", "Machine check exceptions.",
        "{i} counted machine check exceptions in the last 5 minutes: see "
        "the kernel log (mcelog, rasdaemon)."),
    "KstatMachineChecksUnmonitored": ("info", "Machine checks are not monitored.",
        "kstat on {i} cannot read the MCE row of /proc/interrupts (kstat "
        "built as a module); watch MCEs with node_exporter's interrupts "
        "collector or rasdaemon."),
}


def die(msg):
    print(f"prom_rules_test: {msg}", file=sys.stderr)
    sys.exit(1)


def esc(v):
    return v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def sel(name, labels):
    inner = ",".join(f'{k}="{esc(v)}"' for k, v in sorted(labels.items()))
    return f"{name}{{{inner}}}"


def num(x):
    r = repr(float(x))
    if r in ("inf", "-inf", "nan"):
        die(f"value {r} in a page")
    return r


def read_page(path, naming):
    """{family: {frozenset(labels): value}} for the families the rules read."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            if s.name in FAMILIES[naming]:
                # An empty label is no label, to Prometheus.
                labels = {k: v for k, v in s.labels.items() if v != ""}
                out.setdefault(s.name, {})[frozenset(labels.items())] = s.value
    return out


def gen(args):
    naming = args.naming
    gap = args.gap_ms / 1000.0
    p1 = read_page(args.page1, naming)
    p2 = read_page(args.page2, naming)
    for name, (_, required) in FAMILIES[naming].items():
        if required and not p2.get(name):
            die(f"{args.page2} has no {name} series")
    base = {"job": JOB[naming], "instance": INSTANCE[naming]}

    nsteps = math.ceil(EVAL_S / gap) + 2
    k_eval = math.floor(EVAL_S / gap + 1e-9)
    inputs = []
    # series: list of (name, labels dict, slope per s, value at eval, kind)
    series = []
    for name, (kind, _) in FAMILIES[naming].items():
        for key, v2 in sorted(p2.get(name, {}).items(), key=lambda kv: sorted(kv[0])):
            labels = dict(key)
            labels.update(base)
            if kind == "gauge":
                inputs.append({"series": sel(name, labels), "values": f"{num(v2)}x{nsteps}"})
                series.append((name, labels, 0.0, v2, kind))
                continue
            if key not in p1.get(name, {}):
                continue        # new between the scrapes: left out
            v1 = p1[name][key]
            d = max(v2 - v1, 0.0)
            inputs.append({"series": sel(name, labels),
                           "values": f"{num(v1)}+{num(d)}x{nsteps}"})
            series.append((name, labels, d / gap, v1 + d * k_eval, kind))

    def fam(name):
        return [(l, r, v) for n, l, r, v, _ in series if n == name]

    def drop(labels, *names):
        return {k: v for k, v in labels.items() if k not in names}

    def group(rows, *without):
        acc = {}
        for labels, x in rows:
            key = frozenset(drop(labels, *without).items())
            acc[key] = acc.get(key, 0.0) + x
        return {k: v for k, v in acc.items()}

    def orjoin(*maps):
        out = {}
        for m in maps:
            for k, v in m.items():
                out.setdefault(k, v)
        return out

    K = naming == "kstat"
    pre = "kstat_" if K else "node_"
    exp = {}
    cpu_mode = group([(l, r) for l, r, _ in fam(pre + "cpu_seconds_total")])
    exp["instance_cpu_mode:cpu_seconds:rate1m"] = cpu_mode
    cm = [(dict(k), v) for k, v in cpu_mode.items()]
    exp["instance_mode:cpu_seconds:rate1m"] = group(cm, "cpu")
    exp["instance_mode:cpu_guest_seconds:rate1m"] = group(
        [(l, r) for l, r, _ in fam(pre + "cpu_guest_seconds_total")], "cpu")
    idle = [(l, r) for l, r in cm if l["mode"] in ("idle", "iowait", "steal")]
    for rec, without in (("instance_cpu:cpu_utilisation:rate1m", ("mode",)),
                         ("instance:cpu_utilisation:rate1m", ("cpu", "mode"))):
        tot = group(cm, *without)
        idl = group(idle, *without)
        for k, t in tot.items():
            if t <= 0:
                die(f"no CPU time went by between the scrapes for {dict(k)}")
        exp[rec] = {k: 1 - idl.get(k, 0.0) / t for k, t in tot.items() if k in idl}
    exp["instance:cpu_count:sum"] = group([(l, 1.0) for l, r in cm if l["mode"] == "idle"], "cpu", "mode")

    if K:
        by_type = orjoin(
            group([(l, r) for l, r, _ in fam("kstat_interrupts_total")], "hwirq", "flow", "actions"),
            group([(l, r) for l, r, _ in fam("kstat_arch_interrupts_total")]))
        cpu_type = group([(l, r) for l, r, _ in fam("kstat_interrupts_cpu_total")])
    else:
        rows = [(l, r) for l, r, _ in fam("node_interrupts_total")]
        by_type = group(rows, "cpu")
        cpu_type = group(rows, "info", "devices")
    exp["instance_type:interrupts:rate1m"] = by_type
    exp["instance_cpu_type:interrupts:rate1m"] = cpu_type
    exp["instance_cpu:interrupts:rate1m"] = group([(dict(k), v) for k, v in cpu_type.items()], "type")
    exp["instance:intr:rate1m"] = group([(l, r) for l, r, _ in fam(pre + "intr_total")])
    exp["instance_vector:softirqs:rate1m"] = group([(l, r) for l, r, _ in fam(pre + "softirqs_total")])
    exp["instance_cpu_type:softirqs:rate1m"] = (
        {} if K else group([(l, r) for l, r, _ in fam("node_softirqs_functions_total")]))

    if K:
        mce = [(l, r, v) for l, r, v in fam("kstat_arch_interrupts_total") if l["type"] == "MCE"]
        mce_without = ("type", "info")
    else:
        mce = [(l, r, v) for l, r, v in fam("node_interrupts_total") if l["type"] == "MCE"]
        mce_without = ("cpu", "type", "info", "devices")
    unread = group([(l, v) for l, _, v in fam("kstat_arch_interrupts_unread") if l["type"] == "MCE"], "type")
    exp["instance:interrupts_mce:sum"] = group([(l, v) for l, _, v in mce], *mce_without)
    exp["instance:interrupts_mce:increase5m"] = group([(l, r * 300) for l, r, _ in mce], *mce_without)
    exp["instance:interrupts_mce_unread:max"] = unread

    records = record_names(args.rules)
    if set(records) != set(exp):
        die(f"the rules record {sorted(records)}, this script checks {sorted(exp)}")

    expr_tests = []
    for rec in records:
        rows = exp[rec]
        if not rows:
            expr_tests.append({"expr": rec, "eval_time": f"{EVAL_S}s", "exp_samples": []})
            continue
        expr_tests.append({"expr": f"count({rec})", "eval_time": f"{EVAL_S}s",
                           "exp_samples": [{"labels": "{}", "value": len(rows)}]})
        for key, v in sorted(rows.items(), key=lambda kv: sorted(kv[0])):
            labels = dict(key)
            tol = TOL * max(1.0, abs(v))
            expr_tests.append({
                "expr": f"abs({sel(rec, labels)} - {num(v)}) <= bool {num(tol)}",
                "eval_time": f"{EVAL_S}s",
                "exp_samples": [{"labels": sel("", labels), "value": 1}]})

    def alerts(name, rows, cond):
        return [alert(name, dict(k)) for k, v in sorted(rows.items(), key=lambda kv: sorted(kv[0])) if cond(v)]

    alert_tests = [
        {"alertname": "KstatCPUHighUtilisation", "eval_time": f"{EVAL_S}s",
         "exp_alerts": alerts("KstatCPUHighUtilisation", exp["instance:cpu_utilisation:rate1m"], lambda v: v > 0.9)},
        {"alertname": "KstatMachineCheckException", "eval_time": f"{EVAL_S}s",
         "exp_alerts": alerts("KstatMachineCheckException", exp["instance:interrupts_mce:increase5m"], lambda v: v > 0)},
        {"alertname": "KstatMachineChecksUnmonitored", "eval_time": f"{EVAL_S}s",
         "exp_alerts": alerts("KstatMachineChecksUnmonitored", unread, lambda v: v == 1)},
    ]
    summary = {rec: len(rows) for rec, rows in exp.items()}
    print(f"prom_rules_test: {naming}: {len(inputs)} input series, expected "
          + ", ".join(f"{r} {n}" for r, n in summary.items())
          + "; alerts: " + ", ".join(f"{t['alertname']} {len(t['exp_alerts'])}" for t in alert_tests),
          file=sys.stderr)

    test = {
        "rule_files": [str(f) for f in args.rules],
        "evaluation_interval": "15s",
        "tests": [
            {"name": f"{naming} pages", "interval": f"{args.gap_ms}ms",
             "input_series": inputs, "promql_expr_test": expr_tests,
             "alert_rule_test": alert_tests},
            crafted(),
        ],
    }
    json.dump(test, sys.stdout, indent=1, ensure_ascii=False)
    print()


def alert(name, labels):
    sev, summary, desc = ALERT_TEXT[name]
    labels = dict(labels)
    labels["severity"] = sev
    return {"exp_labels": labels,
            "exp_annotations": {"summary": summary, "description": desc.format(i=labels["instance"])}}


def crafted():
    """A machine check on CPU 0 at 15m15s, in each naming; an unread MCE row."""
    ki = {"job": "kstat", "instance": "mce:19586"}
    ni = {"job": "node", "instance": "mce:9100"}
    ui = {"job": "kstat", "instance": "unread:19586"}
    inputs = [
        {"series": sel("kstat_arch_interrupts_total", dict(ki, type="MCE", info="Machine check exceptions")),
         "values": "0x60 1x20"},
        {"series": sel("node_interrupts_total", dict(ni, cpu="0", type="MCE", info="Machine check exceptions", devices="")),
         "values": "0x60 1x20"},
        {"series": sel("node_interrupts_total", dict(ni, cpu="1", type="MCE", info="Machine check exceptions", devices="")),
         "values": "5x80"},
        {"series": sel("kstat_arch_interrupts_unread", dict(ui, type="MCE")), "values": "1x80"},
    ]
    return {
        "name": "crafted MCE", "interval": "15s", "input_series": inputs,
        "promql_expr_test": [
            {"expr": "instance:interrupts_mce:sum", "eval_time": "20m",
             "exp_samples": [{"labels": sel("instance:interrupts_mce:sum", ki), "value": 1},
                             {"labels": sel("instance:interrupts_mce:sum", ni), "value": 6}]},
            {"expr": "instance:interrupts_mce:increase5m", "eval_time": "20m",
             "exp_samples": [{"labels": sel("instance:interrupts_mce:increase5m", ki), "value": 1},
                             {"labels": sel("instance:interrupts_mce:increase5m", ni), "value": 1}]},
        ],
        "alert_rule_test": [
            {"alertname": "KstatMachineCheckException", "eval_time": "15m", "exp_alerts": []},
            {"alertname": "KstatMachineCheckException", "eval_time": "20m",
             "exp_alerts": [alert("KstatMachineCheckException", ki), alert("KstatMachineCheckException", ni)]},
            {"alertname": "KstatMachineChecksUnmonitored", "eval_time": "4m", "exp_alerts": []},
            {"alertname": "KstatMachineChecksUnmonitored", "eval_time": "20m",
             "exp_alerts": [alert("KstatMachineChecksUnmonitored", ui)]},
        ],
    }


def record_names(files):
    """The record names of the rule files, in order (a tiny YAML reader
    would do, but python3-yaml is a test dependency anyway)."""
    import yaml
    names = []
    for f in files:
        with open(f, encoding="utf-8") as fh:
            doc = yaml.safe_load(fh)
        for g in doc["groups"]:
            for r in g["rules"]:
                if "record" in r and r["record"] not in names:
                    names.append(r["record"])
    return names


def softirqs():
    """/proc/softirqs as node_exporter >= 1.7's softirqs collector serves it
    (node_exporter 1.5, Debian 12's, has no such collector)."""
    with open("/proc/softirqs", encoding="ascii") as f:
        lines = f.read().splitlines()
    ncpu = len(lines[0].split())
    print("# HELP node_softirqs_functions_total Softirq counts per CPU.")
    print("# TYPE node_softirqs_functions_total counter")
    for line in lines[1:]:
        f = line.split()
        name = f[0].rstrip(":")
        for cpu, v in enumerate(f[1:1 + ncpu]):
            print(f'node_softirqs_functions_total{{cpu="{cpu}",type="{name}"}} {v}')


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--naming", choices=("kstat", "node"), required=True)
    g.add_argument("--gap-ms", type=int, required=True)
    g.add_argument("--rules", action="append", required=True)
    g.add_argument("page1")
    g.add_argument("page2")
    sub.add_parser("softirqs")
    args = ap.parse_args()
    if args.cmd == "gen":
        if args.gap_ms < 100:
            die("--gap-ms under 100")
        gen(args)
    else:
        softirqs()


if __name__ == "__main__":
    main()
