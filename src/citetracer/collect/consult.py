"""Ask one source for one citation and record what happened in the bundle.

Whatever the source does, the bundle gets exactly one SourceOutcome for it:
`answered` (with the number of new candidates), `failed` with the reason, or
`skipped` with a detail starting "skipped (rate budget)" when the request was
never sent because the source's polite rate left it no turn within the
citation's rate budget (see EvidenceBundle.failed_sources for what that means).
A reply that parses but has an unexpected shape is a failure too, never an
empty answer: only a well-formed empty reply means "not found".
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from citetracer.collect.http import Call, HttpClient, OverBudget, SourceFailure
from citetracer.collect.stage import RATE_BUDGET, EvidenceBundle
from citetracer.records import Candidate, SourceOutcome

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
) -> list[Candidate] | None:
    """The candidates the source answered with (possibly none), or None when it failed or was skipped.

    `start_by`: the rate budget (monotonic time by which each request must be able to start).
    """
    if not base:
        bundle.outcomes.append(SourceOutcome(source=source, status="skipped", detail="no base URL configured"))
        return None
    call = http.call(source, base, deadline, start_by=start_by)
    try:
        found = await ask(call)
    except OverBudget as exc:
        detail = f"{RATE_BUDGET}: {exc.detail}" + (f"; {why}" if why else "")
        bundle.outcomes.append(SourceOutcome(source=source, status="skipped", detail=detail))
        return None
    except SourceFailure as exc:
        bundle.outcomes.append(SourceOutcome(source=source, status="failed", detail=exc.detail))
        return None
    except (AttributeError, TypeError, KeyError, ValueError, IndexError) as exc:
        bundle.outcomes.append(
            SourceOutcome(source=source, status="failed", detail=f"unexpected reply shape ({type(exc).__name__})")
        )
        return None
    finally:
        bundle.connector_calls += call.network_calls
    added = sum(bundle.add(c) for c in found)
    notes = [why] if why else []
    if call.cache_hits and not call.network_calls:
        notes.append("from cache")
    bundle.outcomes.append(
        SourceOutcome(source=source, status="answered", candidates=added, detail="; ".join(notes) or None)
    )
    return found
