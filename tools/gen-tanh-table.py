#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The engine's f32 tanh table: driver/engine/tanh_table.h.

tanh is odd, so the engine takes c = min(|x|, 9.25) and puts the sign
back.  [0, 9.25] is cut into 32 slots of equal width, slot i = (int)(c *
TANH_STEP) in float arithmetic.  In each slot tanh(x0 + t), t = c - x0,
is a polynomial of degree 6 in t:

    r = c0 + (c1 * t + t * (t * q(t))),   q of degree 4 in Horner form

evaluated in float without fused multiply-adds, so every vector width
(and the kernel) gives the same bits.  The form keeps the rounding
errors small next to the result:

  * slot 0 has x0 = 0, c0 = 0, c1 = 1: r = t + t * (t * q), where the
    term added to t is at most a thirtieth of it (tanh(x) - x ~ -x^3/3),
    so small and subnormal x come out right;
  * elsewhere x0 is the float nearest the slot's middle whose tanh is
    within a hundredth of a step of a float, c0 (in slots 29 and 30,
    where tanh moves by less than a step, the one nearest a float: a
    fifth of a step off or less), t is exact (x0 and c are within a factor of two),
    and c1 * t + t * (t * q) is under a third of c0;
  * the last slot, from 8.99, is 1: tanh is within a step of 1 there and
    rounds to 1 from 9.0109, where a saturated result must be exact.

c1 and q are fitted by Lawson's weighted least squares (near-minimax) to
the error in units in the last place, then rounded to float one at a
time, lowest first, each refit of the rest absorbing the last rounding.

  gen-tanh-table.py > driver/engine/tanh_table.h
  gen-tanh-table.py --verify driver/engine/tanh_table.h

