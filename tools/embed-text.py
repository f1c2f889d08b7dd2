#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a C file defining `const char NAME[]` with the bytes of a text file.

    embed-text.py SRC DST NAME [-I DIR]... [--drop HEADER]...

With -I, each `#include "X"` or `#include <X>` line of SRC naming a file
found under a DIR is replaced by that file's text (once: nested includes
stay as they are, for the compiler of the text to resolve or skip); a
--drop HEADER include line of an inlined file is left out.  The cuda
prelude is built so: the command stream's uapi header and the engine's
scalar semantics go into it as text, for NVRTC, which has neither.
"""
import argparse
import os
import re

INCLUDE = re.compile(r'^\s*#\s*include\s*["<]([^">]+)[">]\s*$')


def find(name, dirs):
    for d in dirs:
        path = os.path.join(d, name)
        if os.path.isfile(path):
            return path
    return None


def inline(path, dirs, drop):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    if not dirs:
        return text
    out = []
    for line in text.splitlines(keepends=True):
        m = INCLUDE.match(line)
        found = find(m.group(1), dirs) if m else None
        if not found:
            out.append(line)
            continue
        out.append('/* ---- %s, inlined ---- */\n' % m.group(1))
        with open(found, encoding='utf-8') as f:
            for inner in f.read().splitlines(keepends=True):
                im = INCLUDE.match(inner)
                if not (im and im.group(1) in drop):
                    out.append(inner)
        out.append('/* ---- end of %s ---- */\n' % m.group(1))
    return ''.join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('src')
    ap.add_argument('dst')
    ap.add_argument('name')
    ap.add_argument('-I', dest='dirs', action='append', default=[])
    ap.add_argument('--drop', action='append', default=[])
    a = ap.parse_args()
    text = inline(a.src, a.dirs, set(a.drop))
    lines = ['// SPDX-License-Identifier: MIT', f'/* Generated from {a.src.split("/")[-1]}. */',
             f'extern const char {a.name}[];', f'const char {a.name}[] =']
    for line in text.splitlines(keepends=True):
        esc = line.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n')
        lines.append(f'\t"{esc}"')
    lines.append('\t"";')
    with open(a.dst, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
