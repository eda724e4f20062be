"""How untrusted text meets a model, and what a model may take from it.

- Untrusted text (reference strings, candidate records, web pages) enters a
  prompt only through `quote`: as JSON inside an `<untrusted-...>` element, with
  `<` and `>` escaped so no string can close the element or open a new one.
  The system prompt says its content is data; each agent's guardrails make
  obeying an injected instruction useless anyway (judge/agent_guardrails.py).
- `reference_data`: a reference as every agent is shown it.
- `grounded`: values an agent extracts from a text must be in that text.
"""

from __future__ import annotations

import json
from typing import Any

from citetracer.normalize.text import tokens
from citetracer.records import Reference


def quote(label: str, data: Any) -> str:
    """`data` as inert JSON inside <untrusted-label>...</untrusted-label>."""
    body = json.dumps(data, ensure_ascii=False, default=str).replace("<", "\\u003c").replace(">", "\\u003e")
    return f"<untrusted-{label}>\n{body}\n</untrusted-{label}>"


def unquote(label: str, text: str) -> Any:
    """The data of a `quote` block in `text` (what a fake or a log reader needs), or None."""
    start, end = text.find(f"<untrusted-{label}>"), text.find(f"</untrusted-{label}>")
    if start < 0 or end < start:
        return None
    return json.loads(text[start + len(label) + 12 : end])


def reference_data(ref: Reference) -> dict[str, Any]:
    """A reference as an agent is shown it: its fields, authors as display names, no layout."""
    data = ref.model_dump(mode="json", exclude={"boxes", "page", "label", "confidence"}, exclude_none=True)
    data["authors"] = [p.display() for p in ref.authors] + (["et al."] if ref.et_al else [])
    data.pop("et_al", None)
    return {k: v for k, v in data.items() if v not in (None, "", [])}


def grounded(value: str | None, text: str, share: float = 0.8) -> bool:
    """Whether most words of `value` occur in `text` (an extractor copies, it does not invent)."""
    if not value:
        return True
    words = tokens(value)
    if not words:
        return True
    haystack = set(tokens(text))
    return sum(w in haystack for w in words) >= share * len(words)
