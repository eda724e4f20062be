"""On-disk cache of valid agent replies, keyed by model + prompt version + the exact request.

Re-checking a paper (or a benchmark) should not pay for the same answer twice,
and a changed prompt must not reuse answers to the old one: the key hashes the
model, the prompt id (`name@vN`), the reply schema and the messages. Only
replies that validated are stored, one small JSON file each, written atomically
so a crash never leaves a half entry that later reads as an answer.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

#: Largest cached reply read back; anything bigger is not ours.
MAX_ENTRY_BYTES = 1_000_000


def cache_key(model: str, prompt_id: str, schema: str, messages: list[dict[str, Any]]) -> str:
    """The response-cache key: model, prompt version, reply schema and the exact messages sent."""
    blob = json.dumps([model, prompt_id, schema, messages], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ResponseCache:
    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> str | None:
        """The cached reply content for `key`, or None (absent, oversized or unreadable entries are misses)."""
        path = self._path(key)
        try:
            if path.stat().st_size > MAX_ENTRY_BYTES:
                return None
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        content = entry.get("content") if isinstance(entry, dict) else None
        return content if isinstance(content, str) else None

    def put(self, key: str, content: str, meta: dict[str, Any]) -> None:
        """Keep a reply under `key`, written atomically; a cache that cannot be written only costs future calls."""
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({**meta, "content": content}, fh, ensure_ascii=False)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written only costs a repeated call
