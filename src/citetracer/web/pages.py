"""The web app's own pages: the form, a job's live progress, a failed job, an error.

Server-rendered HTML; every value escaped (`esc`, the HTML report's); the only script is
`static/job.js` (the live progress), loaded from the app itself as the page's
Content-Security-Policy requires. The result page is not here: it is the HTML report
(report/html_report.py), written when the job ends (web/results.py).
"""

from __future__ import annotations

from citetracer.report.html_report import esc
from citetracer.version import __version__
from citetracer.web.jobs import Job
from citetracer.web.security import CSRF_FIELD
from citetracer.web.uploads import ARCHIVES, SUFFIXES


def _layout(title: str, body: str, script: bool = False, refresh: int | None = None) -> str:
    head = [
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="referrer" content="no-referrer">',
        f"<title>{esc(title)}</title>",
        '<link rel="stylesheet" href="/static/app.css">',
    ]
    if refresh:  # without script the page still moves on, just less often
        head.append(f'<noscript><meta http-equiv="refresh" content="{refresh}"></noscript>')
    if script:
        head.append('<script src="/static/job.js" defer></script>')
    return (
        "\n".join(head)
        + '</head>\n<body>\n<header class="top"><h1><a href="/">citetracer</a></h1>'
        + f'<p class="meta">find hallucinated references · citetracer {esc(__version__)}</p></header>\n'
        + f"<main>\n{body}\n</main>\n</body></html>\n"
    )


def index_page(csrf: str, context: str, max_mb: int, max_files: int) -> str:
    """The form: files or pasted references, and the CSRF token that must come back with them."""
    kinds = ", ".join(SUFFIXES + ARCHIVES[:1])
    body = f"""<section class="card">
<h2>Check a paper's references</h2>
<p>Upload a PDF, a <code>.bib</code>, <code>.bbl</code> or <code>.tex</code> file (or a zip of them), or paste
references. Every citation is judged <b>Real</b>, <b>Potential</b> or <b>Hallucinated</b>, with the evidence.</p>
<form method="post" action="/jobs" enctype="multipart/form-data" id="submit">
<input type="hidden" name="{CSRF_FIELD}" value="{esc(csrf)}">
<p><label for="file">Files ({esc(kinds)}; up to {max_files}, {max_mb} MB in all)</label><br>
<input type="file" id="file" name="file" multiple accept="{esc(",".join(SUFFIXES + ARCHIVES))}"></p>
<p><label for="text">or paste references (BibTeX entries, a .bbl, or one reference per line)</label><br>
<textarea id="text" name="text" rows="10" cols="100" spellcheck="false"></textarea></p>
<p><label for="ref_pages">PDF bibliography pages, if the reader misses them (e.g. 12-14)</label>
<input type="text" id="ref_pages" name="ref_pages" size="9" maxlength="11"
pattern="\\s*\\d+\\s*([-–:]\\s*\\d+\\s*)?"></p>
<p><button type="submit">Check</button> <span class="meta">{esc(context)}</span></p>
</form>
</section>
<section class="card"><h2>For tools</h2>
<p>The same checks through a JSON API: <code>POST /api/jobs</code> (field <code>file</code> or <code>text</code>),
then <code>GET /api/jobs/ID</code>; described in <a href="/openapi.json">/openapi.json</a>.</p></section>"""
    return _layout("citetracer", body)


def progress_page(job: Job) -> str:
    """A queued or running job: its progress bar and each citation as it is judged (job.js streams them)."""
    state = job.state()
    done, total = state["progress"]["done"], state["progress"]["total"]
    rows = "".join(_event_row(e) for e in list(job.events))
    body = f"""<section class="card" id="job" data-id="{esc(job.id)}" data-status="{esc(state["status"])}">
<h2>Checking {esc(", ".join(job.names))}</h2>
<p><progress id="bar" max="{max(total, 1)}" value="{done}"></progress>
<span id="count">{done} of {total or "?"} citations</span> · <span id="status">{esc(state["status"])}</span></p>
<p class="meta">This page follows the check as it runs and shows the report when it ends. Its address is
private to you: anyone with it can see the result until it expires.</p>
<ol id="events" class="events">{rows}</ol>
</section>"""
    return _layout("citetracer: checking", body, script=True, refresh=3)


def _event_row(e: dict[str, object]) -> str:
    k = str(e.get("class", ""))[:1]
    return (
        f'<li class="ev {esc(k)}"><span class="badge {esc(k)}">{esc(e.get("class"))}</span> '
        f'<span class="codes">{esc(e.get("code"))}</span> <span class="cid">[{esc(e.get("id"))}]</span> '
        f"{esc(e.get('title'))}</li>"
    )


def failed_page(job: Job) -> str:
    """A job that ended without a report, and why (a message safe to show)."""
    body = (
        f'<section class="card" id="job" data-status="failed"><h2>Could not check {esc(", ".join(job.names))}</h2>'
        f'<p class="error">{esc(job.error or "the check failed")}</p><p><a href="/">Try another file</a></p></section>'
    )
    return _layout("citetracer: failed", body)


def error_page(status: int, message: str) -> str:
    """Any error, said plainly: no path, no traceback (those go to the server's log)."""
    body = (
        f'<section class="card"><h2>{status}</h2><p class="error">{esc(message)}</p>'
        '<p><a href="/">Back</a></p></section>'
    )
    return _layout(f"citetracer: {status}", body)
