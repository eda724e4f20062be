"""The web app's own pages: the form, a job's live progress, a failed job, an error.

Server-rendered HTML; every value escaped (`esc`, the HTML report's); the only script is
`static/job.js` (the live progress), loaded from the app itself as the page's
Content-Security-Policy requires. The result page is not here: it is the HTML report
(report/html_report.py), written when the job ends (web/results.py).
"""

from __future__ import annotations

from citetracer.report.html_report import esc
from citetracer.report.views import plural
from citetracer.version import __version__
from citetracer.web.jobs import Job
from citetracer.web.security import CSRF_FIELD
from citetracer.web.uploads import ARCHIVES, SUFFIXES
from citetracer.web.workers import mode_line


def _layout(title: str, body: str, script: bool = False, refresh: int | None = None) -> str:
    head = [
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="referrer" content="no-referrer">',
        f"<title>{esc(title)}</title>",
        '<link rel="stylesheet" href="/static/app.css">',
        '<link rel="icon" href="/favicon.ico" type="image/svg+xml">',
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


def index_page(
    csrf: str, max_mb: int, max_files: int, server_offline: bool, note: str = "", store_card: str = ""
) -> str:
    """The form: files or pasted references, the job's options, and the CSRF token that must come back with them.

    The online/offline choice starts at the server's own mode; a server started offline offers no online
    choice (and the app refuses one sent anyway: web/app.py). `store_card`: what the store holds and cannot
    confirm (web/storeinfo.py), already HTML."""
    kinds = ", ".join(SUFFIXES + ARCHIVES[:1])
    offline_checked, online_checked = ("checked", "") if server_offline else ("", "checked")
    online_off = " disabled" if server_offline else ""
    online_why = " (this server was started offline)" if server_offline else " (the references leave this server)"
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
<fieldset class="mode"><legend>Sources</legend>
<label><input type="radio" name="online" value="false" id="offline" {offline_checked}> offline: the local store
only</label>
<label><input type="radio" name="online" value="true" id="online" {online_checked}{online_off}> online: also ask
the scholarly services{esc(online_why)}</label>
</fieldset>
<p><button type="submit">Check</button>{f' <span class="meta">{esc(note)}</span>' if note else ""}</p>
</form>
</section>
{store_card}
<section class="card"><h2>For tools</h2>
<p>The same checks through a JSON API: <code>POST /api/jobs</code> (field <code>file</code> or <code>text</code>;
<code>online</code> true or false), then <code>GET /api/jobs/ID</code>; described in
<a href="/openapi.json">/openapi.json</a>.</p></section>"""
    return _layout("citetracer", body)


def progress_text(status: str, done: int, total: int, stage: str) -> str:
    """What the job is doing, in words: its citations counted once they are known, what it reads before."""
    if total:
        return f"{done} of {plural(total, 'citation')}"
    if status == "queued":
        return "waiting for a free worker"
    return stage or "starting"


def progress_page(job: Job) -> str:
    """A queued or running job: its progress bar and each citation as it is judged (job.js streams them)."""
    state = job.state()
    done, total = state["progress"]["done"], state["progress"]["total"]
    rows = "".join(_event_row(e) for e in list(job.events))
    text = progress_text(state["status"], done, total, state.get("stage", ""))
    body = f"""<section class="card" id="job" data-id="{esc(job.id)}" data-status="{esc(state["status"])}">
<h2>Checking {esc(", ".join(job.names))}</h2>
<p><progress id="bar" max="{max(total, 1)}" value="{done}"></progress>
<span id="count">{esc(text)}</span> · <span id="status">{esc(state["status"])}</span></p>
{_mode_html(job)}
<p class="meta">This page follows the check as it runs and shows the report when it ends. Its address is
private to you: anyone with it can see the result until it expires.</p>
<ol id="events" class="events">{rows}</ol>
</section>"""
    return _layout("citetracer: checking", body, script=True, refresh=3)


def _mode_html(job: Job) -> str:
    if job.online is None:
        return ""
    return f'<p class="meta" id="mode">Checked {esc(mode_line(not job.online))}</p>'


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
        f'<p class="error">{esc(job.error or "the check failed")}</p>{_mode_html(job)}'
        '<p><a href="/">Try another file</a></p></section>'
    )
    return _layout("citetracer: failed", body)


#: What an error means to a person at the form, and what to do about it: status -> (heading, advice).
ERRORS: dict[int, tuple[str, str]] = {
    400: ("The request could not be used", "Check the files and fields of the form, then send it again."),
    403: (
        "The form could not be sent",
        "Its security token has expired or it came from another site's page. Reload the form and send it again.",
    ),
    404: (
        "Nothing here",
        "The address may be mistyped, or the job has expired (a job and its report are kept for a limited time). "
        "Start a new check.",
    ),
    405: ("That cannot be done at this address", "Start a check from the form."),
    408: ("The upload stopped", "The files stopped arriving. Check the connection and send the form again."),
    409: ("Not ready yet", "The check is still running: its page shows the report when it ends."),
    413: (
        "Too much to upload",
        "Send fewer or smaller files (the form says how many and how large), or split a large archive.",
    ),
    415: (
        "Not a file citetracer reads",
        "Upload a PDF, a .bib, .bbl, .tex or .txt file, or a zip or tar archive of them.",
    ),
    422: ("Something in the form is missing or malformed", "Fill in the form again and send it."),
    429: ("Too many requests", "This address sent many requests in a short time. Wait a minute and try again."),
    500: (
        "Something went wrong on the server",
        "The error was logged. Try again; if it happens again, tell whoever runs this server.",
    ),
    503: ("The server is busy", "Every worker is taken and the queue is full. Try again in a minute."),
    507: ("The server is full", "It holds as many jobs as it has room for until older ones expire. Try again later."),
}


def error_page(status: int, message: str) -> str:
    """Any error, said plainly: what went wrong, what to do, the way back to the form (no path, no traceback:
    those go to the server's log)."""
    heading, advice = ERRORS.get(status) or (
        ("The server could not answer", "Try again later.")
        if status >= 500
        else ("The request could not be used", "Go back to the form and try again.")
    )
    detail = message[:1].upper() + message[1:] if message else ""
    if detail and not detail.endswith((".", "!", "?")):
        detail += "."
    body = (
        f'<section class="card" id="error" data-status="{status}"><h2>{esc(heading)}</h2>'
        + (f'<p class="error">{esc(detail)}</p>' if detail else "")
        + f'<p>{esc(advice)}</p><p><a class="button" href="/">Back to the form</a></p>'
        f'<p class="meta">HTTP error {status}</p></section>'
    )
    return _layout(f"citetracer: {heading.lower()}", body)
