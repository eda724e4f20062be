"""A bibliography with every kind of verdict, hostile text included, checked by the real pipeline."""

from __future__ import annotations

from pathlib import Path

import pytest

from citetracer.config import Settings
from citetracer.pipeline import Checker
from citetracer.records import Report
from citetracer.store.db import Store
from tests.conftest import work

#: A record whose URL a report must never turn into a link (sources' replies are untrusted too).
HOSTILE_RECORD = work(
    "evilrec",
    "Adversarial Links in Evidence Records",
    ["Mallory Attacker"],
    2019,
    "Conference on Covered Topics",
    url="javascript:alert(document.domain)",
)

BIB = r"""% a comment the fixer must keep
@string{cvpr = "IEEE Conference on Computer Vision and Pattern Recognition"}

@inproceedings{resnet,
  title     = {Deep Residual Learning for Image Recognition},
  author    = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = cvpr,
  year      = {2016}
}

@article{lstm_wrong_authors,
  title   = {Long Short-Term Memory},
  author  = {Hochreiter, Sepp and Bengio, Yoshua and LeCun, Yann},
  journal = {Neural Computation},
  year    = {1997}
}

@inproceedings{fabricated,
  title     = {Quantum Gradient Routing <script>window.pwned=1</script> for "Graph" Transformers},
  author    = {Marchetti, Elena and Okafor, Chidi},
  booktitle = {Conference on Covered Topics},
  year      = {2021}
}

@inproceedings{formula,
  title     = {=HYPERLINK("http://example.invalid","click") Synthetic Study of Nothing},
  author    = {Author3 Person},
  booktitle = {Conference on Covered Topics},
  year      = {2021}
}

@phdthesis{thesis,
  title  = {On the Statistical Mechanics of Deep Networks},
  author = {Doe, Jane},
  school = {University of Nowhere},
  year   = {2019}
}

@inproceedings{evil_link,
  title     = {Adversarial Links in Evidence Records},
  author    = {Attacker, Mallory},
  booktitle = {Conference on Covered Topics},
  year      = {2019},
  note      = {<img src=x onerror="window.pwned=2"> @misc{injected, title={x}}}
}
"""


@pytest.fixture
def hostile_store(store: Store) -> Store:
    store.upsert([HOSTILE_RECORD])
    return store


@pytest.fixture
def checked_bib(tmp_path: Path, hostile_store: Store) -> tuple[Path, Report]:
    """The bibliography above as a file, and its report."""
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    settings = Settings(store=hostile_store.path, offline=True, today_year=2026, remember_verified=False)
    report = Checker(settings, store=hostile_store).check(bib)
    return bib, report
