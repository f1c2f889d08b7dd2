#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a C file defining `const char NAME[]` with the bytes of a text file."""
import sys


def main():
    src, dst, name = sys.argv[1:4]
    with open(src, encoding='utf-8') as f:
        text = f.read()
    lines = ['// SPDX-License-Identifier: MIT', f'/* Generated from {src.split("/")[-1]}. */',
             f'extern const char {name}[];', f'const char {name}[] =']
    for line in text.splitlines(keepends=True):
        esc = line.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n')
        lines.append(f'\t"{esc}"')
    lines.append('\t"";')
    with open(dst, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
