# SPDX-License-Identifier: MIT
# Sphinx configuration: `make docs` renders Documentation/ to build/docs/.
project = 'XRT'
author = 'The XRT developers'
copyright = '2026, ' + author
root_doc = 'index'
exclude_patterns = []
html_theme = 'alabaster'
highlight_language = 'none'
