#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check summary notifications decoded by the kernel's YNL CLI (cli.py).

usage: ynl_stream.py snapshot CLI_OUT IRQ=COUNT...
       ynl_stream.py stream CLI_OUT MONITOR_OUT

CLI_OUT is what `cli.py --output-json --subscribe summary ...` printed: its
last line is the JSON list of notifications ({"name", "msg"}).

snapshot: the notifications hold one batch, flagged snapshot, whole
(parts 0..parts-1), with one keyframe sample; its packed IRQ totals give
each IRQ the COUNT named (kstat -j irq show's); it has CPU time rows and
softirq vectors.  Prints "seq N parts P".

stream: the multicast batches, each whole but the first and the last
(cut by the moments cli.py joined and read), rebuilt into absolute samples from
the first keyframe on: dense IRQ chunks and cputime rows replace the
state in keyframes, IRQ increments, changed rows and changed vectors
update it in deltas.  Every sample that MONITOR_OUT (`kstat -j monitor`,
JSON Lines: every row in keyframes, the changed ones in deltas, with
absolute counts) also holds must agree with it on every IRQ count, CPU
time row and softirq count it lists, and the intr sum.  Prints the
figures: samples, keyframes, deltas, batches in several parts, common
samples, IRQ increments seen.
"""

import json
import sys

CPU_FIELDS = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq',
              'steal', 'guest', 'guest_nice']


def fail(msg):
    print(f'ynl_stream: {msg}', file=sys.stderr)
    sys.exit(1)


def notifications(path):
    with open(path, encoding='utf-8') as f:
        lines = [ln for ln in f.read().splitlines() if ln.startswith('[')]
    if not lines:
        fail(f'{path}: no notification list (cli.py printed none)')
    ntfs = json.loads(lines[-1])
    for n in ntfs:
        if n.get('name') != 'summary-ntf':
            fail(f'{path}: unexpected notification {n.get("name")}')
    return [n['msg'] for n in ntfs]


def batches(msgs, allow_cut):
    """[(batch-seq, [part msgs])], each checked whole.  allow_cut: the
    first and the last batch may be cut (the socket joined, or was read,
    mid-batch); they are left out."""
    out = []
    for m in msgs:
        for key in ('batch-seq', 'part', 'parts'):
            if key not in m:
                fail(f'a message without {key}: {sorted(m)}')
        if allow_cut and not out and m['part'] != 0:
            continue
        if m['part'] == 0:
            out.append((m['batch-seq'], [m]))
            continue
        if not out or out[-1][0] != m['batch-seq'] or \
           out[-1][1][-1]['part'] != m['part'] - 1:
            fail(f"batch {m['batch-seq']}: part {m['part']} out of order")
        out[-1][1].append(m)
    for i, (seq, parts) in enumerate(out):
        whole = len(parts) == parts[0]['parts'] and \
            all(p['parts'] == parts[0]['parts'] for p in parts)
        if not whole and not (allow_cut and i == len(out) - 1):
            fail(f'batch {seq}: {len(parts)} of {parts[0]["parts"]} parts')
    if allow_cut and out and len(out[-1][1]) != out[-1][1][0]['parts']:
        out.pop()
    return out


def samples(parts):
    """Merge the pieces of each sample (same seq) of a batch, in order."""
    merged = []
    for p in parts:
        for s in p.get('sample', []):
            if merged and merged[-1]['seq'] == s['seq']:
                cur = merged[-1]
                for key, val in s.items():
                    if isinstance(val, list):
                        cur.setdefault(key, []).extend(val)
                    else:
                        cur.setdefault(key, val)
            else:
                merged.append({k: (list(v) if isinstance(v, list) else v)
                               for k, v in s.items()})
    return merged


def present_bits(present):
    """cli.py prints binary as hex; bit (i % 8) of byte (i / 8)."""
    raw = bytes.fromhex(present)
    return [i for i in range(len(raw) * 8) if raw[i // 8] >> (i % 8) & 1]


class State:
    """A subscriber's absolute counters, as libkstat keeps them."""

    def __init__(self):
        self.irqs = {}
        self.rows = {}          # CPU id -> 10 ns values; None: the sum
        self.softirqs = {}
        self.intr = None
        self.increments = 0

    def apply(self, s):
        key = s.get('keyframe', False)
        if key:
            self.irqs = {}
            self.rows = {}
        for chunk in s.get('irqs', []):
            # 32-bit counts where all of a chunk's fit, else 64-bit
            counts = chunk.get('counts32', chunk.get('counts'))
            if 'first' in chunk:
                ids = [chunk['first'] + i
                       for i in present_bits(chunk['present'])]
                if len(ids) != len(counts):
                    fail(f"seq {s['seq']}: {len(ids)} IRQs present, "
                         f"{len(counts)} counts")
                self.irqs.update(zip(ids, counts))
            elif 'increments' in chunk:
                if key:
                    fail(f"seq {s['seq']}: increments in a keyframe")
                for irq, inc in zip(chunk['ids'], chunk['increments']):
                    self.irqs[irq] += inc
                    self.increments += inc
            else:
                self.irqs.update(zip(chunk['ids'], counts))
        for chunk in s.get('cputime', []):
            n = chunk['fields']
            vals = chunk.get('values', [])
            for i, cpu in enumerate(chunk.get('ids', [])):
                self.rows[cpu] = vals[i * n:i * n + 10]
            if 'sum' in chunk:
                self.rows[None] = chunk['sum'][:10]
        for v in s.get('softirq', []):
            self.softirqs[v['name']] = v['count']
        if 'intr-sum' in s:
            self.intr = s['intr-sum']


def compare(seq, st, mon):
    for row in mon.get('irq', []):
        if st.irqs.get(row['irq']) != row['count']:
            fail(f"seq {seq}: IRQ {row['irq']}: cli.py {st.irqs.get(row['irq'])}, "
                 f"kstat monitor {row['count']}")
    if mon.get('keyframe') and len(mon.get('irq', [])) != len(st.irqs):
        fail(f"seq {seq}: keyframe: cli.py has {len(st.irqs)} IRQs, kstat "
             f"monitor {len(mon.get('irq', []))}")
    for row in mon.get('cpu', []):
        want = [row[f] for f in CPU_FIELDS]
        if st.rows.get(row['cpu']) != want:
            fail(f"seq {seq}: CPU {row['cpu']}: cli.py {st.rows.get(row['cpu'])}, "
                 f"kstat monitor {want}")
    for row in mon.get('softirq', []):
        if st.softirqs.get(row['name']) != row['count']:
            fail(f"seq {seq}: softirq {row['name']}: cli.py "
                 f"{st.softirqs.get(row['name'])}, kstat monitor {row['count']}")
    if 'intr' in mon and mon['intr'] != st.intr:
        fail(f"seq {seq}: intr: cli.py {st.intr}, kstat monitor {mon['intr']}")


def snapshot(cli_out, expect):
    got = batches(notifications(cli_out), allow_cut=False)
    snaps = [b for b in got if b[1][0].get('snapshot')]
    if len(snaps) != 1:
        fail(f'{len(snaps)} snapshot batches, expected 1 '
             f'(of {len(got)} batches)')
    seq, parts = snaps[0]
    sams = samples(parts)
    if len(sams) != 1 or not sams[0].get('keyframe'):
        fail(f'snapshot {seq}: {len(sams)} samples, expected one keyframe')
    st = State()
    st.apply(sams[0])
    for irq, count in expect.items():
        if st.irqs.get(irq) != count:
            fail(f'snapshot {seq}: IRQ {irq}: {st.irqs.get(irq)}, '
                 f'kstat irq show {count}')
    if None not in st.rows or not st.softirqs:
        fail(f'snapshot {seq}: no CPU time sum or no softirq vector')
    print(f'seq {seq} parts {len(parts)}')


def stream(cli_out, mon_out):
    got = batches(notifications(cli_out), allow_cut=True)
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
        if 'seq' in obj:
            mon[obj['seq']] = obj
    st = State()
    synced = False
    seen = keys = deltas = common = multi = 0
    for seq, parts in got:
        if parts[0].get('snapshot'):
            fail(f'batch {seq}: a snapshot among the multicast')
        multi += len(parts) > 1
        for s in samples(parts):
            seen += 1
            if s.get('keyframe'):
                keys += 1
                synced = True
            elif synced:
                deltas += 1
            if not synced:
                continue
            st.apply(s)
            if s['seq'] in mon:
                compare(s['seq'], st, mon[s['seq']])
                common += 1
    print(f'samples {seen} keyframes {keys} deltas {deltas} multipart {multi} '
          f'common {common} increments {st.increments}')


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == 'snapshot':
        expect = {}
        for arg in sys.argv[3:]:
            irq, count = arg.split('=')
            expect[int(irq)] = int(count)
        snapshot(sys.argv[2], expect)
    elif len(sys.argv) == 4 and sys.argv[1] == 'stream':
        stream(sys.argv[2], sys.argv[3])
    else:
        fail(__doc__.splitlines()[2])


if __name__ == '__main__':
    main()
