"""`mirror setup --field FIELD`: which mirrors make an offline check useful for a field, and what they cost.

A new user who builds the DBLP sample and checks a journal paper offline gets a column of P1s and no
hint of which data would have answered. The catalogue (data/mirror_setup.toml) says, per field, which
mirrors hold what its papers cite, where each dump is published, how it is verified, and its disk and
time figures, each marked measured, extrapolated, published or assumed. `plan()` turns it into the
steps a run takes: dumps into a folder, then the existing ingest commands (`mirror dblp|arxiv|openalex`).
Nothing here fetches or prints: the CLI (cli/setup.py) shows the plan, asks, downloads and ingests.

A mirror with no URL (arXiv's snapshot is behind Kaggle's login) is planned as skipped with the way to
give one, never guessed; `--max-hours` leaves out the steps that would not fit, in order, and says so.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

#: The fields `--field` takes, in the order they are listed.
FIELDS = ("cs", "ml", "biomed", "all")


@cache
def catalogue() -> dict[str, Any]:
    """data/mirror_setup.toml, parsed once."""
    text = resources.files("citetracer.data").joinpath("mirror_setup.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@dataclass
class Step:
    """One mirror to fetch and build."""

    mirror: str
    title: str
    #: Where the dump is fetched from ("" when no URL is known: the step is skipped).
    url: str
    #: Where the dump goes: a file (dblp, arxiv) or a folder (openalex).
    dest: Path
    checksum: str
    download_gb: float
    store_gb: float
    hours: float
    basis: str
    note: str
    #: Extra arguments of the ingest command (an OpenAlex subset's filters).
    filters: list[str] = field(default_factory=list)
    #: Why the step will not run (None: it will).
    skipped: str | None = None

    @property
    def command(self) -> str:
        """The ingest command this step runs, as a user would type it."""
        return " ".join(["citetracer", "mirror", self.mirror, str(self.dest), *self.filters])


@dataclass
class Plan:
    field: str
    title: str
    steps: list[Step]
    stays_p1: str
    dumps: Path

    @property
    def runs(self) -> list[Step]:
        return [s for s in self.steps if s.skipped is None]

    def totals(self) -> tuple[float, float, float]:
        """(download GB, store GB, hours) of the steps that run."""
        run = self.runs
        return sum(s.download_gb for s in run), sum(s.store_gb for s in run), sum(s.hours for s in run)


def _hours(entry: dict[str, Any], download_gb: float, mbit: float) -> float:
    return download_gb * 8000 / mbit / 3600 + float(entry["ingest_minutes"]) / 60


def plan(field_name: str, dumps: Path, urls: dict[str, str] | None = None, max_hours: float | None = None) -> Plan:
    """The steps that build a store useful offline for `field_name` (one of FIELDS).

    `urls`: configured dump URLs by mirror name, over the catalogue's (settings' `[mirrors]`).
    `max_hours`: the steps are kept in order while their estimated time fits; later ones are skipped.
    """
    cat = catalogue()
    if field_name not in cat["fields"]:
        raise ValueError(f"unknown field {field_name!r}; fields are {', '.join(FIELDS)}")
    spec = cat["fields"][field_name]
    mbit = float(cat["assumed_mbit_per_s"])
    urls = urls or {}
    steps = []
    spent = 0.0
    for name in spec["mirrors"]:
        entry = cat["mirrors"][name]
        url = urls.get(name) or str(entry.get("url") or "")
        download_gb = float(entry["download_gb"])
        if "store_gb_per_million" in entry:
            store_gb = float(entry["store_gb_per_million"]) * float(spec.get("kept_millions", 0))
        else:
            store_gb = float(entry["store_gb"])
        hours = _hours(entry, download_gb, mbit)
        step = Step(
            mirror=name,
            title=str(entry["title"]),
            url=url,
            dest=dumps / str(entry["file"]),
            checksum=str(entry["checksum"]),
            download_gb=download_gb,
            store_gb=store_gb,
            hours=hours,
            basis=str(entry["basis"]),
            note=" ".join(str(entry["note"]).split()),
            filters=[str(a) for a in spec.get(f"{name}_filters", [])],
        )
        if not url:
            step.skipped = (
                f"no download URL for {name} (its publisher needs a login): set [mirrors] {name} = URL in the "
                f"config file or CITETRACER_MIRROR_{name.upper()}_URL, or fetch it yourself and run "
                f"`{entry['command']}`"
            )
        elif max_hours is not None and spent + hours > max_hours:
            step.skipped = f"left out: ~{hours:.1f} h would exceed --max-hours {max_hours:g} (~{spent:.1f} h planned)"
        else:
            spent += hours
        steps.append(step)
    return Plan(field_name, str(spec["title"]), steps, str(spec["stays_p1"]), dumps)


def measured_note() -> str:
    """The DBLP figure measured on a real dump (data/mirror_setup.toml `mirrors.dblp.measured`)."""
    return " ".join(str(catalogue()["mirrors"]["dblp"].get("measured", "")).split())
