#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check a YNL genetlink spec against the C uAPI header it describes.

    ynl_check.py [--schema SCHEMA] --header HEADER [--kernel-source FILE] SPEC

1. With --schema, validate SPEC against the YNL JSON schema (needs
   python3-jsonschema).
2. Check that SPEC is consistent in itself: the attribute sets, enums and
   multicast groups it refers to exist.
3. Derive every C name and value the kernel's YNL uAPI generator
   (tools/net/ynl, render_uapi) would emit for SPEC: commands, every
   attribute set with its count and max names, enum and flags entries,
   constants, the family name and version defines, multicast group defines,
   enum type names.  Compile a C file of _Static_assert()s, one per name,
   against HEADER: a name missing from the header or with another value
   fails the build.
4. Scan HEADER for every enum type, enumerator and #define and fail for
   each one SPEC does not produce.
5. With --kernel-source, read the family's genl_ops and nla_policy tables
   (from every file given), and the GET commands of the kst_section
   definitions (netlink.c registers one op per section with a get_cmd),
   and check them against the spec's operations: do/dump, admin-perm, the
   attributes each op's policy accepts (= its do + dump request
   attributes), their types and min/max/mask/max-len, nested policies
   included.  A per-op mask may be narrower than the spec's; the spec's
   must be the union of the ops' masks.

Exit 0 when all agree, 1 with one line per mismatch otherwise.
"""

import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

import yaml


def load_yaml(stream):
    """yaml.safe_load, with libyaml's parser when there is one."""
    return yaml.load(stream, Loader=getattr(yaml, 'CSafeLoader',
                                            yaml.SafeLoader))


def c_upper(name):
    return name.upper().replace('-', '_')


def c_lower(name):
    return name.lower().replace('-', '_')


class Derived:
    """C names derived from a spec: ints, strings and enum type names."""

    def __init__(self):
        self.ints = {}        # C name -> integer value
        self.strings = {}     # C name -> string value
        self.enum_types = set()
        self.guard = None
        self.errors = []

    def add_int(self, name, value):
        if name in self.ints or name in self.strings:
            self.errors.append(f'spec: {name} is produced twice')
        self.ints[name] = value

    def add_string(self, name, value):
        if name in self.ints or name in self.strings:
            self.errors.append(f'spec: {name} is produced twice')
        self.strings[name] = value

    def names(self):
        return set(self.ints) | set(self.strings)


def enum_type(family, yaml_obj, key, default_name=None):
    """The C enum type name (without 'enum '), or None when anonymous."""
    if key in yaml_obj:
        return c_lower(yaml_obj[key]) if yaml_obj[key] else None
    if default_name:
        return c_lower(f"{family}-{default_name}")
    return None


def derive_definitions(spec, fam, out):
    for d in spec.get('definitions', []):
        if d.get('header'):
            continue        # defined by another header, not ours
        if d['type'] in ('enum', 'flags'):
            etype = enum_type(fam, d, 'enum-name', d['name'])
            if etype:
                out.enum_types.add(etype)
            pfx = d.get('name-prefix', f"{fam}-{d['name']}-")
            val = d.get('value-start', 0)
            if not isinstance(val, int):
                out.errors.append(f"spec: {d['name']}: value-start must "
                                  "be an integer for this checker")
                continue
            first = True
            for e in d['entries']:
                if isinstance(e, str):
                    e = {'name': e}
                if 'value' in e:
                    val = e['value']
                elif not first:
                    val += 1
                first = False
                user = (1 << val) if d['type'] == 'flags' else val
                out.add_int(c_upper(pfx + e['name']), user)
            if d.get('render-max'):
                if d['type'] == 'flags':
                    mask = 0
                    for name, v in list(out.ints.items()):
                        if name.startswith(c_upper(pfx)):
                            mask |= v
                    out.add_int(c_upper(pfx + 'mask'), mask)
                else:
                    cnt = d.get('enum-cnt-name', '__' + pfx + 'max')
                    out.add_int(c_upper(cnt), val + 1)
                    out.add_int(c_upper(pfx + 'max'), val)
        elif d['type'] == 'const':
            pfx = d.get('name-prefix', f"{fam}-")
            name = c_upper(pfx + d['name'])
            if isinstance(d['value'], int):
                out.add_int(name, d['value'])
            else:
                out.errors.append(f'spec: {name}: only integer constants '
                                  'can be checked')
        else:
            out.errors.append(f"spec: definition type {d['type']} is not "
                              'supported by this checker')


