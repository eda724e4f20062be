"""SARIF 2.1.0 for code-scanning tools (GitHub code scanning, IDE viewers).

One rule per Potential and Hallucinated code; one result per flagged citation, at the
BibTeX entry's file and line (a .bib, or the .bib files a .tex names, or a .tex/.bbl
`\\bibitem`). Hallucinated is `error`, Potential `warning`; Real citations give no result.
Results keep the input's order (a viewer sorts them by file and line); each carries SARIF's
`rank` in the reports' reading order (views.READING_ORDER: Hallucinated 100, P3 75, P2 50,
P1 25), so a viewer sorting by priority shows a P3 before the other warnings.
A PDF's reading (where its list was read, how many entries, how many read with low confidence) is in the run's
property bag (`properties.readings`, one per PDF, as the JSON's `reading` with the `input`) and is a notification
at the PDF (descriptor READING_NOTE): `note` when the list was read surely, `warning` when some entries were read
with low confidence, `error` when no list was found (nothing of that PDF was checked); not a result, as it is no
finding about a citation, and a viewer would otherwise list it among them.
Written as a stream: results as they come, the tool and its rules after them (JSON member
order does not matter), so a report can be fed citation by citation.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote

from citetracer.records import CitationResult, ReadingSummary
from citetracer.report.sources import Location, entry_locations
from citetracer.report.views import READING_ORDER, code_reading_rank, lead_reason, printable, reading_rank
from citetracer.taxonomy import CODES, PRIMARY_ORDER
from citetracer.version import __version__

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
#: The rules, fixed so every result's ruleIndex is known before the run ends.
RULES: tuple[str, ...] = tuple(k for k in sorted(CODES, key=PRIMARY_ORDER.index) if not k.startswith("R"))
LEVEL = {"Hallucinated": "error", "Potential": "warning"}
BASE_ID = "SRCROOT"
#: The descriptor of the store's notifications: what the store cannot confirm, said once per log, not per paper.
STORE_NOTE = "citetracer/store-coverage"
#: The descriptor of the notification that says how a PDF's list was read.
READING_NOTE = "citetracer/reading"
#: SARIF's `rank` (0-100, higher first) of each reading rank: 100 for Hallucinated down to 0 for Real.
RANK_STEP = 100.0 / (len(READING_ORDER) - 1)


def sarif_rank(reading: int) -> float:
    """SARIF `rank` of a reading rank (views.reading_rank): 0 -> 100.0, 1 (P3) -> 75.0, ... 4 (Real) -> 0.0."""
    return 100.0 - RANK_STEP * reading


def _rule(code: str) -> dict[str, Any]:
    c = CODES[code]
    level = LEVEL[c.verdict_class]
    return {
        "id": code,
        "name": "".join(w.capitalize() for w in re.split(r"[^a-z]+", c.name.lower()) if w),
        "shortDescription": {"text": f"{c.verdict_class}: {c.name}"},
        "fullDescription": {"text": f"{code} ({c.verdict_class}): {c.meaning}."},
        "help": {
            "text": f"{code}: {c.meaning}. The result's message gives the record that proves it; "
            "check the entry against that record and correct or remove it.",
        },
        "defaultConfiguration": {"level": level, "rank": sarif_rank(code_reading_rank(c.verdict_class, code))},
        "properties": {"tags": ["citation", c.verdict_class.lower()]},
    }


class SarifWriter:
    """Write `begin()`, then `add(input_path, citation)` per citation, then `end()`."""

    def __init__(self, out: IO[str], base_dir: Path | None = None, *, publish_base: bool = True) -> None:
        """`publish_base=False` leaves the base folder's file URI out of the log (a server's folders are
        nobody's business; the consumer then supplies the base, as code scanning does)."""
        self.out = out
        self.base = (base_dir or Path.cwd()).resolve()
        self.publish_base = publish_base
        self._locations: dict[str, dict[str, Location]] = {}
        self._n = 0
        self._notes: list[dict[str, Any]] = []
        self._store_said: set[str] = set()
        self._readings: list[dict[str, Any]] = []

    def begin(self) -> None:
        """Open the SARIF log; results are streamed between begin and end."""
        self.out.write('{\n"$schema": ' + json.dumps(SCHEMA_URI) + ',\n"version": "2.1.0",\n"runs": [{\n"results": [\n')

    def _uri(self, path: Path) -> tuple[str, str | None]:
        """A URI relative to the base folder (with its base id), or an absolute file URI."""
        full = path.resolve()
        try:
            return quote(full.relative_to(self.base).as_posix()), BASE_ID
        except ValueError:
            return full.as_uri(), None

    def _location(self, source: str, c: CitationResult) -> dict[str, Any]:
        if source not in self._locations:
            self._locations[source] = entry_locations(Path(source))
        file, line = self._locations[source].get(c.id, (Path(source), None))
        physical: dict[str, Any] = {"artifactLocation": self._artifact(file)}
        if line:
            physical["region"] = {"startLine": line}
        return {"physicalLocation": physical}

    def add(self, source: str, c: CitationResult) -> None:
        """One SARIF result for a flagged citation, at its entry's source line, with a stable fingerprint."""
        v = c.verdict
        if v.class_ not in LEVEL or v.code not in RULES:
            return
        location = self._location(source, c)
        uri = location["physicalLocation"]["artifactLocation"]["uri"]
        fingerprint = hashlib.sha256(f"{uri}\x00{c.id}\x00{v.code}".encode()).hexdigest()[:32]
        result: dict[str, Any] = {
            "ruleId": v.code,
            "ruleIndex": RULES.index(v.code),
            "level": LEVEL[v.class_],
            "rank": sarif_rank(reading_rank(c)),
            "message": {"text": printable(f"{c.id}: {v.class_} ({', '.join(v.codes)}). {v.rationale}")},
            "locations": [location],
            "partialFingerprints": {"citetracerEntry/v1": fingerprint},
            "properties": {
                "class": v.class_,
                "codes": v.codes,
                "fields": v.fields,
                "reason": printable(lead_reason(v.rationale)),
                "evidence": [
                    {k: printable(x) if isinstance(x := e.get(k), str) else x for k in ("source", "id", "url", "title")}
                    for e in v.evidence
                ],
                **({"page": c.reference.page} if c.reference.page else {}),
            },
        }
        d = c.decision
        if d is not None:  # a chair's call (report/decisions.py): a dismissal is SARIF's external suppression
            result["properties"]["decision"] = d.model_dump()
            if d.action == "dismissed":
                who = f" ({d.by}, {d.at[:10]})" if d.by else ""
                result["suppressions"] = [
                    {"kind": "external", "justification": f"dismissed by the chair{who}: {d.reason}"}
                ]
        self.out.write(("," if self._n else "") + json.dumps(result, ensure_ascii=False) + "\n")
        self._n += 1

    def note(self, message: str, level: str = "warning") -> None:
        """An input problem (unreadable file, warning) reported as a tool notification."""
        self._notes.append({"level": level, "message": {"text": printable(message)}})

    def reading(self, source: str, reading: ReadingSummary) -> None:
        """A PDF's reading: in the run's property bag, and a notification at the PDF, `warning` when some entries
        were read with low confidence, `error` when no reference list was found."""
        self._readings.append({"input": printable(source), **reading.model_dump(mode="json")})
        level = "error" if reading.no_list else "warning" if reading.low_confidence else "note"
        self._notes.append(
            {
                "level": level,
                "message": {"text": printable(f"{source}: {reading.summary}")},
                "descriptor": {"id": READING_NOTE},
                "locations": [{"physicalLocation": {"artifactLocation": self._artifact(Path(source))}}],
            }
        )

    def _artifact(self, path: Path) -> dict[str, Any]:
        """A file's artifactLocation: relative to the base folder with its base id, or an absolute file URI."""
        uri, base = self._uri(path)
        return {"uri": uri, "uriBaseId": base} if base else {"uri": uri}

    def store_note(self, message: str) -> None:
        """A warning about the store (pipeline.store_note, store/gaps.py): one run-level notification per distinct
        message, whatever the number of papers, marked by its descriptor so a viewer can tell it from a paper's."""
        if message in self._store_said:
            return
        self._store_said.add(message)
        self._notes.append(
            {"level": "warning", "message": {"text": printable(message)}, "descriptor": {"id": STORE_NOTE}}
        )

    def end(self) -> None:
        """Close the results and write the tool and its rules (one per code)."""
        tool = {
            "driver": {
                "name": "citetracer",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [_rule(k) for k in RULES],
            }
        }
        invocation: dict[str, Any] = {"executionSuccessful": True}
        if self._notes:
            invocation["toolExecutionNotifications"] = self._notes
        tail: dict[str, Any] = {"tool": tool, "invocations": [invocation]}
        if self._readings:
            tail["properties"] = {"readings": self._readings}
        if self.publish_base:
            tail["originalUriBaseIds"] = {BASE_ID: {"uri": self.base.as_uri() + "/"}}
        tail["columnKind"] = "unicodeCodePoints"
        self.out.write("],\n" + json.dumps(tail, ensure_ascii=False, indent=1)[1:-1] + "\n}]\n}\n")
