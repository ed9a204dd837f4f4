#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check what the YNL generator does not: the spec's own shape, kstat's
hand-written kernel code against it, and the kernel's real replies.

    ynl_check.py [--schema SCHEMA] [--kernel-source FILE]... SPEC

The UAPI header and the kernel's policies and op table are generated from
SPEC (scripts/ynl-regen.sh; tests/unit/test_ynl_gen fails on any
difference), so names, values, policies and ops need no check here.  What
remains:

1. With --schema, validate SPEC against the YNL JSON schema (needs
   python3-jsonschema), without the kernel's tools.
2. SPEC is consistent in itself: the attribute sets, enums and multicast
   groups it refers to exist; its first line is an SPDX tag.
3. With --kernel-source: the hand-written kernel code has no policy and no
   op table of its own (struct nla_policy, genl_ops or genl_small_ops
   defined outside the generated *-gen.c): every policy and op comes from
   SPEC.
4. check_wire(): kernel replies recorded in tests/fixtures decode with
   SPEC (every attribute known, of its type's size, repeated only when
   multi-attr, in the reply the spec lists).
5. decode_file(): the recorded messages as the spec reads them, for
   comparing with other decoders (tests/helpers/rawsample.py).

Exit 0 when all agree, 1 with one line per mismatch otherwise.
"""

import argparse
import os
import re
import struct
import sys

import yaml


def load_yaml(stream):
    """yaml.safe_load, with libyaml's parser when there is one."""
    return yaml.load(stream, Loader=getattr(yaml, 'CSafeLoader',
                                            yaml.SafeLoader))


def check_references(spec):
    """Names the spec uses must be defined in it."""
    errs = []
    sets = {s['name']: s for s in spec['attribute-sets']}
    consts = {d['name']: d for d in spec.get('definitions', [])}
    groups = {g['name'] for g in spec.get('mcast-groups', {}).get('list', [])}

    def attrs_of(name):
        s = sets[name]
        if s.get('subset-of'):
            return attrs_of(s['subset-of'])
        return {a['name']: a for a in s['attributes']}

    for s in spec['attribute-sets']:
        if s.get('subset-of') and s['subset-of'] not in sets:
            errs.append(f"set {s['name']}: no set {s['subset-of']}")
            continue
        known = attrs_of(s['name'])
        for a in s['attributes']:
            a = {**known.get(a['name'], {}), **a}
            where = f"set {s['name']}, attribute {a['name']}"
            if a['name'] not in known:
                errs.append(f'{where}: not in the parent set')
            nested = a.get('nested-attributes')
            if nested and nested not in sets:
                errs.append(f'{where}: no attribute set {nested}')
            if a.get('type') == 'nest' and not nested:
                errs.append(f'{where}: nest without nested-attributes')
            for key in ('enum',):
                if key in a and a[key] not in consts:
                    errs.append(f'{where}: no definition {a[key]}')
            mask = a.get('checks', {}).get('flags-mask')
            if mask and mask not in consts:
                errs.append(f'{where}: no definition {mask}')

    for op in spec['operations']['list']:
        where = f"operation {op['name']}"
        aset = op.get('attribute-set')
        modes = [m for m in ('do', 'dump') if m in op]
        if (modes or 'event' in op) and aset not in sets:
            errs.append(f'{where}: no attribute set {aset}')
            continue
        lists = []
        for m in modes:
            for d in ('request', 'reply'):
                if d in op[m]:
                    lists.append((f'{m} {d}', op[m][d].get('attributes', [])))
        if 'event' in op:
            lists.append(('event', op['event'].get('attributes', [])))
            if op.get('mcgrp') not in groups:
                errs.append(f"{where}: no multicast group {op.get('mcgrp')}")
        for what, names in lists:
            known = attrs_of(aset)
            for n in names:
                if n not in known:
                    errs.append(f'{where} {what}: no attribute {n} in {aset}')
    return errs



# ---- the hand-written kernel -----------------------------------------------