def derive_attr_sets(spec, fam, out):
    for s in spec['attribute-sets']:
        if s.get('subset-of'):
            continue        # subsets render nothing of their own
        if 'name-prefix' in s:
            pfx = s['name-prefix']
        elif s['name'] == spec['name']:
            pfx = fam + '-a-'
        else:
            pfx = f"{fam}-a-{s['name']}-"
        etype = enum_type(fam, s, 'enum-name')
        if etype:
            out.enum_types.add(etype)
        val = 1
        last = None
        for a in s['attributes']:
            if 'value' in a:
                val = a['value']
            apfx = a.get('name-prefix', pfx)
            out.add_int(c_upper(apfx + a['name']), val)
            last = val
            val += 1
        cnt = c_upper(s.get('attr-cnt-name', f"__{pfx}max"))
        mx = c_upper(s.get('attr-max-name', f"{pfx}max"))
        out.add_int(cnt, (last if last is not None else -1) + 1)
        out.add_int(mx, last if last is not None else -1)


def derive_ops(spec, fam, out):
    ops = spec['operations']
    if ops.get('enum-model', 'unified') != 'unified' or 'async-prefix' in ops:
        out.errors.append('spec: only the unified operation model with one '
                          'enum is supported by this checker')
        return
    prefix = ops.get('name-prefix', spec['name'] + '-cmd-')
    etype = enum_type(fam, ops, 'enum-name')
    if etype:
        out.enum_types.add(etype)
    val = 1
    last = 0
    for op in ops['list']:
        if 'value' in op:
            val = op['value']
        out.add_int(c_upper(prefix + op['name']), val)
        last = val
        val += 1
    out.add_int(c_upper(spec.get('cmd-cnt-name', f"__{prefix}max")), last + 1)
    out.add_int(c_upper(spec.get('cmd-max-name', f"{prefix}max")), last)


def derive(spec):
    """All names and values the YNL uAPI generator would emit for spec."""
    out = Derived()
    fam = spec['name'].replace('-', '_')
    hdr = spec.get('uapi-header', f"linux/{fam}.h")
    if hdr.startswith('linux/') and hdr.endswith('.h'):
        hdr = hdr[6:-2]
    else:
        hdr = fam
    out.guard = f"_UAPI_LINUX_{c_upper(hdr)}_H".replace('/', '_')

    out.add_string(c_upper(spec.get('c-family-name',
                                    spec['name'] + '_FAMILY_NAME')),
                   spec['name'])
    out.add_int(c_upper(spec.get('c-version-name',
                                 spec['name'] + '_FAMILY_VERSION')),
                spec.get('version', 1))
    derive_definitions(spec, fam, out)
    derive_attr_sets(spec, fam, out)
    derive_ops(spec, fam, out)
    for grp in spec.get('mcast-groups', {}).get('list', []):
        out.add_string(c_upper(grp.get('c-define-name',
                                       f"{fam}-mcgrp-{grp['name']}")),
                       grp['name'])
    return out


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


def c_string(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def compile_asserts(derived, header, cc):
    """One _Static_assert per derived name; the compiler's errors name them."""
    lines = [f'#include "{os.path.abspath(header)}"', '']
    for t in sorted(derived.enum_types):
        lines.append(f'_Static_assert(sizeof(enum {t}) > 0, "enum {t}");')
    for name, val in sorted(derived.ints.items()):
        lines.append(f'_Static_assert({name} == {val}, '
                     f'"spec: {name} == {val}");')
    for name, val in sorted(derived.strings.items()):
        lines.append(f'_Static_assert(__builtin_strcmp({name}, '
                     f'{c_string(val)}) == 0, '
                     f'"spec: {name} == \\"{val}\\"");')
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'ynl_check.c')
        with open(src, 'w', encoding='utf-8') as f:
            f.write('\n'.join(lines) + '\n')
        res = subprocess.run([cc, '-std=gnu11', '-fmax-errors=0', '-c', src,
                              '-o', os.path.join(tmp, 'ynl_check.o')],
                             capture_output=True, text=True, check=False)
    errs = []
    if res.returncode:
        for line in res.stderr.splitlines():
            m = re.search(r'error: (.*)', line)
            if m:
                errs.append('header: ' + m.group(1))
        if not errs:
            errs.append('header: compile failed: ' + res.stderr.strip())
    return errs