--verify evaluates the header's table over every non-negative float up
to 11 (above, every float takes the slot at 9.25) with numpy's float32
operations, the same IEEE operations as the engine, and checks each
result is within one step of the correctly rounded tanh and exactly 1
where tanh rounds to 1 (references in double, any more than a step off
checked again in long double).  It takes about a minute.
"""
import re
import sys

import numpy as np

F32, LD = np.float32, np.longdouble
SLOTS, QDEG = 32, 4
TOP = F32(9.25)
STEP = F32(F32(1) / F32(TOP / F32(SLOTS - 0.1)))   # (int)(9.25 * STEP) = 31


def slot_of(x):
    return int(F32(F32(x) * STEP))


def slot_bounds(i):
    """The first and last float of slot i, as their bits."""
    def first(j):
        lo, hi = 0, int(TOP.view(np.uint32)) + 1
        while lo < hi:
            m = (lo + hi) // 2
            if slot_of(np.uint32(m).view(F32)) >= j:
                hi = m
            else:
                lo = m + 1
        return lo
    return first(i), first(i + 1) - 1 if i < SLOTS - 1 else int(TOP.view(np.uint32))


def ulp(y):
    y = np.abs(np.asarray(y, dtype=np.float64))
    return 2.0 ** (np.floor(np.log2(np.maximum(y, 2.0 ** -126))) - 23)


def lawson(a, y, w, rounds=60):
    """Coefficients c minimizing max |(a @ c - y) * w|, near enough."""
    u = np.full(len(y), 1.0 / len(y))
    for _ in range(rounds):
        s = np.sqrt(u) * w
        c = np.linalg.lstsq(a * s[:, None], y * s, rcond=None)[0]
        u *= np.abs((a @ c - y) * w)
        u /= u.sum()
    return c


def centre(lo, hi):
    """The float nearest the slot's middle whose tanh is within a hundredth
    of a step of a float, else the one whose tanh is nearest a float (near
    1 tanh moves slowly: the search spans half the slot)."""
    a, b = np.uint32([lo, hi]).view(F32)
    mid = int(F32((float(a) + float(b)) / 2).view(np.uint32))
    span = (hi - lo) // 4
    cand = np.arange(mid - span, mid + span + 1, dtype=np.int64)
    x = cand.astype(np.uint32).view(F32)
    ref = np.tanh(x.astype(LD))
    off = np.abs((ref - ref.astype(F32).astype(LD)).astype(np.float64)) / ulp(ref.astype(np.float64))
    near = np.where(off < 0.01, np.abs(cand - mid), (1 << 40) + off * (1 << 30))
    k = int(np.argmin(near))
    return x[k], F32(np.tanh(LD(x[k])))


def fit_slot(i):
    if i == SLOTS - 1:
        return dict(x0=F32(9), c0=F32(1), c1=F32(0), q=[F32(0)] * (QDEG + 1))
    lo, hi = slot_bounds(i)
    x0, c0 = (F32(0), F32(0)) if i == 0 else centre(lo, hi)
    a, b = float(np.uint32(lo).view(F32)), float(np.uint32(hi).view(F32))
    x = ((a + b) / 2 + np.cos(np.linspace(0, np.pi, 6000)) * (b - a) / 2).astype(F32)
    x = np.unique(np.concatenate([x, [F32(a), F32(b)]]))
    if i == 0:
        x = x[x > 1e-4]     # below, t + t * (t * q) is t whatever q is
    t = (x - x0).astype(F32)
    t = t[t != 0]
    tl, tt = t.astype(LD), t.astype(np.float64)
    ref = np.tanh(LD(x0) + tl)
    w = 1.0 / ulp(ref.astype(np.float64))
    c1 = F32(1)
    if i:
        y = ((ref - LD(c0)) / tl).astype(np.float64)
        c1 = F32(lawson(np.vander(tt, QDEG + 2, increasing=True), y, w * np.abs(tt))[0])
    y = ((ref - LD(c0) - LD(c1) * tl) / (tl * tl)).astype(np.float64)
    v = np.vander(tt, QDEG + 1, increasing=True)
    q = []
    for k in range(QDEG + 1):
        c = lawson(v[:, k:], y, w * tt * tt)
        q.append(F32(c[0]))
        y = y - float(q[-1]) * v[:, k]
    return dict(x0=x0, c0=c0, c1=c1, q=q)


def lit(v):
    """A C float literal that reads back as exactly @v."""
    text = np.format_float_positional(F32(v), unique=True, trim='0')
    return text + 'f'


def wrap(items, indent, width=96):
    """@items as 'a, b,' lines of at most @width columns (a tab is 8)."""
    lines, line = [], ''
    for it in items:
        if line and 8 + len(line) + len(it) + 2 > width:
            lines.append(indent + line.rstrip())
            line = ''
        line += it + ', '
    lines.append(indent + line.rstrip())
    return [ln[:-1] + ',' if not ln.endswith(',') else ln for ln in lines]


def emit(slots):
    cols = [('x0', [s['x0'] for s in slots]), ('c0', [s['c0'] for s in slots]),
            ('c1', [s['c1'] for s in slots])]
    cols += [('q%d' % k, [s['q'][k] for s in slots]) for k in range(QDEG + 1)]
    assert [name for name, _ in cols] == NAMES
    out = ['/* SPDX-License-Identifier: GPL-2.0-only OR MIT */',
           '/* Generated by tools/gen-tanh-table.py; the method is described there. */',
           '#ifndef XRT_ENGINE_TANH_TABLE_H', '#define XRT_ENGINE_TANH_TABLE_H', '',
           '#define TANH_SLOTS\t%d' % SLOTS,
           '#define TANH_TOP\t%s' % lit(TOP),
           '#define TANH_STEP\t%s' % lit(STEP), '']
    for name, vals in cols:
        out.append('static const float tanh_%s[TANH_SLOTS] = {' % name)
        out += wrap([lit(v) for v in vals], '\t')
        out += ['};', '']
    out += ['/* The same, a slot to a row: x0, c0, c1, q0 ... q%d */' % QDEG,
            'static const float tanh_rows[TANH_SLOTS][%d] = {' % len(cols)]
    for j in range(SLOTS):
        row = wrap([lit(v[j]) for _, v in cols], '\t  ')
        row[0] = '\t{ ' + row[0][3:]
        row[-1] = row[-1][:-1] + ' },'
        out += row
    out += ['};', '', '#endif']
    return '\n'.join(out) + '\n'


FLOAT = r'(-?[0-9.]+(?:e[-+]?[0-9]+)?)f'
NAMES = ['x0', 'c0', 'c1'] + ['q%d' % k for k in range(QDEG + 1)]


def parse(path):
    """The header's tables, step and top; exits naming what is wrong."""
    def fail(what):
        raise SystemExit('%s: %s' % (path, what))

    text = open(path, encoding='utf-8').read()
    consts = dict(re.findall(r'^#define TANH_(SLOTS|TOP|STEP)\t(\S+)$', text, re.M))
    if sorted(consts) != ['SLOTS', 'STEP', 'TOP'] or consts['SLOTS'] != str(SLOTS):
        fail('wants TANH_SLOTS %d, TANH_TOP and TANH_STEP' % SLOTS)
    tab = {}
    for name, body in re.findall(r'tanh_(\w+)\[TANH_SLOTS\] = \{([^}]*)\}', text):
        tab[name] = np.array([float(v) for v in re.findall(FLOAT, body)], dtype=F32)
    for name in NAMES:
        if len(tab.get(name, ())) != SLOTS:
            fail('tanh_%s: wants %d floats' % (name, SLOTS))
    rows = re.search(r'tanh_rows\[TANH_SLOTS\]\[%d\] = \{(.*?)\n\};' % len(NAMES), text, re.S)
    rows = [[float(v) for v in re.findall(FLOAT, row)]
            for row in re.findall(r'\{([^}]*)\}', rows.group(1) if rows else '')]
    if len(rows) != SLOTS or any(len(r) != len(NAMES) for r in rows):
        fail('tanh_rows: wants %d rows of %d floats' % (SLOTS, len(NAMES)))
    if np.any(np.array(rows, dtype=F32).T != np.array([tab[k] for k in NAMES])):
        fail('tanh_rows differs from the columns')
    top, step = (F32(float(consts[k].rstrip('f'))) for k in ('TOP', 'STEP'))
    if int(F32(top * step)) != SLOTS - 1:
        fail('TANH_TOP * TANH_STEP must fall in the last slot')
    return tab, top, step


