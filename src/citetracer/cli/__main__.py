"""`python -m citetracer.cli ...` is the same program as `citetracer ...`."""

import sys

from citetracer.cli import main

sys.exit(main())
