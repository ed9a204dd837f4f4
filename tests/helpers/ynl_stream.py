#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check samples as the kernel's YNL CLI (cli.py) prints them: each whole.

usage: ynl_stream.py samples CLI_OUT [DUMP_OUT]
       ynl_stream.py compare CLI_OUT MONITOR_OUT

CLI_OUT is what `cli.py --output-json --subscribe summary ...` printed: its
last line that starts with "[" is the JSON list of notifications ({"name",
"msg"}).  DUMP_OUT is what `cli.py --output-json --dump get` printed: the
list of reply messages.

samples: the notifications make whole samples, each read alone, from its
own messages: the parts of a seq are 0 .. parts-1 in order, all there
(the first and the last sample may be cut where cli.py joined and where
it stopped reading: they are left out; no other), with one timestamp and
generation; its IRQ runs give every IRQ once, in ascending order, one
count each.  Across samples of one generation the IRQ set is the same
(every IRQ in every sample) and no count goes back.  With DUMP_OUT, each
sample of the dump's generation has the dump's IRQ set, and its counts
are at least the dump's when it was taken after it, at most when before.
Prints "samples N multipart M irqs I generations G gaps S" (I: IRQs per
sample, the most; S: seq numbers missing between the whole samples).

compare: every whole sample that MONITOR_OUT (`kstat -j monitor`, JSON
Lines: every IRQ, CPU row and softirq of each sample, libkstat's reading)
also holds by seq must agree with it on every IRQ count (and the IRQ
set), CPU time row, softirq count and the intr sum.  Prints "samples N
common C".
"""

import json
import sys

CPU_FIELDS = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq',
              'steal', 'guest', 'guest-nice']


def fail(msg):
    print(f'ynl_stream: {msg}', file=sys.stderr)
    sys.exit(1)


def last_list(path):
    with open(path, encoding='utf-8') as f:
        lines = [ln for ln in f.read().splitlines() if ln.startswith('[')]
    if not lines:
        fail(f'{path}: no JSON list (cli.py printed none)')
    return json.loads(lines[-1])


def notifications(path):
    ntfs = last_list(path)
    for n in ntfs:
        if n.get('name') != 'summary-ntf':
            fail(f'{path}: unexpected notification {n.get("name")}')
    return [n['msg'] for n in ntfs]


def whole(msgs):
    """[(seq, [part msgs])] of the whole samples, checked in order."""
    out, cur = [], None
    for i, m in enumerate(msgs):
        for key in ('seq', 'part', 'parts', 'timestamp', 'generation'):
            if key not in m:
                fail(f'a message without {key}: {sorted(m)}')
        if cur is None or m['seq'] != cur[0]:
            cut = len(out) == 1 and out[0][1][0]['part'] != 0
            if cur is not None and not cut and \
                    len(cur[1]) != cur[1][0]['parts']:
                fail(f"sample {cur[0]}: {len(cur[1])} of {cur[1][0]['parts']} "
                     "parts, then another sample")
            cur = (m['seq'], [])
            out.append(cur)
            if m['part'] != 0 and i:
                fail(f"sample {m['seq']} starts at part {m['part']}")
        elif m['part'] != cur[1][-1]['part'] + 1 or \
                m['parts'] != cur[1][0]['parts'] or \
                m['timestamp'] != cur[1][0]['timestamp'] or \
                m['generation'] != cur[1][0]['generation']:
            fail(f"sample {m['seq']}: part {m['part']} does not follow "
                 f"part {cur[1][-1]['part']} of the same reading")
        cur[1].append(m)
    # cut where cli.py joined (it began mid-sample) or stopped reading
    if out and out[0][1][0]['part'] != 0:
        out.pop(0)
    if out and len(out[-1][1]) != out[-1][1][0]['parts']:
        out.pop()
    return out


def runs_counts(seq, msgs):
    """{IRQ: count} of the irqs runs of @msgs, in order, each once."""
    irqs, last = {}, -1
    for m in msgs:
        for run in m.get('irqs', []):
            ids, counts = run.get('ids', []), run.get('counts', [])
            if len(ids) != len(counts) or not ids:
                fail(f'{seq}: a run of {len(ids)} ids and {len(counts)} counts')
            for irq, count in zip(ids, counts):
                if irq <= last:
                    fail(f'{seq}: IRQ {irq} after IRQ {last}')
                last = irq
                irqs[irq] = count
    return irqs


def decode(seq, parts):
    """A sample from its own messages only."""
    s = {'seq': seq, 'timestamp': parts[0]['timestamp'],
         'generation': parts[0]['generation'],
         'irqs': runs_counts(f'sample {seq}', parts), 'cpu': {},
         'softirq': {}, 'intr': None}
    for m in parts:
        for row in m.get('cpu', []):
            s['cpu'][row.get('id')] = [row.get(f) for f in CPU_FIELDS]
        for v in m.get('softirq', []):
            s['softirq'][v['name']] = v['count']
        if 'intr-sum' in m:
            s['intr'] = m['intr-sum']
    return s


def read_samples(cli_out):
    return [(seq, parts, decode(seq, parts))
            for seq, parts in whole(notifications(cli_out))]


def samples(cli_out, dump_out=None):
    got = read_samples(cli_out)
    if not got:
        fail(f'{cli_out}: no whole sample')
    dump = None
    if dump_out:
        replies = last_list(dump_out)
        dump = {'irqs': runs_counts('the dump', replies),
                'timestamp': replies[0]['timestamp'],
                'generation': replies[0]['generation']}
        if not dump['irqs']:
            fail('the dump has no IRQ')
    prev = None
    most = gaps = 0
    gens = set()
    for seq, _, s in got:
        gens.add(s['generation'])
        most = max(most, len(s['irqs']))
        if prev and prev['generation'] == s['generation']:
            if set(prev['irqs']) != set(s['irqs']):
                fail(f"sample {seq}: IRQs {sorted(set(s['irqs']) ^ set(prev['irqs']))} "
                     f"in one of it and sample {prev['seq']} only")
            back = [i for i in s['irqs'] if s['irqs'][i] < prev['irqs'][i]]
            if back:
                fail(f"sample {seq}: IRQ {back[0]} went back from "
                     f"{prev['irqs'][back[0]]} to {s['irqs'][back[0]]}")
        if prev:
            gaps += s['seq'] - prev['seq'] - 1
        if dump and dump['generation'] == s['generation']:
            if set(dump['irqs']) != set(s['irqs']):
                fail(f"sample {seq}: not the dump's IRQ set (differ: "
                     f"{sorted(set(s['irqs']) ^ set(dump['irqs']))[:8]})")
            after = s['timestamp'] >= dump['timestamp']
            for i, c in s['irqs'].items():
                if (c < dump['irqs'][i]) if after else (c > dump['irqs'][i]):
                    fail(f"sample {seq} ({'after' if after else 'before'} the "
                         f"dump): IRQ {i} {c}, the dump {dump['irqs'][i]}")
        prev = s
    multi = sum(len(parts) > 1 for _, parts, _ in got)
    print(f'samples {len(got)} multipart {multi} irqs {most} '
          f'generations {len(gens)} gaps {gaps}')


def compare(cli_out, mon_out):
    got = read_samples(cli_out)
    mon = {}
    with open(mon_out, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for i, line in enumerate(lines):
        try:
            obj = json.loads(line) if line else {}
        except json.JSONDecodeError:
            if i == len(lines) - 1:
                break       # the monitor was writing it
            raise
        if 'seq' in obj and not obj.get('from_get'):
            mon[obj['seq']] = obj
    common = 0
    for seq, _, s in got:
        m = mon.get(seq)
        if m is None:
            continue
        common += 1
        rows = {r['irq']: r['count'] for r in m.get('irq', [])}
        if 'irq' in m and rows != s['irqs']:
            diff = sorted(set(rows.items()) ^ set(s['irqs'].items()))[:4]
            fail(f'seq {seq}: IRQs differ (IRQ, count) in one only: {diff}')
        for row in m.get('cpu', []):
            want = [row[f.replace('-', '_')] for f in CPU_FIELDS]
            if s['cpu'].get(row['cpu']) != want:
                fail(f"seq {seq}: CPU {row['cpu']}: cli.py "
                     f"{s['cpu'].get(row['cpu'])}, kstat monitor {want}")
        for row in m.get('softirq', []):
            if s['softirq'].get(row['name']) != row['count']:
                fail(f"seq {seq}: softirq {row['name']}: cli.py "
                     f"{s['softirq'].get(row['name'])}, kstat monitor {row['count']}")
        if 'intr' in m and m['intr'] != s['intr']:
            fail(f"seq {seq}: intr: cli.py {s['intr']}, kstat monitor {m['intr']}")
    print(f'samples {len(got)} common {common}')


def main():
    if len(sys.argv) in (3, 4) and sys.argv[1] == 'samples':
        samples(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == 'compare':
        compare(sys.argv[2], sys.argv[3])
    else:
        fail(__doc__.splitlines()[2])


if __name__ == '__main__':
    main()
