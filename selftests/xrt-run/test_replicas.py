# SPDX-License-Identifier: MIT
"""xrt-run on modules of several replicas and partitions, against numpy.

Every collective, on several element types and group shapes, with
different values on every device: the module takes one input X of shape
[D, ...] (every device gets the same file) and device d computes on
X[d], sliced by its flattened id.  numpy computes each device's result
from X by the definition in XLA's operation semantics, folding in the
group's order, and the results must match exactly.  Also: the printed
'replica R:' lines, F.rR.pP.npy names, and refusals.

Usage: test_replicas.py XRT_RUN [DEVICE [MPIRUN]]   (DEVICE: reference by
default; KIND: such as host: runs device d on KIND:d, through --devices;
mpi runs one process of a host device per device, under MPIRUN)
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

RUN = sys.argv[1]
DEVICE = sys.argv[2] if len(sys.argv) > 2 else 'reference'
MPIRUN = [sys.argv[3], '--allow-run-as-root', '--oversubscribe',
          '--mca', 'btl_vader_single_copy_mechanism', 'none'] if DEVICE == 'mpi' else None
TYPES = {'f32': np.float32, 'f64': np.float64, 's32': np.int32, 's8': np.int8,
         'u8': np.uint8, 'f16': np.float16}
FAILS = []


def groups_of(text, n):
    """The groups a replica_groups text names (listed, {}, or an iota form)."""
    if text == '{}':
        return [list(range(n))]
    if text.startswith('['):
        shape, rest = text.split('<=')
        g, s = (int(v) for v in shape.strip('[]').split(','))
        if 'T' in rest:
            dims, perm = rest.split('T')
            dims = [int(v) for v in dims.strip('[]').split(',')]
            perm = [int(v) for v in perm.strip('()').split(',')]
            ids = np.arange(n).reshape(dims).transpose(perm).reshape(-1)
        else:
            ids = np.arange(n)
        return [list(ids[i * s:(i + 1) * s]) for i in range(g)]
    return [[int(v) for v in grp.split(',')] for grp in text[2:-2].split('},{')]


def group(groups, d):
    for g in groups:
        if d in g:
            return g, g.index(d)
    raise AssertionError(f'device {d} in no group')


def fold(vals, op, t):
    acc = vals[0]
    for v in vals[1:]:
        with np.errstate(over='ignore'):
            acc = op(acc, v).astype(t)
    return acc


# subtract has no REDUCE op: gathered or exchanged, then folded in the group's order
OPS = {'add': np.add, 'maximum': np.maximum, 'minimum': np.minimum, 'multiply': np.multiply,
       'subtract': np.subtract}


def module(replicas, tname, shape, body, result, partitions=1, op='add'):
    """A module slicing X[d] for device d, then body; d is the flattened id; f applies op."""
    dims = ','.join(str(v) for v in shape)
    d = replicas * partitions
    zeros = ', zero' * len(shape)
    sizes = ','.join(['1'] + [str(v) for v in shape])
    head = f'HloModule m, replica_count={replicas}'
    if partitions > 1:
        head += f', num_partitions={partitions}'
    return f'''{head}
f {{ a = {tname}[] parameter(0)
 b = {tname}[] parameter(1)
 ROOT s = {tname}[] {op}(a, b)
}}
ENTRY e {{
 X = {tname}[{d},{dims}] parameter(0)
 rid = u32[] replica-id()
 pid = u32[] partition-id()
 np = u32[] constant({partitions})
 rp = u32[] multiply(rid, np)
 id = u32[] add(rp, pid)
 zero = u32[] constant(0)
 row = {tname}[{sizes}] dynamic-slice(X, id{zeros}), dynamic_slice_sizes={{{sizes}}}
 x = {tname}[{dims}] reshape(row)
 ROOT r = {result} {body}
}}
'''


def where(devices):
    """The option naming where a module of that many devices runs."""
    if DEVICE.endswith(':'):
        return '--devices=' + ','.join(f'{DEVICE}{d}' for d in range(devices))
    return '--device=host' if MPIRUN else f'--device={DEVICE}'


def launch(devices):
    """What starts xrt-run: itself, or mpirun with a process per device."""
    return MPIRUN + ['-np', str(devices), RUN] if MPIRUN else [RUN]


def run(tmp, text, x, devices, partitions=1):
    """Runs text on input x; the results per device, or None (recorded as a failure)."""
    path = os.path.join(tmp, 'm.hlo')
    with open(path, 'w') as f:
        f.write(text)
    np.save(os.path.join(tmp, 'x.npy'), x)
    out = os.path.join(tmp, 'out.npy')
    p = subprocess.run(launch(devices) + [where(devices), f'--input={tmp}/x.npy',
                                          f'--output={out}', path],
                       capture_output=True, text=True)
    if p.returncode:
        FAILS.append(f'{text}\nexit {p.returncode}: {p.stderr}')
        return None
    res = []
    for d in range(devices):
        r, q = divmod(d, partitions)
        name = f'out.r{r}.p{q}.npy' if partitions > 1 else f'out.r{r}.npy'
        res.append(np.load(os.path.join(tmp, name)))
    return res


def check(what, got, want):
    if got is None:
        return
    for d, (g, w) in enumerate(zip(got, want)):
        if g.dtype != w.dtype or g.shape != w.shape or not np.array_equal(g, w, equal_nan=True):
            FAILS.append(f'{what}: device {d}: got {g!r}, want {w!r}')


def values(rng, t, shape):
    if np.issubdtype(t, np.floating):
        return rng.integers(-8, 8, size=shape).astype(t) / 4
    info = np.iinfo(t)
    return rng.integers(max(info.min, -50), min(info.max, 50), size=shape, endpoint=True).astype(t)


def collectives(tmp, rng):
    groups4 = ['{}', '{{0,1},{2,3}}', '{{0,2},{1,3}}', '{{3,2,1,0}}', '[2,2]<=[2,2]T(1,0)']
    # under mpirun every run starts processes: a float MPI sums, an
    # integer, and a float of libxrt's fold (test_xrt_distributed has all)
    types = {k: TYPES[k] for k in ('f32', 's8', 'f16')} if MPIRUN else TYPES
    for tname, t in types.items():
        for gtext in groups4:
            gs = groups_of(gtext, 4)
            size = len(gs[0])
            x = values(rng, t, (4, 4, 2))
            for op, fn in OPS.items():
                text = module(4, tname, (4, 2), f'all-reduce(x), replica_groups={gtext}, '
                              'to_apply=f', f'{tname}[4,2]', op=op)
                want = [fold([x[m] for m in group(gs, d)[0]], fn, t) for d in range(4)]
                check(f'all-reduce {op} {tname} {gtext}', run(tmp, text, x, 4), want)
            for dim in (0, 1):
                shape = [4, 2]
                shape[dim] *= size
                text = module(4, tname, (4, 2), f'all-gather(x), replica_groups={gtext}, '
                              f'dimensions={{{dim}}}', f'{tname}[{shape[0]},{shape[1]}]')
                want = [np.concatenate([x[m] for m in group(gs, d)[0]], axis=dim)
                        for d in range(4)]
                check(f'all-gather {tname} {gtext} dim {dim}', run(tmp, text, x, 4), want)
            # reduce-scatter and all-to-all split dimension 0 (4 rows) into the group's size
            for op in ('add', 'subtract'):
                text = module(4, tname, (4, 2), f'reduce-scatter(x), replica_groups={gtext}, '
                              'dimensions={0}, to_apply=f',
                              f'{tname}[{4 // size},2]', op=op)
                want = []
                for d in range(4):
                    g, me = group(gs, d)
                    s = fold([x[m] for m in g], OPS[op], t)
                    want.append(np.split(s, size, axis=0)[me])
                check(f'reduce-scatter {op} {tname} {gtext}', run(tmp, text, x, 4), want)
            text = module(4, tname, (4, 2), f'all-to-all(x), replica_groups={gtext}, '
                          'dimensions={0}', f'{tname}[4,2]')
            want = []
            for d in range(4):
                g, me = group(gs, d)
                want.append(np.concatenate([np.split(x[m], size, axis=0)[me] for m in g]))
            check(f'all-to-all {tname} {gtext}', run(tmp, text, x, 4), want)
            text = module(4, tname, (4, 2), f'collective-broadcast(x), replica_groups={gtext}',
                          f'{tname}[4,2]')
            want = [x[group(gs, d)[0][0]] for d in range(4)]
            check(f'collective-broadcast {tname} {gtext}', run(tmp, text, x, 4), want)
        for pairs in ([(0, 1), (1, 2), (2, 3), (3, 0)], [(2, 0)], [(1, 1), (3, 2)]):
            ptext = '{' + ','.join(f'{{{a},{b}}}' for a, b in pairs) + '}'
            x = values(rng, t, (4, 3, 2))
            text = module(4, tname, (3, 2), f'collective-permute(x), source_target_pairs={ptext}',
                          f'{tname}[3,2]')
            src = {b: a for a, b in pairs}
            want = [x[src[d]] if d in src else np.zeros((3, 2), t) for d in range(4)]
            check(f'collective-permute {tname} {ptext}', run(tmp, text, x, 4), want)


def partitions(tmp, rng):
    """Two replicas of three partitions: each mode's groups."""
    x = values(rng, np.float32, (6, 2))
    cases = [
        ('all-reduce(x), replica_groups={}, to_apply=f',
         lambda r, p: [0 * 3 + p, 1 * 3 + p]),
        ('all-reduce(x), channel_id=1, replica_groups={{1,0}}, to_apply=f',
         lambda r, p: [3, 4, 5, 0, 1, 2]),
        ('all-reduce(x), channel_id=1, replica_groups={{0,4},{1,2,3,5}}, '
         'use_global_device_ids=true, to_apply=f',
         lambda r, p: [0, 4] if r * 3 + p in (0, 4) else [1, 2, 3, 5]),
    ]
    for body, members in cases:
        text = module(2, 'f32', (2,), body, 'f32[2]', partitions=3)
        want = [fold([x[m] for m in members(d // 3, d % 3)], np.add, np.float32)
                for d in range(6)]
        check(body, run(tmp, text, x, 6, partitions=3), want)
    text = module(2, 'f32', (2,), 'collective-permute(x), channel_id=2, '
                  'source_target_pairs={{0,2},{2,1}}', 'f32[2]', partitions=3)
    want = [x[d - d % 3 + {1: 2, 2: 0}[d % 3]] if d % 3 else np.zeros(2, np.float32)
            for d in range(6)]
    check('cross-partition permute', run(tmp, text, x, 6, partitions=3), want)


def printing(tmp):
    """The result lines name each device, in order; one device prints as before."""
    text = module(2, 's32', (1,), 'all-reduce(x), replica_groups={}, to_apply=f',
                  's32[1]')
    path = os.path.join(tmp, 'p.hlo')
    with open(path, 'w') as f:
        f.write(text)
    np.save(os.path.join(tmp, 'p.npy'), np.array([[5], [7]], np.int32))
    p = subprocess.run(launch(2) + [where(2), f'--input={tmp}/p.npy', path],
                       capture_output=True, text=True)
    want = 'replica 0: result s32[1] {12}\nreplica 1: result s32[1] {12}\n'
    # under mpirun each process prints its own lines, in no set order
    got = ''.join(sorted(p.stdout.splitlines(True))) if MPIRUN else p.stdout
    if p.returncode or got != want:
        FAILS.append(f'printing: exit {p.returncode}, stdout {p.stdout!r}, want {want!r}')


def main():
    rng = np.random.default_rng(7)
    with tempfile.TemporaryDirectory() as tmp:
        collectives(tmp, rng)
        partitions(tmp, rng)
        printing(tmp)
    for f in FAILS[:20]:
        print('FAIL:', f)
    print(f'{len(FAILS)} failures')
    return 1 if FAILS else 0


if __name__ == '__main__':
    sys.exit(main())
