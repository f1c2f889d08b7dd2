# SPDX-License-Identifier: MIT
# Sphinx configuration: `make docs` renders Documentation/ to build/docs/.
project = 'XRT'
author = 'The XRT developers'
copyright = '2026, ' + author
root_doc = 'index'
exclude_patterns = []
html_theme = 'alabaster'
highlight_language = 'none'

# The public headers' and the uapi's kernel-doc comments (api-reference.rst),
# through the kernel's own scripts/kernel-doc, from tools/install-deps.sh's cache.
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'sphinx'))
extensions = ['xrt_kerneldoc']
xrt_source_root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
xrt_kernel_doc = os.environ.get('XRT_KERNEL_DOC') or os.path.join(
    subprocess.run([os.path.join(xrt_source_root, 'tools', 'install-deps.sh'), '--print-cache'],
                   capture_output=True, text=True).stdout.strip(),
    'linux', 'scripts', 'kernel-doc')
# the export marker of every public function, an attribute to the C domain
c_id_attributes = ['XRT_API']