def evaluate(tab, top, step, x):
    """The engine's tanh of non-negative x, in the same float operations."""
    c = np.minimum(x, top)
    i = (c * step).astype(np.int32)
    t = c - tab['x0'][i]
    q = tab['q%d' % QDEG][i]
    for k in range(QDEG - 1, -1, -1):
        q = q * t + tab['q%d' % k][i]
    return tab['c0'][i] + (tab['c1'][i] * t + t * (t * q))


def verify(path):
    tab, top, step = parse(path)
    end, chunk, worst = int(F32(11).view(np.uint32)), 1 << 22, 0
    for start in range(0, end + 1, chunk):
        x = np.arange(start, min(start + chunk, end + 1), dtype=np.uint32).view(F32)
        y = evaluate(tab, top, step, x)
        want = np.tanh(x.astype(np.float64)).astype(F32)
        steps = np.abs(y.view(np.int32).astype(np.int64) - want.view(np.int32))
        doubt = steps > 1
        if doubt.any():     # a double reference may round the other way
            want[doubt] = np.tanh(x[doubt].astype(LD)).astype(F32)
            steps = np.abs(y.view(np.int32).astype(np.int64) - want.view(np.int32))
        bad = (steps > 1) | ((want == 1) & (y != 1))
        if bad.any():
            k = int(np.argmax(bad))
            print('tanh(%r) = %r, want %r' % (float(x[k]), float(y[k]), float(want[k])))
            return 1
        worst = max(worst, int(steps.max()))
    print('every float: within %d step of tanh; 1 wherever tanh rounds to 1' % worst)
    return 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--verify':
        return verify(sys.argv[2])
    if len(sys.argv) != 1:
        print(__doc__.split('\n\n')[-2], file=sys.stderr)
        return 2
    sys.stdout.write(emit([fit_slot(i) for i in range(SLOTS)]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
