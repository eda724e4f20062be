"""What a request answers (`Response`, its XML, its rate-limit and Retry-After headers), and the
per-source counters."""

from __future__ import annotations

import email.utils
import re
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from citetracer.collect.http.failures import SourceFailure


@dataclass
class SourceStats:
    calls: int = 0
    cache_hits: int = 0
    failures: int = 0
    bytes: int = 0
    seconds: float = 0.0


@dataclass
class Response:
    status: int
    url: str
    content_type: str
    body: bytes
    from_cache: bool = False

    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


def parse_xml(source: str, body: bytes) -> ET.Element:
    """Parse an XML reply without entity expansion risks.

    expat never fetches external DTDs or entities; we also refuse any document
    that declares its own entities, which no API reply we read does, so entity
    expansion attacks cannot start.
    """
    if b"<!ENTITY" in body:
        raise SourceFailure(source, "XML reply declares entities; refused")
    try:
        return ET.fromstring(body)
    except ET.ParseError as exc:
        raise SourceFailure(source, f"invalid XML: {exc}") from exc


def advertised_rate(limit: str | None, interval: str | None) -> float | None:
    """Requests per second from rate-limit headers ("50" per "1s"); None when absent or unreadable."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*s?\s*", interval or "")
    if not limit or not limit.strip().isdigit() or m is None or float(m.group(1)) <= 0:
        return None
    return int(limit) / float(m.group(1))


def retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or HTTP-date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
