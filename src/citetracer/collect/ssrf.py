"""Guard for URLs taken from papers or web pages: they are untrusted.

A paper can cite `http://169.254.169.254/latest/meta-data/` or a host that
resolves to 10.0.0.1; fetching it would let a document probe the user's
network. Only http(s) URLs whose every resolved address is a global unicast
address pass, unless the user explicitly allowed a network or host
(`online.allow_private`). The HTTP layer calls this again on every redirect.

Known weakness: the address is checked at resolution time and httpx
resolves again when connecting, so a DNS-rebinding host with a zero TTL
could still slip through between the two lookups.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Sequence
from urllib.parse import urlsplit

RESOLVE_TIMEOUT = 3.0


class UnsafeURL(Exception):
    """The URL may not be fetched (scheme, host or address not allowed)."""


def _allowed(ip: ipaddress.IPv4Address | ipaddress.IPv6Address, host: str, allow: Sequence[str]) -> bool:
    for item in allow:
        if item.lower() == host.lower():
            return True
        try:
            if ip in ipaddress.ip_network(item, strict=False):
                return True
        except ValueError:
            continue
    return False


def address_ok(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


async def check_url(url: str, allow: Sequence[str] = ()) -> None:
    """Raise UnsafeURL unless `url` is http(s) and reaches only public addresses (or allowed ones)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise UnsafeURL(f"scheme {parts.scheme or 'none'!r} of {url[:80]!r}")
    host = parts.hostname
    if not host:
        raise UnsafeURL(f"no host in {url[:80]!r}")
    if parts.username or parts.password:
        raise UnsafeURL(f"credentials in {url[:80]!r}")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise UnsafeURL(f"bad port in {url[:80]!r}") from exc
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(RESOLVE_TIMEOUT):
                infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, TimeoutError) as exc:
            raise UnsafeURL(f"host {host!r} does not resolve") from exc
        addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
    for ip in addresses:
        if not (address_ok(ip) or _allowed(ip, host, allow)):
            raise UnsafeURL(f"{host!r} resolves to a non-public address ({ip})")
