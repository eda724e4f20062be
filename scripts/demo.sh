#!/usr/bin/env bash
# Install citetracer, seed the default local store with the bundled example records,
# and check the bundled example bibliography offline (Real, Potential and Hallucinated
# citations appear). The report's exit status is printed rather than propagated.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
# The pdf extra too: the natural next step is checking one's own PDF (README, first screen).
.venv/bin/python -m pip install -q --disable-pip-version-check ".[pdf]"
.venv/bin/citetracer mirror add examples/records.jsonl --source example
status=0
.venv/bin/citetracer check --offline examples/references.bib || status=$?
echo "citetracer exit status: $status (0 = nothing Hallucinated, 1 = some citations Hallucinated, 2 = input error)"
echo "next: .venv/bin/citetracer check YOUR-PAPER.pdf --offline   (or a .bib, .bbl, .tex; without --offline online sources are asked too)"
[ "$status" -le 1 ]