def strip_c_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def check_kernel_sources(paths):
    """No policy or op table is defined outside the generated sources."""
    errs = []
    table = re.compile(r'struct\s+(nla_policy|genl_ops|genl_small_ops)\s+'
                       r'(\w+)\s*\[[^\]]*\][^;=]*=')
    for path in paths:
        if path.endswith('-gen.c'):
            continue
        with open(path, encoding='utf-8') as f:
            text = strip_c_comments(f.read())
        for m in table.finditer(text):
            errs.append(f'kernel: {os.path.basename(path)} defines '
                        f'{m.group(1)} {m.group(2)}: policies and op tables '
                        'are generated from the spec (kstat-nl-gen.c)')
    return errs


# ---- real kernel messages -------------------------------------------------

NLA_F_NESTED = 0x8000
NLA_TYPE_MASK = 0x3fff
FIXED_LEN = {'u8': 1, 'u16': 2, 'u32': 4, 'u64': 8, 's8': 1, 's16': 2,
             's32': 4, 's64': 8, 'flag': 0}


def wire_attrs(buf):
    """(type, nested flag, payload) of each attribute in buf."""
    off = 0
    while off + 4 <= len(buf):
        ln, typ = struct.unpack_from('=HH', buf, off)
        if ln < 4 or off + ln > len(buf):
            raise ValueError(f'attribute length {ln} at offset {off}')
        yield typ & NLA_TYPE_MASK, bool(typ & NLA_F_NESTED), buf[off + 4:off + ln]
        off += (ln + 3) & ~3


def check_nest(spec, sets, set_name, buf, allowed, where, seen, errs):
    """Check one attribute space's worth of payload against the spec."""
    by_val, val = {}, 1
    for a in sets[set_name]['attributes']:
        val = a.get('value', val)
        by_val[val] = a
        val += 1
    counts = {}
    for typ, nested, data in wire_attrs(buf):
        a = by_val.get(typ)
        if a is None or a['type'] == 'unused':
            errs.append(f'{where}: attribute {typ} is not in set {set_name}')
            continue
        name = f"{set_name}.{a['name']}"
        seen.add(name)
        counts[a['name']] = counts.get(a['name'], 0) + 1
        if a['type'] == 'pad':
            continue
        if allowed is not None and a['name'] not in allowed:
            errs.append(f'{where}: {name} is not in the reply the spec lists')
        t = a['type']
        if t in FIXED_LEN and len(data) != FIXED_LEN[t]:
            errs.append(f'{where}: {name} is {t} but {len(data)} bytes long')
        elif t == 'string' and (not data or data[-1] != 0):
            errs.append(f'{where}: {name} is not a NUL-terminated string')
        elif t == 'binary' and a.get('sub-type') in FIXED_LEN and \
                len(data) % FIXED_LEN[a['sub-type']]:
            errs.append(f'{where}: {name} is not an array of {a["sub-type"]}')
        elif t == 'nest':
            if not nested:
                errs.append(f'{where}: {name} lacks NLA_F_NESTED')
            check_nest(spec, sets, a['nested-attributes'], data, None,
                       f'{where} > {name}', seen, errs)
    for n, c in counts.items():
        a = next(x for x in sets[set_name]['attributes'] if x['name'] == n)
        if c > 1 and not a.get('multi-attr') and a['type'] != 'pad':
            errs.append(f'{where}: {set_name}.{n} repeats ({c} times) but is '
                        'not multi-attr')


def check_wire(spec, paths):
    """Decode recorded replies with the spec; (errors, attributes seen)."""
    sets = {s['name']: s for s in spec['attribute-sets']}
    ops, val = {}, 1
    for op in spec['operations']['list']:
        val = op.get('value', val)
        ops[val] = op
        val += 1
    errs, seen = [], set()
    for path in paths:
        with open(path, 'rb') as f:
            buf = f.read()
        off = 0
        while off + 16 <= len(buf):
            ln, typ = struct.unpack_from('=IH', buf, off)
            if ln < 16 or off + ln > len(buf):
                errs.append(f'{path}: bad message length {ln} at {off}')
                break
            where = f'{os.path.basename(path)}@{off}'
            if typ >= 16:       # a family message, not DONE/ERROR/...
                cmd = buf[off + 16]
                op = ops.get(cmd)
                if op is None or 'attribute-set' not in op:
                    errs.append(f'{where}: command {cmd} is not in the spec')
                else:
                    allowed = set()
                    for mode in ('do', 'dump'):
                        allowed |= set(op.get(mode, {}).get('reply', {})
                                       .get('attributes', []))
                    allowed |= set(op.get('event', {}).get('attributes', []))
                    try:
                        check_nest(spec, sets, op['attribute-set'],
                                   buf[off + 20:off + ln], allowed,
                                   f"{where} {op['name']}", seen, errs)
                    except ValueError as e:
                        errs.append(f"{where} {op['name']}: {e}")
            off += (ln + 3) & ~3
    return errs, seen


