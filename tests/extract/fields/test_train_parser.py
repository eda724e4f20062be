"""scripts/train_parser.py rebuilds a working model from labelled sets, deterministically."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from citetracer.extract.fields.crf import Labeller, spans
from citetracer.extract.fields.parser import model_input, parse_reference_string
from tests.extract.fields import refsets

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "train_parser.py"


def _train(data: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--refstrings",
            str(data),
            "--iterations",
            "60",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_training_script_builds_a_model_from_a_tiny_fixture(tmp_path: Path) -> None:
    data = refsets.write(tmp_path / "refstrings")
    first, second = tmp_path / "a.crfsuite", tmp_path / "b.crfsuite"
    run = _train(data, first)
    assert run.returncode == 0, run.stderr
    assert "core: 7 labelled strings" in run.stdout
    assert "grobid: 4 labelled strings" in run.stdout
    # Same data, same model: the build is deterministic.
    assert _train(data, second).returncode == 0
    assert first.read_bytes() == second.read_bytes()

    labeller = Labeller(str(first))
    raw = "Lindqvist, A., & Moreau, P. (2015). Tidal mixing in shallow estuaries. Estuarine Science, 7(2), 45-61."
    text, marks = model_input(raw)
    found = spans(labeller.label(text, marks), text)
    assert found["title"] == "Tidal mixing in shallow estuaries."
    assert found["container"] == "Estuarine Science,"
    ref = parse_reference_string(raw, labeller=labeller)
    assert ref.title == "Tidal mixing in shallow estuaries"
    assert ref.venue == "Estuarine Science"
    assert (ref.volume, ref.pages, ref.year) == ("7", "45-61", 2015)


def test_training_script_without_data_says_so(tmp_path: Path) -> None:
    run = _train(tmp_path / "empty", tmp_path / "m.crfsuite")
    assert run.returncode == 1
    assert "nothing to train on" in run.stdout
    assert not (tmp_path / "m.crfsuite").exists()
