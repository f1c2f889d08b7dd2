#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The picture of the parts in Documentation/overview.rst names every
part the build has (the subdir() calls of libxrt/meson.build and
libxrt/device/meson.build), and no part the build lacks."""
import re
import sys


def parts(path):
    with open(path) as f:
        return re.findall(r"^\s*subdir\('([a-z]+)'\)", f.read(), re.M)


def picture(path):
    with open(path) as f:
        text = f.read()
    start = text.index('------ libxrt ------')
    end = text.index('engine (driver/engine/)', start)
    words = set()
    for line in text[start:end].splitlines():
        # the name column: "|  NAME   what it is", or the drivers' line
        m = re.match(r'\s*\|\s+([a-z .]+?)\s{2,}', line)
        if m:
            words.update(w for w in m.group(1).split() if w != '.')
    return words


def main(src):
    built = set(parts(src + '/libxrt/meson.build')) | set(parts(src + '/libxrt/device/meson.build'))
    shown = picture(src + '/Documentation/overview.rst')
    missing, extra = sorted(built - shown), sorted(shown - built - {'staged'})
    for m in missing:
        print('overview.rst does not show the part %s' % m)
    for e in extra:
        print('overview.rst shows %s, which the build does not have' % e)
    if missing or extra:
        return 1
    print('overview.rst shows the %d parts: %s' % (len(built), ' '.join(sorted(built))))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