UNPACK = {'u8': '=B', 'u16': '=H', 'u32': '=I', 'u64': '=Q', 's8': '=b',
          's16': '=h', 's32': '=i', 's64': '=q'}


def decode_nest(sets, set_name, buf):
    """One attribute space as the spec reads it: {name: value}, a list
    for multi-attr; binary with a sub-type as a list of numbers."""
    by_val, val = {}, 1
    for a in sets[set_name]['attributes']:
        val = a.get('value', val)
        by_val[val] = a
        val += 1
    out = {}
    for typ, _, data in wire_attrs(buf):
        a = by_val.get(typ)
        if a is None or a['type'] in ('unused', 'pad'):
            continue
        t = a['type']
        if t in UNPACK:
            v = struct.unpack(UNPACK[t], data)[0]
        elif t == 'string':
            v = data.rstrip(b'\0').decode()
        elif t == 'nest':
            v = decode_nest(sets, a['nested-attributes'], data)
        elif t == 'binary' and a.get('sub-type') in UNPACK:
            fmt = UNPACK[a['sub-type']]
            v = [x[0] for x in struct.iter_unpack(fmt, data)]
        else:
            v = data
        if a.get('multi-attr'):
            out.setdefault(a['name'], []).append(v)
        else:
            out[a['name']] = v
    return out


def decode_file(spec, path):
    """[(op name, {attributes})] of the family's messages in a recording."""
    sets = {s['name']: s for s in spec['attribute-sets']}
    ops, val = {}, 1
    for op in spec['operations']['list']:
        val = op.get('value', val)
        ops[val] = op
        val += 1
    with open(path, 'rb') as f:
        buf = f.read()
    out, off = [], 0
    while off + 16 <= len(buf):
        ln, typ = struct.unpack_from('=IH', buf, off)
        if ln < 16:
            break
        if typ >= 16:
            op = ops[buf[off + 16]]
            out.append((op['name'], decode_nest(sets, op['attribute-set'],
                                                buf[off + 20:off + ln])))
        off += (ln + 3) & ~3
    return out


def validate_schema(spec, schema_path):
    import jsonschema    # pylint: disable=import-outside-toplevel
    with open(schema_path, encoding='utf-8') as f:
        schema = load_yaml(f)
    try:
        jsonschema.validate(spec, schema)
    except jsonschema.ValidationError as e:
        where = '/'.join(str(p) for p in e.absolute_path)
        return [f'schema: {where}: {e.message}']
    return []


def check(spec_path, schema=None, kernel_src=None):
    """Every problem found, as a list of lines."""
    with open(spec_path, encoding='utf-8') as f:
        first = f.readline()
        f.seek(0)
        spec = load_yaml(f)
    errs = []
    if not first.startswith('# SPDX-License-Identifier: '):
        errs.append('spec: the first line must be an SPDX license tag')
    if schema:
        errs += validate_schema(spec, schema)
        if errs:
            return errs
    errs += ['spec: ' + e for e in check_references(spec)]
    if kernel_src:
        errs += check_kernel_sources(kernel_src)
    return errs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--schema', help='YNL JSON schema (YAML) to validate '
                    'against')
    ap.add_argument('--kernel-source', action='append',
                    help='a hand-written kernel source (repeat for each '
                    'file): it must define no policy or op table')
    ap.add_argument('spec')
    args = ap.parse_args()
    errs = check(args.spec, args.schema, args.kernel_source)
    for e in errs:
        print(e)
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
