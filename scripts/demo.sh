#!/usr/bin/env bash
# Install citetracer, seed a store of its own (a temporary folder, removed at the end) with the bundled
# example records, and check the bundled example bibliography offline against it (Real, Potential and
# Hallucinated citations appear). The user's default store is never touched: the example records would
# otherwise show up as evidence in every later check. The report's exit status is printed, not propagated.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
# The pdf extra too: the natural next step is checking one's own PDF (README, first screen).
.venv/bin/python -m pip install -q --disable-pip-version-check ".[pdf]"
DEMO_DIR=$(mktemp -d "${TMPDIR:-/tmp}/citetracer-demo.XXXXXX")
trap 'rm -rf "$DEMO_DIR"' EXIT
STORE="$DEMO_DIR/store.sqlite"
.venv/bin/citetracer mirror add examples/records.jsonl --source example --store "$STORE"
status=0
.venv/bin/citetracer check --offline examples/references.bib --store "$STORE" || status=$?
echo "citetracer exit status: $status (0 = nothing Hallucinated, 1 = some citations Hallucinated, 2 = input error)"
echo "the demo's store ($STORE) is removed now; your default store was not touched"
echo "next: .venv/bin/citetracer mirror setup --field cs --dry-run   (the mirrors an offline check of your field needs: cs, ml, biomed, all)"
echo "then: .venv/bin/citetracer check YOUR-PAPER.pdf --offline   (or a .bib, .bbl, .tex; without --offline online sources are asked too)"
[ "$status" -le 1 ]
