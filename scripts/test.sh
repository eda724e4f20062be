#!/usr/bin/env bash
# Set up a virtualenv with every extra the tests exercise, then run ruff, mypy and pytest.
# Usage: bash scripts/test.sh [pytest args...]   (slow end-to-end tests: add -m slow or -m "")
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[dev,pdf,ocr,web,postgres,cluster]"
# The OCR tests need the Tesseract program; install it only when missing (CI runs as root on Debian).
if ! command -v tesseract >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends tesseract-ocr tesseract-ocr-eng >/dev/null
fi
# The HTML report's and the web app's browser tests need Chromium (Debian's package; Playwright drives it, nothing is downloaded).
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
# The store suite runs against PostgreSQL too: Debian's server programs (tests/pgserver.py starts a
# throwaway cluster on a free port under the 'postgres' user and stops it at the end).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1 \
    && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
.venv/bin/ruff check src tests bench
.venv/bin/mypy src
.venv/bin/python -m pytest "$@"
