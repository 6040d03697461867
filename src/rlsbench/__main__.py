"""``python -m rlsbench``: the ``rlsbench`` command line."""

import sys

from rlsbench.benchmark.cli import main

if __name__ == "__main__":
    sys.exit(main())
