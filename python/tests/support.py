# SPDX-License-Identifier: MIT
"""What the Python tests share."""
import os


def rss_pages():
    """Resident pages; constant under a sanitizer, whose quarantine keeps
    freed memory (leaks are then left to the reference and object counts)."""
    if os.environ.get('XRT_SANITIZED'):
        return 0
    with open('/proc/self/statm') as f:
        return int(f.read().split()[1])
