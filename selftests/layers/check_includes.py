#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""No #include names a path with "..": every part reaches another only
through the include directories its build grants it (libxrt/meson.build),
so a relative path would go around the layering.  Lists every offender."""
import os
import re
import sys

ROOTS = ['libxrt', 'driver', 'tools', 'selftests', 'python', 'examples']
EXTS = ('.c', '.h', '.cuh', '.hpp', '.cc', '.cpp')
INCLUDE = re.compile(r'^\s*#\s*include\s*["<]([^">]*)[">]')


def main(src):
    bad = []
    for top in ROOTS:
        for dirpath, _, names in os.walk(os.path.join(src, top)):
            for name in names:
                if not name.endswith(EXTS):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding='utf-8', errors='replace') as f:
                    for n, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if m and '..' in m.group(1).split('/'):
                            bad.append('%s:%d: %s' % (os.path.relpath(path, src), n,
                                                      line.strip()))
    for b in bad:
        print(b)
    if bad:
        print('%d include(s) with "..": include a part\'s header by its '
              'directory ("core/mem.h"), granted in meson.build' % len(bad))
        return 1
    print('no include names ".."')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
