"""`python -m citetracer ...` is the same program as `citetracer ...`."""

import sys

from citetracer.cli import main

if __name__ == "__main__":
    sys.exit(main())
