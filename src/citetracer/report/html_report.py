"""A self-contained HTML report: one file, no network needed to view it, hostile text escaped.

Written as a stream (`begin`, then per paper `begin_paper` / `citation` ... / `end_paper`,
then `end`), so a report of thousands of papers never holds them all in memory. The
summary table and the filters are written last and shown first (CSS `order`).

Citation text comes from papers and from sources' replies: every value is HTML-escaped,
links are kept only for http(s) URLs (`views.safe_url`), and a Content-Security-Policy
allows only this file's own style and script (by hash), so even a missed escape could not
run a script or load anything from the network.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import IO
from urllib.parse import quote

from citetracer.normalize.names import NameMatch, compare_people, parse_person
from citetracer.records import CitationResult, Person, ReadingSummary
from citetracer.report.held import HeldRanks
from citetracer.report.lookup import lookup_links
from citetracer.report.storenotes import StoreNotes
from citetracer.report.views import (
    CLASSES,
    LEGEND,
    NOT_THIS_WORK,
    READING_ORDER,
    REF_PAGES_COMMAND,
    FieldRow,
    PaperCounts,
    coverage_note,
    decision_text,
    decisions_line,
    evidence_links,
    field_rows,
    has_record,
    is_shown,
    lead_reason,
    leading_codes,
    no_list_line,
    noun,
    plural,
    printable,
    reading_rank,
    record_label,
    top_codes,
)
from citetracer.taxonomy import CODES, PRIMARY_ORDER
from citetracer.version import __version__

SHORT = {"Real": "R", "Potential": "P", "Hallucinated": "H"}

STYLE = """
:root{--h:#b3261e;--hbg:#fde7e5;--p:#8a5a00;--pbg:#fff4d6;--r:#1e6b34;--rbg:#e6f4ea;--line:#d9d9de;--mute:#5f6368}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f1f24;background:#f6f6f8}
header.top{padding:16px 24px 8px;background:#fff;border-bottom:1px solid var(--line)}
header.top h1{margin:0;font-size:22px;overflow-wrap:anywhere}
.meta{color:var(--mute);margin:4px 0 0}
main{display:flex;flex-direction:column;gap:16px;padding:16px 24px 48px;max-width:1280px;margin:0 auto}
#summary,#store{order:1;scroll-margin-top:0}a.top{font-size:12px;font-weight:400;margin-left:8px}#filters{order:2}#papers{order:3;display:flex;flex-direction:column;gap:16px}
.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 16px}
.totals{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 12px;padding:0;list-style:none}
.totals li{border:1px solid var(--line);border-radius:6px;padding:6px 10px;background:#fafafb}
.totals b{font-size:18px;display:block}
.totals .H b{color:var(--h)}.totals .P b{color:var(--p)}.totals .R b{color:var(--r)}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:4px 8px;border-bottom:1px solid var(--line)}
th{font-weight:600;background:#fafafb}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td.warns{font-size:12px;color:var(--p);max-width:260px}
tr.risk3 td{background:var(--hbg)}tr.risk1 td.hn{color:var(--h);font-weight:700}
tr.riskp td.pn{color:var(--p);font-weight:600}tr.unread td{color:var(--mute);font-style:italic}
#filters{position:sticky;top:0;z-index:2;display:flex;flex-wrap:wrap;gap:6px 16px;align-items:center}
#filters fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 10px;align-items:center}
#filters legend{float:left;font-weight:600;margin-right:6px}
#filters label{white-space:nowrap;cursor:pointer}
#shown{color:var(--mute);margin-left:auto}
.paper{display:flex;flex-direction:column;scroll-margin-top:110px}.paper>*{order:3}
.paper h2{order:0;font-size:17px;margin:0 0 4px;word-break:break-all}
.paper .counts{order:1;margin:0 0 8px;color:var(--mute)}.paper ul.warn{order:2}
.paper .reading{order:1;margin:-4px 0 8px;color:var(--mute);font-size:13px}
.paper .counts b.H{color:var(--h)}.paper .counts b.P{color:var(--p)}.paper .counts b.R{color:var(--r)}
ul.warn{margin:4px 0 8px;padding-left:20px;color:var(--p);overflow-wrap:anywhere}
.cite{border:1px solid var(--line);border-left:6px solid var(--line);border-radius:6px;padding:8px 12px;
  margin:8px 0;background:#fff}
.cite.H{border-left-color:var(--h)}.cite.P{border-left-color:#e0a100}.cite.R{border-left-color:#6fbf86}
.cite>summary,.cite>.head{cursor:default;display:flex;flex-wrap:wrap;gap:4px 10px;align-items:baseline}
details.cite>summary{cursor:pointer}
.badge{display:inline-block;border-radius:4px;padding:0 6px;font-weight:700;font-size:12px;text-transform:uppercase}
.badge.H{background:var(--hbg);color:var(--h)}.badge.P{background:var(--pbg);color:var(--p)}
.badge.R{background:var(--rbg);color:var(--r)}
.codes{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
.cid{color:var(--mute);font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
.ref{font-weight:600}
.why{margin:6px 0 2px}.why2,.cov,.srcs{margin:2px 0;color:var(--mute)}
table.fields{margin:6px 0;font-size:13px;table-layout:fixed}
table.fields th:first-child,table.fields td:first-child{width:90px}
table.fields td{word-break:break-word}
tr.mismatch td{background:#fff0ef}tr.offending td{background:var(--hbg)}
tr.offending td:first-child{font-weight:700;color:var(--h)}
tr.missing td{color:var(--mute)}
td.status{width:110px;font-size:12px;color:var(--mute)}
mark{background:#ffd3cf;color:inherit;padding:0 1px;border-radius:2px}
.ev,.lookup{margin:4px 0;font-size:13px}#store ul{margin:4px 0;padding-left:20px;color:var(--p)}
pre.raw{white-space:pre-wrap;word-break:break-word;background:#fafafb;border:1px solid var(--line);padding:6px;
  margin:4px 0;font-size:12px}
a{color:#0b57d0}
.hidden{display:none!important}
.legend{color:var(--mute);font-size:13px;margin:8px 0 0}
.actions{margin:6px 0 0;display:flex;flex-wrap:wrap;gap:6px}
.actions a{border:1px solid var(--line);border-radius:6px;padding:2px 10px;text-decoration:none;background:#fafafb}
.wide{overflow-x:auto}
.decision{margin:4px 0;font-weight:600}.cite[data-decision=dismissed]{opacity:.8;border-left-style:dashed}
.cite[data-decision=dismissed] .decision{color:var(--r)}.cite[data-decision=confirmed] .decision{color:var(--h)}
.review{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:6px 0 2px;font-size:13px}
.review input[type=text]{flex:1 1 220px;min-width:0;padding:2px 6px}.rmsg{color:var(--mute)}
@media (max-width:600px){header.top{padding:12px 12px 8px}
  main{padding:12px 8px 32px;gap:12px;overflow-wrap:anywhere}.card{padding:10px}
  th,td{padding:4px 5px}table.fields th:first-child,table.fields td:first-child{width:64px}td.status{width:70px}
  #shown{margin-left:0}.cite{padding:8px}.wide table{overflow-wrap:normal}table.papers th{white-space:nowrap}}
"""

SCRIPT = """
(function(){
  var boxes=[].slice.call(document.querySelectorAll('#filters input[data-kind]'));
  var cites=[].slice.call(document.querySelectorAll('#papers .cite'));
  var papers=[].slice.call(document.querySelectorAll('#papers .paper'));
  var shown=document.getElementById('shown');
  var chair=boxes.some(function(b){return b.dataset.kind==='decision';});
  function apply(){
    var cls={},codes={},dec={};
    boxes.forEach(function(b){if(b.checked){(b.dataset.kind==='class'?cls:b.dataset.kind==='code'?codes:dec)[b.value]=1;}});
    var n=0;
    cites.forEach(function(c){
      var ok=cls[c.dataset.class]===1&&c.dataset.codes.split(' ').some(function(k){return codes[k]===1;})&&
        (!chair||dec[c.dataset.decision||'open']===1);
      c.classList.toggle('hidden',!ok);if(ok){n++;}
    });
    var p=0;
    papers.forEach(function(s){
      var any=s.querySelector('.cite:not(.hidden),.nolist')!==null||s.dataset.unread==='1';
      s.classList.toggle('hidden',!any);if(any){p++;}
    });
    function count(k,w){return k+' '+w+(k===1?'':'s');}
    shown.textContent='showing '+n+' of '+count(cites.length,'citation')+' in '+p+' of '+count(papers.length,'paper');
  }
  boxes.forEach(function(b){b.addEventListener('change',apply);});
  var url=document.body.dataset.review;
  if(url&&/^https?:$/.test(location.protocol)&&window.fetch){review(url);}
  function review(url){
    var byKey={};
    function key(p,i){return JSON.stringify([p,i]);}
    function paperOf(c){var s=c.closest('.paper');return s?s.dataset.paper:undefined;}
    cites.forEach(function(c){
      var p=paperOf(c);if(p!==undefined&&c.dataset.id!==undefined){byKey[key(p,c.dataset.id)]=c;}
    });
    function words(d){
      var who=[d.by,(d.at||'').slice(0,10)].filter(function(x){return x;}).join(', ');
      return d.action.charAt(0).toUpperCase()+d.action.slice(1)+' by the chair'+(who?' ('+who+')':'')+
        (d.reason?': '+d.reason:'')+'.';
    }
    function show(c,d){
      c.dataset.decision=d?d.action:'open';
      var line=c.querySelector('.decision');
      if(!d){if(line){line.parentNode.removeChild(line);}return;}
      if(!line){line=document.createElement('p');line.className='decision';
        var head=c.querySelector('.head')||c.querySelector('summary');
        head.parentNode.insertBefore(line,head.nextSibling);}
      line.textContent=words(d);
    }
    function tally(){
      var k={dismissed:0,confirmed:0};
      cites.forEach(function(c){if(k[c.dataset.decision]!==undefined){k[c.dataset.decision]++;}});
      var parts=[];if(k.dismissed){parts.push(k.dismissed+' dismissed');}
      if(k.confirmed){parts.push(k.confirmed+' confirmed');}
      var out=document.getElementById('decided');
      if(out){out.textContent=parts.length?parts.join(' and ')+' by the chair':'';}
    }
    function controls(c){
      if(c.dataset.class==='Real'){return;}
      var box=document.createElement('div');box.className='review';
      var reason=document.createElement('input');reason.type='text';reason.maxLength=500;reason.name='reason';
      reason.placeholder='reason: checked by hand, known book, ...';reason.setAttribute('aria-label','reason');
      var code=document.createElement('select');code.name='code';code.setAttribute('aria-label','code');
      ['H1','H2','H3','H4','H5','H6'].forEach(function(k){
        var o=document.createElement('option');o.value=k;o.textContent=k;code.appendChild(o);
      });
      var own=(c.dataset.codes||'').split(' ')[0];if(/^H[1-6]$/.test(own)){code.value=own;}
      var msg=document.createElement('span');msg.className='rmsg';
      function send(action){
        msg.textContent='saving…';
        fetch(url,{method:'POST',headers:{'Content-Type':'application/json'},credentials:'same-origin',
          body:JSON.stringify({paper:paperOf(c),id:c.dataset.id,action:action,reason:reason.value,code:code.value})})
        .then(function(r){return r.json().then(function(j){return {ok:r.ok,body:j};});})
        .then(function(x){
          if(!x.ok){msg.textContent='not recorded: '+(x.body.error||'refused');return;}
          show(c,x.body.decision||null);tally();apply();msg.textContent='recorded';
        }).catch(function(){msg.textContent='not recorded: the server did not answer';});
      }
      [['Dismiss','dismissed'],['Confirm','confirmed'],['Undo','cleared']].forEach(function(b){
        var e=document.createElement('button');e.type='button';e.textContent=b[0];e.dataset.action=b[1];
        e.addEventListener('click',function(){send(b[1]);});box.appendChild(e);
        if(b[1]==='confirmed'){box.appendChild(code);}
      });
      box.insertBefore(reason,box.firstChild);box.appendChild(msg);c.appendChild(box);
    }
    fetch(url,{credentials:'same-origin'}).then(function(r){return r.json();}).then(function(j){
      (j.decisions||[]).forEach(function(d){var c=byKey[key(d.paper,d.id)];if(c){show(c,d);}});
      cites.forEach(controls);tally();apply();document.documentElement.dataset.review='1';
    }).catch(function(){});
  }
  document.documentElement.dataset.ready='1';
  apply();
})();
"""


def esc(value: object) -> str:
    """HTML-escaped text of any value (None is empty): every value in the report is untrusted."""
    return html.escape("" if value is None else printable(str(value)), quote=True)


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def content_security_policy() -> str:
    """The page's policy: only its own style and script (by hash), no form sent, nothing fetched but from
    the server that serves it (the review buttons' decisions; a file opened from disk fetches nothing).

    A server that serves the report (the web app) sends the same policy as a header."""
    return (
        f"default-src 'none'; style-src {_csp_hash(STYLE)}; script-src {_csp_hash(SCRIPT)}; "
        "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'"
    )


def file_href(target: Path, report_dir: Path | None, page: int | None = None) -> str:
    """A link from the report to a local file (a PDF, optionally at a page) that survives moving the report.

    A file inside the report's folder (a scan's unpacked archives and `--copy-inputs` copies) is
    linked relative to it, so the folder can be moved or shared whole; any other file by its
    absolute `file://` URL, which a relative link from a moved report would miss.
    """
    base = (report_dir if report_dir is not None else Path.cwd()).resolve()
    path = target.resolve()
    if path.is_relative_to(base):
        return quote(path.relative_to(base).as_posix()) + (f"#page={page}" if page else "")
    return path.as_uri() + (f"#page={page}" if page else "")


_WORD = re.compile(r"\S+")


def _norm(word: str) -> str:
    return word.strip(".,;:()[]'\"").lower()


def _marked(text: str, other: str) -> str:
    """`text` escaped, with the words `other` lacks wrapped in <mark>.

    A word counts as present when `other` has it anywhere (reordered authors are no
    difference), and an initial ('D.') when `other` has a word with that first letter.
    """
    theirs = {_norm(w) for w in _WORD.findall(other)} - {""}
    firsts = {w[0] for w in theirs}

    def present(word: str) -> bool:
        n = _norm(word)
        return not n or n in theirs or (len(n) <= 2 and n[0] in firsts)

    return " ".join(esc(w) if present(w) else f"<mark>{esc(w)}</mark>" for w in _WORD.findall(text))


def _person_html(name: str, others: list[Person]) -> str:
    """One author name escaped, marked where no name in `others` is the same person: the whole name when
    nobody shares its family name, only the given name when someone does with another given name."""
    person = parse_person(name)
    if person is None or not others or name.lower().rstrip(".") in ("et al", "others"):
        return esc(name)
    verdicts = {compare_people(person, other) for other in others}
    if NameMatch.SAME in verdicts:
        return esc(name)  # 'J. Devlin' is 'Jacob Devlin': no difference to show
    if NameMatch.GIVEN_CONFLICT in verdicts and person.given and name.startswith(person.given):
        return f"<mark>{esc(person.given)}</mark>{esc(name[len(person.given) :])}"
    return f"<mark>{esc(name)}</mark>"


def _marked_people(text: str, other: str) -> str:
    """An author list ('; '-separated names) escaped, with the people `other` lacks marked.

    Names are compared as names (normalize/names.py): initials against full given names, accents,
    particles and order are no difference; a substituted author, or one whose given name differs, is.
    """
    theirs = [p for name in other.split(";") if (p := parse_person(name.strip())) is not None]
    return "; ".join(_person_html(name.strip(), theirs) for name in text.split(";") if name.strip())


def _field_cells(row: FieldRow) -> tuple[str, str]:
    cited, found = row.cited or "", row.found or ""
    if row.status == "mismatch" and cited and found and len(cited) + len(found) < 4000:
        if row.field == "authors":
            return _marked_people(cited, found), _marked_people(found, cited)
        return _marked(cited, found), _marked(found, cited)
    return esc(cited) or "<i>—</i>", esc(found) or "<i>—</i>"


def _status_text(row: FieldRow, verdict_class: str) -> str:
    if row.status == "match":
        text = "same"
    elif row.status == "mismatch":
        text = "differs"
    elif row.status == "missing":
        text = "only in the record" if row.found and not row.cited else "not in the record"
    else:
        text = "not compared"
    if row.offending:
        text += " · wrong" if verdict_class == "Hallucinated" else " · in question"
    return text


@dataclass
class _PaperRow:
    anchor: str
    name: str
    counts: PaperCounts | None
    error: str | None = None
    warnings: list[str] = field(default_factory=list)


@dataclass
class HtmlReport:
    """Writes one HTML file for one or many papers; see the module docstring for the order of calls."""

    out: IO[str]
    title: str = "citetracer report"
    #: One line under the title: what was checked and how (offline, store, ...).
    context: str = ""
    #: Folder the HTML file is written to, so links to the PDFs are relative (None: the working dir).
    report_dir: Path | None = None
    #: Which citations get a card (views.SHOW_CHOICES); every one is counted in the summary all the same.
    show: str = "all"
    #: Leading folders every paper's name shares (e.g. '../shared/pdfs/jose/'), left out of the
    #: names shown; the full name stays in the heading's tooltip.
    common_prefix: str = ""
    #: Links shown under the title, (label, href): the web app's downloads (none in a file report).
    actions: list[tuple[str, str]] = field(default_factory=list)
    #: Lines shown under the summary's legend (e.g. where the PDF links point).
    notes: list[str] = field(default_factory=list)
    #: Where the page's review buttons send a chair's decisions (report/decisions.py), relative to the page or
    #: absolute; the buttons appear only when the page is served over http(s) by a server answering there
    #: (`citetracer serve`), never in a file opened from disk. None: no buttons.
    review_url: str | None = None
    #: Citations in reading order (H, P3, P2, P1, Real: "attention") or as the paper has them ("id").
    sort: str = "attention"
    _rows: list[_PaperRow] = field(default_factory=list)
    _codes: Counter[str] = field(default_factory=Counter)
    _classes: Counter[str] = field(default_factory=Counter)
    _pdf_href: str | None = None
    _anchor: str = ""
    _n: int = 0
    #: The paper's cards, held per rank of the reading order (views.READING_ORDER: H, P3, P2, P1, Real).
    _pending: HeldRanks = field(default_factory=lambda: HeldRanks(len(READING_ORDER)))
    _warnings: list[str] = field(default_factory=list)
    _decided: Counter[str] = field(default_factory=Counter)
    _store: StoreNotes = field(default_factory=StoreNotes)

    def _short(self, name: str) -> str:
        p = self.common_prefix
        return name[len(p) :] if p and name.startswith(p) and len(name) > len(p) else name

    def begin(self) -> None:
        """Open the document: head, inline style and script pinned by the Content-Security-Policy."""
        csp = content_security_policy()
        when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        self.out.write(
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{esc(csp)}">\n'
            '<meta name="referrer" content="no-referrer">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(self.title)}</title>\n<style>{STYLE}</style></head>\n"
            + (f'<body data-review="{esc(self.review_url)}">\n' if self.review_url else "<body>\n")
            + f'<header class="top"><h1>{esc(self.title)}</h1>'
            f'<p class="meta">citetracer {esc(__version__)} · {esc(when)}'
            + (f" · {esc(self.context)}" if self.context else "")
            + "</p>"
            + _actions_html(self.actions)
            + '</header>\n<main>\n<div id="papers">\n'
        )

    def begin_paper(
        self,
        name: str,
        pdf: Path | None = None,
        warnings: list[str] | None = None,
        pdf_href: str | None = None,
        review_key: str | None = None,
    ) -> None:
        """Open a paper's section, with a link to its PDF and its extraction warnings.

        The PDF is linked relative to the report's folder, or at `pdf_href` when a server serves it.
        `review_key`: how the review buttons name this paper to the server (a scan's paper name)."""
        self._n += 1
        self._anchor = f"paper-{self._n}"
        self._pdf_href = pdf_href or (file_href(pdf, self.report_dir) if pdf else None)
        self._warnings = list(warnings or [])
        link = f' <a class="pdf" href="{esc(self._pdf_href)}">open PDF</a>' if self._pdf_href else ""
        paper = f' data-paper="{esc(review_key)}"' if review_key is not None else ""
        self.out.write(
            f'<section class="paper card" id="{self._anchor}"{paper}>\n<h2 title="{esc(name)}">{esc(self._short(name))}'
            f'{link} <a class="top" href="#summary">↑ summary</a></h2>\n'
        )
        if warnings:
            items = "".join(f"<li>{esc(w)}</li>" for w in warnings)
            self.out.write(f'<ul class="warn" title="extraction warnings">{items}</ul>\n')

    def citation(self, c: CitationResult) -> None:
        """Count a citation and hold its card until the paper ends (no card when `show` leaves it out)."""
        v = c.verdict
        self._classes[v.class_] += 1
        for code in v.codes:
            self._codes[code] += 1
        if c.decision is not None:
            self._decided[c.decision.action] += 1
        if not is_shown(c, self.show):
            return
        # held until the paper ends (one paper's worth, on disk when large), then written in reading order
        self._pending[reading_rank(c) if self.sort == "attention" else 0].write(self._citation_html(c))

    def end_paper(
        self,
        counts: PaperCounts,
        warnings: list[str] | None = None,
        store_warnings: list[str] | None = None,
        reading: ReadingSummary | None = None,
    ) -> None:
        """Write the paper's cards in reading order (Hallucinated, then P3, P2, P1, Real; input order within
        each; `sort="id"`: input order) and its counts; `warnings`: all of the paper's, when some were known
        only at its end (the run's own, e.g. no source answered); `store_warnings`: what the store cannot
        confirm of it, said once for the report in its own section (report/storenotes.py); `reading`, a PDF's,
        in one line under the counts (the list's pages, how many references, how many read with low confidence)."""
        self._store.add(counts.file, store_warnings or [])
        if reading is not None and reading.no_list and not counts.no_list:  # the summary lists it to look at
            counts = replace(counts, no_list=reading.summary)
        late = [w for w in warnings or [] if w not in self._warnings]
        if late:
            items = "".join(f"<li>{esc(w)}</li>" for w in late)
            self.out.write(f'<ul class="warn" title="warnings">{items}</ul>\n')
            self._warnings += late
        self._pending.copy_to(self.out)
        if reading is not None and reading.no_list:  # said plainly, not as "0 references" of a paper citing nothing
            # .nolist: the filters keep the section shown though it has no citation card
            self.out.write(f'<p class="counts nolist"><b class="H">{esc(no_list_line(reading))}</b></p>\n')
        else:
            self.out.write(f'<p class="counts">{_counts_html(counts)}</p>\n')
        if reading is not None and not reading.no_list:
            self.out.write(f'<p class="reading">read: {esc(reading.summary)}</p>\n')
        self.out.write("</section>\n")
        self._rows.append(_PaperRow(self._anchor, counts.file, counts, warnings=self._warnings))

    def skipped_paper(
        self, counts: PaperCounts, warnings: list[str] | None = None, store_warnings: list[str] | None = None
    ) -> None:
        """A paper counted in the summary but not shown (nothing that `show` keeps)."""
        self._store.add(counts.file, store_warnings or [])
        self._n += 1
        self._rows.append(_PaperRow(f"paper-{self._n}", counts.file, counts, warnings=list(warnings or [])))

    def unreadable_paper(self, name: str, error: str) -> None:
        """A paper nothing could be read from (or whose check failed): listed, never dropped."""
        self._n += 1
        anchor = f"paper-{self._n}"
        self.out.write(
            f'<section class="paper card" id="{anchor}" data-unread="1">\n'
            f'<h2 title="{esc(name)}">{esc(self._short(name))}</h2>\n'
            f'<ul class="warn"><li>not checked: {esc(error)}</li></ul>\n</section>\n'
        )
        self._rows.append(_PaperRow(anchor, name, None, error))

    def end(self) -> None:
        """Close the document with the summary table and the filters."""
        self.out.write("</div>\n")
        self._write_summary()
        self._write_store()
        self._write_filters()
        self.out.write(f"</main>\n<script>{SCRIPT}</script>\n</body></html>\n")

    # ------------------------------------------------------------------ pieces

    def _citation_html(self, c: CitationResult) -> str:
        v = c.verdict
        k = SHORT[v.class_]
        ref = c.reference
        extra = [x for x in v.codes if x != v.code]
        codes = esc(v.code) + (f" +{esc(','.join(extra))}" if extra else "")
        page = ""
        if ref.page:
            page = (
                f' <a class="page" href="{esc(self._pdf_href)}#page={ref.page}">p. {ref.page}</a>'
                if self._pdf_href
                else f' <span class="page">p. {ref.page}</span>'
            )
        head = (
            f'<span class="badge {k}">{esc(v.class_)}</span> <span class="codes" title="{esc(_code_titles(v.codes))}">'
            f'{codes}</span> <span class="cid">[{esc(c.id)}]</span>{page} '
            f'<span class="ref">{esc(_title_line(c))}</span>'
        )
        body = [f'<p class="why">{esc(lead_reason(v.rationale))}</p>']
        decided = decision_text(c)
        if decided:
            body.insert(0, f'<p class="decision">{esc(decided)}</p>')
        rest = v.rationale[len(lead_reason(v.rationale)) :].lstrip(". ").strip()
        if rest:
            body.append(f'<p class="why2">{esc(rest)}</p>')
        note = coverage_note(c)
        if note:
            body.append(f'<p class="cov">{esc(note)}</p>')
        rows = field_rows(c)
        if rows:
            body.append(self._fields_table(c, rows))
        links = evidence_links(c)
        if links:
            items = []
            for e in links:
                label = f"{e.source}:{e.id}" + (f" '{e.title}'" if e.title else "")
                if e.url:
                    items.append(f'<a href="{esc(e.url)}" rel="noopener noreferrer nofollow">{esc(label)}</a>')
                else:
                    items.append(esc(label))
            body.append(f'<p class="ev">Evidence: {"; ".join(items)}</p>')
        lookups = lookup_links(c)  # P1: nothing found; the chair's own search, one click each
        if lookups:
            found = " · ".join(
                f'<a href="{esc(url)}" rel="noopener noreferrer nofollow">{esc(label)}</a>' for label, url in lookups
            )
            body.append(f'<p class="lookup">Look it up: {found}</p>')
        if ref.raw:
            body.append(f'<details><summary>reference as read</summary><pre class="raw">{esc(ref.raw)}</pre></details>')
        data = (
            f'data-class="{esc(v.class_)}" data-codes="{esc(" ".join(v.codes))}" '
            f'data-decision="{esc(c.decision.action if c.decision else "open")}" data-id="{esc(c.id)}"'
        )
        if v.class_ == "Real":  # compact: the details open on demand
            return f'<details class="cite {k}" {data}><summary>{head}</summary>{"".join(body)}</details>\n'
        return f'<article class="cite {k}" {data}><div class="head">{head}</div>{"".join(body)}</article>\n'

    def _fields_table(self, c: CitationResult, rows: list[FieldRow]) -> str:
        if not has_record(c):  # nothing to compare with: the cited fields alone
            body = "".join(
                f'<tr class="{"offending" if r.offending else ""}"><td>{esc(r.field)}</td><td>{esc(r.cited)}</td></tr>'
                for r in rows
            )
            return (
                '<table class="fields"><thead><tr><th>field</th><th>cited (no record of this work found)</th>'
                f"</tr></thead><tbody>{body}</tbody></table>"
            )
        same_work = c.verdict.code not in NOT_THIS_WORK
        out = [
            '<table class="fields"><thead><tr><th>field</th><th>cited</th>'
            f'<th>{esc(record_label(c))}</th><th class="status">comparison</th></tr></thead><tbody>'
        ]
        for row in rows:
            # differences from another work are no fault of the citation: shown, not highlighted
            classes = [row.status] if row.status and (same_work or row.status != "mismatch") else []
            if row.offending:
                classes.append("offending")
            cited, found = (
                _field_cells(row) if same_work else (esc(row.cited) or "<i>—</i>", esc(row.found) or "<i>—</i>")
            )
            status = _status_text(row, c.verdict.class_)
            out.append(
                f'<tr class="{" ".join(classes)}"><td>{esc(row.field)}</td><td>{cited}</td><td>{found}</td>'
                f'<td class="status">{esc(status)}</td></tr>'
            )
        out.append("</tbody></table>")
        return "".join(out)

    def _write_summary(self) -> None:
        # what nothing was checked of (unread, or no list found) after the checked papers, riskiest first
        rows = sorted(
            self._rows,
            key=lambda r: r.counts.risk_key() if r.counts and not r.counts.no_list else (1, 0.0, 0, 0, r.name),
        )
        checked = [r.counts for r in rows if r.counts]
        refs = sum(c.references for c in checked)
        h = sum(c.hallucinated for c in checked)
        p = sum(c.potential for c in checked)
        r = sum(c.real for c in checked)
        h1 = sum(1 for c in checked if c.hallucinated >= 1)
        h3 = sum(1 for c in checked if c.hallucinated >= 3)
        warned = sum(1 for c in checked if c.warnings)
        unread = len(rows) - len(checked)
        no_list = [x for x in rows if x.counts and x.counts.no_list]
        totals = [
            ("", len(rows), noun(len(rows), "paper")),
            ("", refs, noun(refs, "reference")),
            ("R", r, "Real"),
            ("P", p, "Potential"),
            ("H", h, "Hallucinated"),
            ("H", h1, noun(h1, "paper") + " with ≥ 1 Hallucinated"),
            ("H", h3, noun(h3, "paper") + " with ≥ 3 Hallucinated"),
            ("P", warned, noun(warned, "paper") + " with extraction warnings"),
        ]
        if no_list:
            totals.append(("H", len(no_list), noun(len(no_list), "paper") + " with no reference list found"))
        if unread:
            totals.append(("P", unread, noun(unread, "paper") + " not checked"))
        for action, k in (("dismissed", "R"), ("confirmed", "H")):
            if self._decided[action]:
                totals.append((k, self._decided[action], f"{action} by the chair"))
        items = "".join(f'<li class="{k}"><b>{n}</b>{esc(label)}</li>' for k, n, label in totals)
        w = self.out.write
        w(f'<section id="summary" class="card"><h2>Summary</h2><ul class="totals">{items}</ul>\n')
        w(f'<p class="legend" id="legend">{esc(LEGEND)}. Hover a code for its meaning.</p>\n')
        if self.review_url or self._decided:
            said = decisions_line(self._decided["dismissed"], self._decided["confirmed"])
            w(f'<p class="legend decided" id="decided">{esc(said)}</p>\n')
        for note in self.notes:
            w(f'<p class="legend">{esc(note)}</p>\n')
        if no_list:
            w(self._no_list_html(no_list))
        flagged_codes = Counter({k: n for k, n in self._codes.items() if not k.startswith("R")})
        if flagged_codes:
            w(f"<p><b>Top codes:</b> {esc(_codes_line(flagged_codes))}</p>\n")
        shown = [x for x in rows if x.counts is None or x.counts.shows(self.show)]
        w(  # in a box of its own that scrolls sideways on a phone (eight columns do not fit 390 px)
            '<div class="wide"><table class="papers"><thead><tr><th>#</th><th>paper (riskiest first)</th>'
            "<th>references</th><th>Real</th><th>Potential</th><th>Hallucinated</th><th>top codes</th>"
            "<th>warnings</th></tr></thead><tbody>\n"
        )
        for i, row in enumerate(shown, 1):
            link = f'<a href="#{row.anchor}" title="{esc(row.name)}">{esc(self._short(row.name))}</a>'
            if row.counts is None:
                w(
                    f'<tr class="unread"><td class="n">{i}</td><td>{link}</td><td colspan="6">not checked: '
                    f"{esc(row.error)}</td></tr>\n"
                )
                continue
            c = row.counts
            if c.no_list:  # its zeros would read as a paper citing nothing
                w(
                    f'<tr class="unread"><td class="n">{i}</td><td>{link}</td><td colspan="6">'
                    f"{esc(no_list_line(c.no_list))}</td></tr>\n"
                )
                continue
            h = c.open_hallucinated
            risk = "risk3" if h >= 3 else "risk1" if h else "riskp" if c.potential else ""
            w(
                f'<tr class="{risk}"><td class="n">{i}</td><td>{link}</td><td class="n">{c.references}</td>'
                f'<td class="n">{c.real}</td><td class="n pn">{c.potential}</td><td class="n hn">{c.hallucinated}'
                + (f" ({c.dismissed_hallucinated} dismissed)" if c.dismissed_hallucinated else "")
                + "</td>"
                f'<td>{esc(top_codes(c.codes))}</td><td class="warns">{_warnings_cell(row.warnings)}</td></tr>\n'
            )
        w("</tbody></table></div>\n")
        p1 = self._codes.get("P1", 0)
        if refs and p1 >= refs / 2:
            w(
                f'<p class="legend"><b>{p1} of {plural(refs, "citation")} {"is" if p1 == 1 else "are"} P1</b> '
                "(not found, where the sources searched "
                "do not cover the venue, or a source failed): unconfirmed, not suspect. A larger store "
                "(<code>citetracer mirror dblp</code> of the full dump) or online sources settle most of them.</p>\n"
            )
        if len(shown) < len(rows):
            what = "Hallucinated" if self.show == "hallucinated" else "flagged (H, P2, P3)"
            hidden = len(rows) - len(shown)
            w(
                f'<p class="legend">{plural(hidden, "paper")} with nothing {what} {"is" if hidden == 1 else "are"} '
                f"not listed (--show {esc(self.show)}).</p>\n"
            )
        w("</section>\n")

    def _no_list_html(self, rows: list[_PaperRow]) -> str:
        """The papers in which no reference list was found, each linked with the pages searched: nothing of them
        was checked, so a chair screening many papers must look at them, and with no flagged citation they would
        only be rows far down the table."""
        items = "".join(
            f'<li><a href="#{r.anchor}" title="{esc(r.name)}">{esc(self._short(r.name))}</a>: '
            f"{esc(r.counts.no_list if r.counts else '')}</li>"
            for r in rows
        )
        it = "it" if len(rows) == 1 else "them"
        return (
            f'<div id="no-list"><p><b class="H">No reference list found in {plural(len(rows), "paper")}</b>: '
            f"nothing of {it} was checked; look at {it} (<code>{esc(REF_PAGES_COMMAND)}</code> "
            f"checks a list on the pages given).</p><ul>{items}</ul></div>\n"
        )

    def _write_store(self) -> None:
        """The store's warnings, each once for the whole report, under the summary (not a paper's warnings)."""
        if not self._store:
            return
        items = "".join(f"<li>{esc(w)}</li>" for w in self._store.lines())
        self.out.write(
            '<section id="store" class="card" aria-label="store"><h2>The store</h2>'
            f'<p class="legend">What the local store cannot confirm, whatever the papers say:</p><ul>{items}</ul>'
            "</section>\n"
        )

    def _write_filters(self) -> None:
        w = self.out.write
        w('<nav id="filters" class="card" aria-label="filters"><fieldset><legend>Show</legend>')
        for cls in CLASSES:
            n = self._classes.get(cls, 0)
            if (cls == "Real" and self.show != "all") or (cls == "Potential" and self.show == "hallucinated"):
                continue  # no filter for what is not there
            w(
                f'<label><input type="checkbox" data-kind="class" value="{cls}" checked> '
                f'<span class="badge {SHORT[cls]}">{cls}</span> {n}</label>'
            )
        w("</fieldset><fieldset><legend>Codes</legend>")
        for code in sorted(self._codes, key=lambda x: PRIMARY_ORDER.index(x) if x in PRIMARY_ORDER else 99):
            w(
                f'<label title="{esc(_code_titles([code]))}"><input type="checkbox" data-kind="code" '
                f'value="{esc(code)}" checked> {esc(code)} {self._codes[code]}</label>'
            )
        if self.review_url or self._decided:
            w("</fieldset><fieldset><legend>Chair</legend>")
            open_ = sum(self._classes.values()) - sum(self._decided.values())
            for value, label, n in (
                ("open", "not decided", open_),
                ("dismissed", "dismissed", self._decided["dismissed"]),
                ("confirmed", "confirmed", self._decided["confirmed"]),
            ):
                w(f'<label><input type="checkbox" data-kind="decision" value="{value}" checked> {label} {n}</label>')
        w('</fieldset><span id="shown"></span></nav>\n')


def _actions_html(actions: list[tuple[str, str]]) -> str:
    if not actions:
        return ""
    links = " ".join(f'<a href="{esc(href)}">{esc(label)}</a>' for label, href in actions)
    return f'<p class="actions">{links}</p>'


def _warnings_cell(warnings: list[str]) -> str:
    if not warnings:
        return ""
    first = warnings[0] if len(warnings[0]) <= 90 else warnings[0][:89] + "…"
    more = f" (+{len(warnings) - 1} more)" if len(warnings) > 1 else ""
    return f'<span title="{esc(" | ".join(warnings))}">⚠ {esc(first)}{more}</span>'


def _title_line(c: CitationResult) -> str:
    ref = c.reference
    who = ref.authors[0].family if ref.authors else ""
    if len(ref.authors) > 1 or ref.et_al:
        who += " et al."
    title = ref.title or (ref.raw or "")[:200]
    return f"{who} ({ref.year or 'n.d.'}) {title}".strip()


def _code_titles(codes: list[str]) -> str:
    return "; ".join(f"{k}: {CODES[k].name}, {CODES[k].meaning}" for k in codes if k in CODES)


def _codes_line(codes: Counter[str]) -> str:
    """The six leading codes, Hallucinated ones first (views.top_codes' order), with their names."""
    return ", ".join(f"{k} {CODES[k].name if k in CODES else ''} ×{n}" for k, n in leading_codes(codes, 6))


def _counts_html(c: PaperCounts) -> str:
    decided = decisions_line(c.dismissed, c.confirmed)
    return (
        f'{plural(c.references, "reference")}: <b class="R">{c.real} Real</b>, '
        f'<b class="P">{c.potential} Potential</b>, <b class="H">{c.hallucinated} Hallucinated</b>'
        + (f" · {esc(decided)}" if decided else "")
        + (f" · {plural(c.warnings, 'warning')}" if c.warnings else "")
    )
