"""Uploads and pasted text never name server paths: a real `citetracer serve` on 127.0.0.1.

The web app once took a pasted text or an uploaded `.txt` whose lines named existing files for
`citetracer scan`'s list file, and checked the files it named: any file the server could read
came back as references (and whether a path existed could be told from the answer). Here a
text is always references, whatever its lines look like.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.live import LiveServer, served

SECRET = "[1] Q. Secretive. TOPSECRET line of a private file. In Hidden Proceedings, 2020.\n"
LONG_REFERENCE = (
    "[1] A. Longwinded, B. Verbose, C. Prolix, D. Garrulous, E. Wordy, F. Loquacious and G. Rambling. "
    "An extraordinarily long title about the measurement of everything that can be measured in the "
    "study of very long reference strings that exceed the file name limit of common file systems. "
    "In Proceedings of the International Conference on Long Strings, pages 1-99, 2021."
)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with served(tmp_path_factory.mktemp("live"), "--workers", "1") as server:
        yield server


@pytest.fixture(scope="module")
def secrets_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("private")
    (folder / "secret.txt").write_text(SECRET, encoding="utf-8")
    (folder / "walked").mkdir()
    (folder / "walked" / "hidden.bib").write_text(
        "@article{h, title={WALKEDFOLDER entry}, author={Nobody, A.}, year={2020}}\n", encoding="utf-8"
    )
    return folder


def _everything(live: LiveServer, job_id: str) -> str:
    """All a client can read about a job: its state and report, the page, every download."""
    texts = [json.dumps(live.get_json(f"/api/jobs/{job_id}"))]
    for path in (f"/jobs/{job_id}", *(f"/api/jobs/{job_id}/report.{ext}" for ext in ("json", "csv", "md", "sarif"))):
        texts.append(live.get(path)[1].decode("utf-8", errors="replace"))
    return "\n".join(texts)


def _raws(state: dict) -> list[str]:
    """The raw text of each citation checked; none when nothing could be read (a path is no reference)."""
    if state["status"] == "failed":
        assert "nothing could be read" in state["error"], state
        return []
    report = state["report"]
    reports = report if isinstance(report, list) else [report]
    return [c["reference"]["raw"] for r in reports for c in r["citations"]]


def test_a_pasted_path_is_checked_as_reference_text(live: LiveServer, secrets_dir: Path) -> None:
    for path in ("/etc/passwd", str(secrets_dir / "secret.txt")):
        status, body = live.post(fields={"text": path})
        assert status == 202, body
        state = live.wait_job(body["id"])
        assert _raws(state) in ([path], []), state  # the path's own text, never the file's lines
        seen = _everything(live, body["id"])
        assert "TOPSECRET" not in seen and "root:x:0" not in seen and "/bin/" not in seen


def test_an_uploaded_list_of_paths_is_not_followed(live: LiveServer, secrets_dir: Path) -> None:
    listing = f"{secrets_dir / 'secret.txt'}\n" * 200 + f"{secrets_dir / 'walked'}\n"
    status, body = live.post(files=[("papers.txt", listing.encode())])
    assert status == 202, body
    state = live.wait_job(body["id"])
    seen = _everything(live, body["id"])
    assert "TOPSECRET" not in seen and "WALKEDFOLDER" not in seen
    assert all(raw.startswith(str(secrets_dir)) for raw in _raws(state))  # its own lines, if any


def test_no_oracle_of_which_server_paths_exist(live: LiveServer, secrets_dir: Path) -> None:
    shapes = []
    for path in (str(secrets_dir / "secret.txt"), str(secrets_dir / "no-such-file.txt")):
        status, body = live.post(fields={"text": path})
        state = live.wait_job(body["id"])
        said = json.dumps([state.get("warnings"), state.get("error")]).replace(path, "PATH")  # its own text
        shapes.append((status, state["status"], sorted(state), len(_raws(state)), said))
    assert shapes[0] == shapes[1]


def test_a_reference_longer_than_a_file_name_is_checked(live: LiveServer, tmp_path: Path) -> None:
    assert len(LONG_REFERENCE.encode()) > 255
    for send in ({"fields": {"text": LONG_REFERENCE}}, {"files": [("refs.txt", LONG_REFERENCE.encode())]}):
        status, body = live.post(**send)  # type: ignore[arg-type]
        assert status == 202, body
        state = live.wait_job(body["id"])
        assert state["status"] == "done" and _raws(state) == [LONG_REFERENCE], state
    assert "Traceback" not in live.log()


def test_a_page_of_another_site_cannot_submit(live: LiveServer) -> None:
    text = {"text": "[1] A. Nobody. A Study. In Nowhere, 2020."}
    for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Origin": "null"}):
        for path in ("/api/jobs", "/jobs"):
            status, body = live.post(path, fields=text, headers=headers)
            assert status == 403, (path, headers, body)
    assert live.post(fields=text)[0] == 202  # a script or curl sends neither header
    same = {"Origin": live.base, "Sec-Fetch-Site": "same-origin"}
    assert live.post(fields=text, headers=same)[0] == 202  # the app's own page
