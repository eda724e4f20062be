"""Ask one source for one citation and record what happened in the bundle.

Whatever the source does, the bundle gets exactly one SourceOutcome for it:
`answered` (with the number of new candidates), `failed` with the reason, or
`skipped` with a detail starting "skipped (rate budget)" when the request was
never sent because the source's polite rate left it no turn within the
citation's rate budget (see EvidenceBundle.failed_sources for what that means),
or `skipped` with "URL not read" when the citation's own URL may not or cannot be
fetched (the SSRF guard refused it, its host does not resolve or takes no
connection): that is about the URL, not a source, and never makes a verdict P1.
A reply that parses but has an unexpected shape is a failure too, never an
empty answer: only a well-formed empty reply means "not found".

With an evidence memo in the bundle (collect/memo.py), a fresh earlier answer of
the source to the same question is replayed instead (outcome `answered`, its
detail and `fetched_at` saying so), and a new answer is remembered; failures are
remembered only as failures, never replayed. Offline, a source without a fresh
answer is `skipped` and never called: this is the one place that calls a source.

A lookup of a cited identifier (`identifier=(kind, value)`) also leaves its typed answer
on the outcome (collect/lookups.py): "work", "none" (the source's own "no such
record", the only empty answer a lookup returns) or "failed"; a skipped source was not
asked and leaves none.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from citetracer.collect.http import Call, HttpClient, OverBudget, Refused, SourceFailure
from citetracer.collect.lookups import answered
from citetracer.collect.memo import memo_note
from citetracer.collect.replies import Check
from citetracer.evidence import RATE_BUDGET, EvidenceBundle
from citetracer.records import Candidate, IdentifierKind, IdentifierLookup, SourceOutcome

Ask = Callable[[Call], Awaitable[list[Candidate]]]


async def consult(
    http: HttpClient,
    source: str,
    base: str,
    ask: Ask,
    bundle: EvidenceBundle,
    deadline: float,
    why: str = "",
    start_by: float | None = None,
    subject: str | None = None,
    memo: bool = True,
    check: Check | None = None,
    question: str | None = None,
    identifier: tuple[IdentifierKind, str] | None = None,
) -> list[Candidate] | None:
    """The candidates the source answered with (possibly none), or None when it failed or was not asked.

    `start_by`: the rate budget (monotonic time by which each request must be able to start).
    `subject` names the question for the memo (`doi:10.1000/x` for an identifier
    lookup); by default the question is a search about the citation itself
    (`bundle.subject`). `memo=False` for questions whose answer is not only
    candidates (a web search's result URLs) and so cannot be replayed. `check` says
    why a reply does not answer what was asked (collect/replies.py): such a reply
    is a failure of the source, never evidence. `question` says what was asked when it is not a
    search for the citation's title (SourceOutcome.question). `identifier`: the cited identifier this
    is a lookup of (kind, canonical value), whose typed answer the outcome then carries.
    """

    def lookups(found: list[Candidate] | None) -> list[IdentifierLookup]:
        return [answered(source, identifier[0], identifier[1], found)] if identifier else []

    if not base:
        bundle.outcomes.append(SourceOutcome(source=source, status="skipped", detail="no base URL configured"))
        return None
    key = (subject or bundle.subject) if memo and bundle.memo is not None else None
    notes = [why] if why else []
    if bundle.memo is not None and key is not None:
        entry = bundle.memo.fresh(source, key)
        if entry is not None:
            added = sum(bundle.add(c) for c in entry.candidates)
            bundle.outcomes.append(
                SourceOutcome(
                    source=source,
                    status="answered",
                    candidates=added,
                    detail="; ".join([*notes, memo_note(entry)]),
                    fetched_at=entry.fetched_iso,
                    question=question,
                    lookups=lookups(entry.candidates),
                )
            )
            return list(entry.candidates)
    if bundle.memo is not None and not bundle.memo.network:
        bundle.outcomes.append(
            SourceOutcome(source=source, status="skipped", detail="; ".join([*notes, "offline: no fresh memo"]))
        )
        return None
    call = http.call(source, base, deadline, start_by=start_by)
    try:
        found = await ask(call)
        wrong = check(found) if check is not None else None
        if wrong is not None:
            raise SourceFailure(source, f"reply does not answer what was asked: {wrong}", retry=False)
    except Refused as exc:
        # The citation's own URL cannot be read (refused, unresolvable, dead): not a failed source.
        bundle.outcomes.append(
            SourceOutcome(source=source, status="skipped", detail="; ".join([*notes, f"URL not read: {exc.detail}"]))
        )
        return None
    except OverBudget as exc:
        detail = f"{RATE_BUDGET}: {exc.detail}" + (f"; {why}" if why else "")
        bundle.outcomes.append(SourceOutcome(source=source, status="skipped", detail=detail))
        return None
    except (SourceFailure, AttributeError, TypeError, KeyError, ValueError, IndexError) as exc:
        # A reply that parsed but has an unexpected shape fails like a transport error.
        detail = exc.detail if isinstance(exc, SourceFailure) else f"unexpected reply shape ({type(exc).__name__})"
        bundle.outcomes.append(
            SourceOutcome(source=source, status="failed", detail=detail, question=question, lookups=lookups(None))
        )
        if bundle.memo is not None and key is not None:
            bundle.memo.failed(source, key, detail)
        return None
    finally:
        bundle.connector_calls += call.network_calls
    if bundle.memo is not None and key is not None:
        bundle.memo.answered(source, key, found)
    added = sum(bundle.add(c) for c in found)
    if call.cache_hits and not call.network_calls:
        notes.append("from cache")
    bundle.outcomes.append(
        SourceOutcome(
            source=source,
            status="answered",
            candidates=added,
            detail="; ".join(notes) or None,
            hits=call.total,
            question=question,
            lookups=lookups(found),
        )
    )
    return found
