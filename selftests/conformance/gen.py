# SPDX-License-Identifier: MIT
"""Writes the conformance suite: every case of tables.py compiled by real
XLA (jaxlib's CPU backend) and run by it.  For each case, under
cases/GROUP/:

  NAME.before.hlo  NAME.before.pb   the module JAX lowers (text, HloProto)
  NAME.after.hlo   NAME.after.pb    the same after XLA's CPU optimizations
  NAME.io          the inputs and XLA's outputs as HLO literals

and cases/INDEX, a line per case.  Expected values come from XLA only,
never from XRT.  Run in the oracle environment (tools/install-deps.sh
makes it):

  python gen.py                 rewrite cases/
  python gen.py --check DIR     write into DIR, then exit 1 if any input
                                differs from cases/, or any output beyond
                                its case's tolerance class (drift.py: XLA
                                differs between CPUs) (make check runs
                                this where the environment is)
"""
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DUMP = tempfile.mkdtemp(prefix='xrt-conformance-dump-')
os.environ['XLA_FLAGS'] = ('--xla_dump_to=%s --xla_dump_hlo_as_text --xla_dump_hlo_as_proto '
                           '--xla_dump_large_constants' % DUMP)
os.environ['JAX_PLATFORMS'] = 'cpu'
os.environ['JAX_ENABLE_X64'] = '1'

import jax  # noqa: E402
import numpy as np  # noqa: E402

import drift  # noqa: E402
import tables  # noqa: E402
from literal import literal_text  # noqa: E402

# metadata names files without their directories, and no line: the
# files do not change when this folder moves or tables.py is edited
jax.config.update('jax_hlo_source_file_canonicalization_regex', '.*')
VERSIONS = 'jax %s jaxlib %s' % (jax.__version__, jax.lib.__version__)


def dumps(name, fn, args):
    """Compiles @fn for @args; XLA's four dumps of it as {tag: bytes}."""
    before = set(os.listdir(DUMP))
    jax.jit(fn, keep_unused=True).lower(*args).compile()
    new = [n for n in set(os.listdir(DUMP)) - before if '.jit_' in n]
    got = {}
    for stage, tag in (('before_optimizations', 'before'), ('cpu_after_optimizations', 'after')):
        for ext, out in (('.hlo.pb', '.pb'), ('.txt', '.hlo')):
            hits = [n for n in new if n.endswith('.' + stage + ext)]
            if len(hits) != 1:
                sys.exit('%s: %d %s%s dumps' % (name, len(hits), stage, ext))
            with open(os.path.join(DUMP, hits[0]), 'rb') as f:
                got[tag + out] = f.read()
    return got


def io_text(case, args):
    """The .io file: versions, tolerance class, inputs, XLA's outputs."""
    outs = jax.tree_util.tree_leaves(jax.jit(case.fn, keep_unused=True)(*args))
    lines = ['# %s: XLA CPU outputs (selftests/conformance/gen.py)' % VERSIONS, 'tol ' + case.tol]
    lines += ['in %s %s' % literal_text(np.asarray(a)) for a in args]
    lines += ['out %s %s' % literal_text(np.asarray(o)) for o in outs]
    return '\n'.join(lines) + '\n'


def write(root, only=None):
    index = []
    for case in tables.cases():
        if only and only not in case.name:
            continue
        args = case.args()
        folder = os.path.join(root, case.group)
        os.makedirs(folder, exist_ok=True)
        for tag, data in dumps(case.name, case.fn, args).items():
            with open(os.path.join(folder, '%s.%s' % (case.name, tag)), 'wb') as f:
                f.write(data)
        with open(os.path.join(folder, case.name + '.io'), 'w') as f:
            f.write(io_text(case, args))
        index.append('%s/%s' % (case.group, case.name))
    if only:
        return index
    with open(os.path.join(root, 'INDEX'), 'w') as f:
        f.write('# %s; %d cases\n' % (VERSIONS, len(index)))
        f.write('\n'.join(index) + '\n')
    return index


def values(path):
    """The in and out lines of an .io file."""
    with open(path) as f:
        return [ln for ln in f.read().splitlines() if ln.startswith(('in ', 'out '))]


def check(tmp):
    """Regenerates into @tmp; the cases whose inputs or outputs changed."""
    index = write(tmp)
    ref = os.path.join(HERE, 'cases')
    changed = []
    with open(os.path.join(ref, 'INDEX')) as f:
        if [ln for ln in f.read().splitlines()[1:]] != index:
            changed.append('INDEX (the cases themselves)')
    for c in index:
        old = os.path.join(ref, c + '.io')
        if not os.path.exists(old) or not same(old, os.path.join(tmp, c + '.io')):
            changed.append(c)
    return changed


def same(old, new):
    """The same inputs, and outputs within the case's class (drift.py: CPUs differ)."""
    with open(old) as f:
        tol = next((ln.split()[1] for ln in f if ln.startswith('tol ')), 'exact')
    a, b = values(old), values(new)
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x.startswith('in ') or y.startswith('in '):
            if x != y:
                return False
        elif drift.moved(x, y, tol):
            return False
    return True


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == '--check':
            changed = check(argv[2])
            for c in changed:
                print('gen.py: XLA now gives other values for %s' % c)
            print('gen.py: %d cases regenerated by %s, %d changed' %
                  (len(open(os.path.join(argv[2], 'INDEX')).read().splitlines()) - 1, VERSIONS,
                   len(changed)))
            return 1 if changed else 0
        if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith('-')):
            sys.exit('usage: gen.py [--check DIR | NAME-PART]')
        out = os.path.join(HERE, 'cases')
        if len(argv) == 1:
            shutil.rmtree(out, ignore_errors=True)
        n = write(out, argv[1] if len(argv) == 2 else None)
        print('gen.py: %d cases written by %s' % (len(n), VERSIONS))
        return 0
    finally:
        shutil.rmtree(DUMP)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