def header_names(path):
    """Enum type names, enumerators and #defines of a C header."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    defines = set(re.findall(r'^\s*#\s*define\s+(\w+)', text, flags=re.M))
    types = set()
    enumerators = set()
    for m in re.finditer(r'\benum\s*(\w*)\s*\{(.*?)\}', text, flags=re.S):
        if m.group(1):
            types.add(m.group(1))
        for item in m.group(2).split(','):
            ident = re.match(r'\s*([A-Za-z_]\w*)', item)
            if ident:
                enumerators.add(ident.group(1))
    return types, enumerators, defines


def check_reverse(derived, header):
    types, enumerators, defines = header_names(header)
    names = derived.names()
    errs = []
    for t in sorted(types - derived.enum_types):
        errs.append(f'spec: header has enum {t}, the spec does not')
    for n in sorted(enumerators - names):
        errs.append(f'spec: header has enumerator {n}, the spec does not')
    for n in sorted(defines - names - {derived.guard}):
        errs.append(f'spec: header has #define {n}, the spec does not')
    return errs


# ---- the kernel's policies ------------------------------------------------

NLA_TYPES = {'u8': 'NLA_U8', 'u16': 'NLA_U16', 'u32': 'NLA_U32',
             'u64': 'NLA_U64', 's8': 'NLA_S8', 's16': 'NLA_S16',
             's32': 'NLA_S32', 's64': 'NLA_S64', 'flag': 'NLA_FLAG',
             'string': 'NLA_NUL_STRING', 'binary': 'NLA_BINARY',
             'nest': 'NLA_NESTED'}


def split_args(text):
    """Split a C argument list at its top-level commas."""
    args, depth, cur = [], 0, ''
    for ch in text:
        if ch == ',' and depth == 0:
            args.append(cur.strip())
            cur = ''
            continue
        depth += ch in '({'
        depth -= ch in ')}'
        cur += ch
    if cur.strip():
        args.append(cur.strip())
    return args


def parse_policy_entry(text, ranges):
    """A policy initializer -> (NLA type, {check: C expression}, nested)."""
    text = text.strip().rstrip(',').strip()
    m = re.fullmatch(r'NLA_POLICY_(\w+)\((.*)\)', text, flags=re.S)
    if m:
        kind, args = m.group(1), split_args(m.group(2))
        if kind == 'NESTED':
            return 'NLA_NESTED', {}, args[0]
        if kind == 'MASK':
            return args[0], {'mask': args[1]}, None
        if kind == 'RANGE':
            return args[0], {'min': args[1], 'max': args[2]}, None
        if kind == 'MAX':
            return args[0], {'max': args[1]}, None
        if kind == 'MIN':
            return args[0], {'min': args[1]}, None
        if kind == 'FULL_RANGE':
            return args[0], dict(ranges[args[1].lstrip('&')]), None
        raise ValueError(f'unknown policy macro NLA_POLICY_{kind}')
    m = re.fullmatch(r'\{(.*)\}', text, flags=re.S)
    if not m:
        raise ValueError(f'cannot read policy entry {text!r}')
    fields = dict(re.findall(r'\.(\w+)\s*=\s*([^,]+)', m.group(1)))
    checks = {}
    if 'len' in fields:
        checks['max-len'] = fields['len'].strip()
    return fields['type'].strip(), checks, None


def parse_kernel(paths):
    """Policies, range validations and ops of genetlink source files."""
    text = ''
    for path in [paths] if isinstance(paths, str) else paths:
        with open(path, encoding='utf-8') as f:
            text += f.read() + '\n'
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    ranges = {}
    for m in re.finditer(r'struct netlink_range_validation\s+(\w+)\s*=\s*'
                         r'\{(.*?)\};', text, flags=re.S):
        fields = dict(re.findall(r'\.(min|max)\s*=\s*([^,]+)', m.group(2)))
        ranges[m.group(1)] = {k: v.strip() for k, v in fields.items()
                              if k == 'max' or v.strip() != '0'}
    policies = {}
    for m in re.finditer(r'struct nla_policy\s+(\w+)\s*\[[^\]]*\]\s*=\s*'
                         r'\{(.*?)\n\};', text, flags=re.S):
        body = m.group(2)
        starts = list(re.finditer(r'\[(\w+)\]\s*=', body))
        entries = {}
        for i, st in enumerate(starts):
            end = starts[i + 1].start() if i + 1 < len(starts) else len(body)
            entries[st.group(1)] = parse_policy_entry(body[st.end():end],
                                                      ranges)
        policies[m.group(1)] = entries
    ops = {}
    m = re.search(r'struct genl_ops\s+\w+\s*\[\]\s*=\s*\{(.*?)\n\};',
                  text, flags=re.S)
    for blk in re.findall(r'\{([^{}]*)\}', m.group(1) if m else ''):
        fields = dict(re.findall(r'\.(\w+)\s*=\s*(\w+)', blk))
        ops[fields['cmd']] = fields
    for cmd, op in section_ops(text).items():
        if cmd in ops:
            raise ValueError(f'{cmd} is both in genl_ops and a section')
        ops[cmd] = op
    return policies, ops


def section_ops(text):
    """The genl_ops netlink.c makes of each kst_section with a command.

    As kst_section_op() builds them: a doit always, the dump callbacks
    when the section's get ops have a .dump, its get_policy, no flags.
    """
    ops = {}
    for m in re.finditer(r'struct kst_section\s+\w+\s*=\s*\{(.*?)\n\};',
                         text, flags=re.S):
        fields = dict(re.findall(r'\.(\w+)\s*=\s*(\w+)', m.group(1)))
        if 'get_cmd' not in fields:
            continue
        op = {'cmd': fields['get_cmd'], 'doit': 'kst_nl_get_doit'}
        if 'get_policy' in fields:
            op['policy'] = fields['get_policy']
        if 'dump' in fields:
            op['dumpit'] = 'kst_nl_get_dumpit'
        if op['cmd'] in ops:
            raise ValueError(f"two sections have command {op['cmd']}")
        ops[op['cmd']] = op
    return ops


def spec_checks(spec, attr):
    """The checks a spec attribute asks for, as C expressions."""
    checks = {}
    for key in ('min', 'max', 'max-len', 'min-len', 'exact-len'):
        if key in attr.get('checks', {}):
            checks[key] = str(attr['checks'][key])
    consts = {d['name']: d for d in spec.get('definitions', [])}
    flags = attr.get('checks', {}).get('flags-mask') or attr.get('enum')
    if flags and consts[flags]['type'] == 'flags':
        checks['mask'] = str((1 << len(consts[flags]['entries'])) - 1)
    return checks


def check_policies(spec, kernel_src, header, cc):
    """The kernel's ops and policies are what the spec says, both ways."""
    errs, asserts = [], []     # asserts: (C expression, what it says)
    try:
        policies, kops = parse_kernel(kernel_src)
    except (ValueError, KeyError) as e:
        return [f'kernel: {kernel_src}: {e}']
    sets = {s['name']: s for s in spec['attribute-sets']}
    by_c = {}          # C name -> (set name, attribute)
    for s in spec['attribute-sets']:
        pfx = c_upper(s.get('name-prefix', ''))
        for a in s['attributes']:
            by_c[pfx + c_upper(a['name'])] = (s['name'], a)
    prefix = c_upper(spec['operations'].get('name-prefix',
                                            spec['name'] + '-cmd-'))
    masks = {}         # attribute C name -> [(op, kernel mask)]

    def compare(where, cname, entry):
        ktype, kchecks, nested = entry
        if cname not in by_c:
            errs.append(f'{where}: {cname} is not a spec attribute')
            return
        attr = by_c[cname][1]
        want = NLA_TYPES.get(attr['type'])
        if ktype != want:
            errs.append(f'{where}: {cname} is {ktype} in the kernel, '
                        f'{attr["type"]} ({want}) in the spec')
        schecks = spec_checks(spec, attr)
        for key in sorted(set(kchecks) | set(schecks)):
            if key == 'mask' and key in kchecks:
                masks.setdefault(cname, []).append((where, kchecks[key]))
                if key in schecks:     # a per-op policy may be narrower
                    asserts.append((f'(({kchecks[key]}) & ~({schecks[key]}))'
                                    f' == 0', f'{where}: {cname} mask '
                                    f'{kchecks[key]} within spec {schecks[key]}'))
                    continue
            if key not in kchecks or key not in schecks:
                side = 'kernel' if key in kchecks else 'spec'
                errs.append(f'{where}: {cname} has check {key} only in the '
                            f'{side}')
                continue
            asserts.append((f'({kchecks[key]}) == ({schecks[key]})',
                            f'{where}: {cname} {key} {kchecks[key]} == spec '
                            f'{schecks[key]}'))
        if nested:
            nest = attr.get('nested-attributes')
            if nested not in policies:
                errs.append(f'{where}: no policy {nested}')
                return
            pol = policies[nested]
            for cn, ent in pol.items():
                compare(f'{where} > {nested}', cn, ent)
            for a in sets[nest]['attributes']:
                cn = c_upper(sets[nest].get('name-prefix', '')) + \
                    c_upper(a['name'])
                if a['type'] not in ('unused', 'pad') and cn not in pol and \
                   spec_checks(spec, a):
                    errs.append(f'{where} > {nested}: spec checks {cn}, the '
                                'policy does not have it')

    spec_ops = {prefix + c_upper(op['name']): op
                for op in spec['operations']['list']
                if 'do' in op or 'dump' in op}
    for cmd in sorted(set(kops) | set(spec_ops)):
        where = f'op {cmd}'
        if cmd not in kops or cmd not in spec_ops:
            errs.append(f'{where}: only in the '
                        f'{"kernel" if cmd in kops else "spec"}')
            continue
        kop, sop = kops[cmd], spec_ops[cmd]
        for mode, cb in (('do', 'doit'), ('dump', 'dumpit')):
            if (mode in sop) != (cb in kop):
                errs.append(f'{where}: {mode} is '
                            f'{"in" if mode in sop else "not in"} the spec, '
                            f'.{cb} {"is" if cb in kop else "is not"} set')
        admin = kop.get('flags') == 'GENL_ADMIN_PERM'
        if admin != ('admin-perm' in sop.get('flags', [])):
            errs.append(f'{where}: admin-perm differs (kernel .flags = '
                        f'{kop.get("flags")})')
        req = set()
        for mode in ('do', 'dump'):
            req |= set(sop.get(mode, {}).get('request', {})
                       .get('attributes', []))
        aset = sets.get(sop.get('attribute-set'), {'attributes': []})
        pfx = c_upper(aset.get('name-prefix', ''))
        req = {pfx + c_upper(n) for n in req}
        pol = policies.get(kop.get('policy'), {})
        if kop.get('policy') and kop['policy'] not in policies:
            errs.append(f'{where}: no policy {kop["policy"]}')
        for cname in sorted(set(pol) ^ req):
            errs.append(f'{where}: {cname} is in the '
                        f'{"kernel policy" if cname in pol else "spec request"}'
                        ' only')
        for cname, entry in pol.items():
            compare(where, cname, entry)
    # A mask the spec states must be the widest some op accepts.
    for cname, uses in masks.items():
        schecks = spec_checks(spec, by_c[cname][1])
        if 'mask' in schecks:
            union = ' | '.join(f'({k})' for _, k in uses)
            asserts.append((f'({union}) == ({schecks["mask"]})',
                            f'{cname}: spec mask {schecks["mask"]} is the '
                            'union of the kernel masks'))
    errs += compile_policy_asserts(asserts, header, cc)
    return errs


