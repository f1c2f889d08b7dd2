#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The build keeps the layers: a source file of a part compiled with its
own flags (from compile_commands.json) may include what its part is
granted and must fail to include anything else.  For each case the
allowed include compiles (so the harness itself works) and each
forbidden one fails for want of the header (gcc says "No such file",
clang "file not found")."""
import json
import os
import shlex
import subprocess
import sys
import tempfile

# part (one of its sources), what it may include, what it must not
CASES = [
    ('libxrt/device/host/host_run.c', ['device/device.h', 'cstream/executable.h',
                                       'engine/engine.h', 'core/mem.h'],
     ['compiler/compiler.h', 'ir/ir.h', 'eval/eval.h', 'xrt_internal.h',
      'registry/open.h', 'engine_internal.h']),
    ('libxrt/device/accel/accel_queue.c', ['device/device.h', 'drm/xrt_accel.h'],
     ['compiler/compiler.h', 'host_device.h', 'cc.h']),
    ('libxrt/compiler/cc_main.c', ['cstream/cs_builder.h', 'ir/ir.h'],
     ['device/device.h', 'engine/engine.h', 'eval/eval.h', 'wire/wire.h']),
    ('libxrt/cstream/cs_builder.c', ['core/mem.h', 'drm/xrt_accel_cs.h'],
     ['engine/engine.h', 'compiler/compiler.h', 'ir/ir.h']),
    ('libxrt/eval/eval.c', ['ir/ir.h'], ['compiler/compiler.h', 'device/device.h',
                                         'verify.h']),
    ('libxrt/ir/ir_module.c', ['wire/wire.h', 'core/shape.h'],
     ['eval/eval.h', 'compiler/compiler.h']),
    ('libxrt/core/literal.c', ['core/literal.h'], ['ir/ir.h', 'wire/wire.h']),
    ('libxrt/xrt/xrt_exec.c', ['compiler/compiler.h', 'registry/open.h'],
     ['host_device.h', 'eager_internal.h', 'cc.h']),
    ('libxrt/eager/eager_execute.c', ['runtime/cache.h', 'runtime/copy.h', 'device/device.h',
                                      'cstream/executable.h'],
     ['host_device.h', 'xrt_internal.h', 'compiler/compiler.h', 'eval/eval.h']),
    ('libxrt/runtime/rt_cache.c', ['compiler/compiler.h', 'device/device.h'],
     ['xrt_internal.h', 'eager_internal.h', 'registry/open.h']),
    ('libxrt/collective/coll_local.c', ['device/device.h', 'engine/scalar.h', 'core/mem.h'],
     ['compiler/compiler.h', 'ir/ir.h', 'eval/eval.h', 'host_device.h', 'runtime/cache.h',
      'engine_internal.h']),
    ('libxrt/registry/registry_open.c', ['device/device.h'],
     ['host_device.h', 'accel.h', 'compiler/compiler.h']),
]


def command_for(build, src, path):
    with open(os.path.join(build, 'compile_commands.json')) as f:
        entries = json.load(f)
    want = os.path.realpath(os.path.join(src, path))
    for e in entries:
        f = e['file']
        if os.path.realpath(os.path.join(e['directory'], f)) == want:
            args = e.get('arguments') or shlex.split(e['command'])
            return e['directory'], args
    raise SystemExit('%s: not in compile_commands.json' % path)


def compile_with(directory, args, text, tmp):
    """The part's command over a file of @text: (ok, compiler output)."""
    probe = os.path.join(tmp, 'probe.c')
    with open(probe, 'w') as f:
        f.write(text)
    out, skip = [], False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a in ('-o', '-MF', '-MQ', '-MT'):
            skip = True
            continue
        if a in ('-MD', '-MMD') or a == '-c':
            continue
        if i > 0 and not a.startswith('-') and a.endswith('.c') and args[i - 1] != '-include':
            continue
        out.append(a)
    out += ['-fsyntax-only', probe]
    p = subprocess.run(out, cwd=directory, capture_output=True, text=True)
    return p.returncode == 0, p.stderr


def main(build, src):
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path, allowed, forbidden in CASES:
            directory, args = command_for(build, src, path)
            text = ''.join('#include "%s"\n' % h for h in allowed)
            ok, err = compile_with(directory, args, text, tmp)
            if not ok:
                print('FAIL %s: its allowed includes do not build:\n%s' % (path, err))
                failed += 1
                continue
            for h in forbidden:
                ok, err = compile_with(directory, args, '#include "%s"\n' % h, tmp)
                if ok:
                    print('FAIL %s: "%s" builds, against the layering' % (path, h))
                    failed += 1
                elif 'No such file' not in err and 'file not found' not in err:
                    print('FAIL %s: "%s" fails, but not for want of the header:\n%s'
                          % (path, h, err))
                    failed += 1
                else:
                    print('ok   %s: "%s" refused' % (path, h))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2]))
