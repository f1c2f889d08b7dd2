# SPDX-License-Identifier: MIT
"""The `kernel-doc` directive: a header's kernel-doc comments, rendered.

    .. kernel-doc:: libxrt/include/xrt/status.h

runs the kernel's scripts/kernel-doc (from Debian's linux-source, which
tools/install-deps.sh extracts into its cache) in its reStructuredText
mode over the file and parses what it prints in place.  Whatever the
script warns about (a parameter left undescribed, a comment that does
not parse) becomes a Sphinx warning, so `make docs` (-W) refuses it.
"""
import os
import subprocess

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import ViewList
from sphinx.util.docutils import switch_source_input


class KernelDoc(Directive):
    required_arguments = 1
    has_content = False

    def run(self):
        env = self.state.document.settings.env
        rel = self.arguments[0]
        path = os.path.join(env.config.xrt_source_root, rel)
        env.note_dependency(os.path.abspath(path))
        script = env.config.xrt_kernel_doc
        if not script or not os.path.isfile(script):
            raise self.error('kernel-doc: no script at %r (run tools/install-deps.sh)' % script)
        p = subprocess.run(['perl', script, '-rst', path], capture_output=True, text=True)
        reporter = self.state.document.reporter
        out = []
        for msg in p.stderr.splitlines():
            if msg.strip():
                out.append(reporter.warning('kernel-doc: %s' % msg, line=self.lineno))
        if p.returncode and not p.stdout:
            raise self.error('kernel-doc failed on %s' % rel)
        lines = ViewList()
        for n, line in enumerate(p.stdout.splitlines()):
            lines.append(line, rel, n)
        node = nodes.section()
        with switch_source_input(self.state, lines):
            self.state.nested_parse(lines, 0, node, match_titles=True)
        return out + node.children


def setup(app):
    app.add_config_value('xrt_source_root', '..', 'env')
    app.add_config_value('xrt_kernel_doc', '', 'env')
    app.add_directive('kernel-doc', KernelDoc)
    return {'parallel_read_safe': True, 'parallel_write_safe': True}