def compile_policy_asserts(asserts, header, cc):
    lines = ['#include <linux/types.h>',
             'typedef __u8 u8; typedef __u16 u16;',
             'typedef __u32 u32; typedef __u64 u64;',
             f'#include "{os.path.abspath(header)}"', '']
    for expr, what in asserts:
        lines.append(f'_Static_assert({expr}, "policy: {what}");')
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'policy_check.c')
        with open(src, 'w', encoding='utf-8') as f:
            f.write('\n'.join(lines) + '\n')
        res = subprocess.run([cc, '-std=gnu11', '-fmax-errors=0', '-c', src,
                              '-o', os.path.join(tmp, 'policy_check.o')],
                             capture_output=True, text=True, check=False)
    errs = [f'kernel: {m.group(1)}' for m in
            re.finditer(r'error: (.*)', res.stderr)]
    if res.returncode and not errs:
        errs.append('kernel: compile failed: ' + res.stderr.strip())
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
                    check_nest(spec, sets, op['attribute-set'],
                               buf[off + 20:off + ln], allowed,
                               f"{where} {op['name']}", seen, errs)
            off += (ln + 3) & ~3
    return errs, seen


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


def check(spec_path, header, schema=None, cc='gcc', kernel_src=None):
    """Every mismatch between spec and header, as a list of lines."""
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
    derived = derive(spec)
    errs += derived.errors
    errs += compile_asserts(derived, header, cc)
    errs += check_reverse(derived, header)
    if kernel_src:
        errs += check_policies(spec, kernel_src, header, cc)
    return errs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--schema', help='YNL JSON schema (YAML) to validate '
                    'against')
    ap.add_argument('--header', required=True, help='the uAPI header')
    ap.add_argument('--cc', default=os.environ.get('CC', 'gcc'))
    ap.add_argument('--kernel-source', action='append',
                    help='a C source of the family\'s genl_ops and policies '
                    '(repeat for each file): check them too')
    ap.add_argument('spec')
    args = ap.parse_args()
    errs = check(args.spec, args.header, args.schema, args.cc,
                 args.kernel_source)
    for e in errs:
        print(e)
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
