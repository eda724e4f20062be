"""Guard for URLs taken from papers or web pages: they are untrusted.

A paper can cite `http://169.254.169.254/latest/meta-data/` or a host that
resolves to 10.0.0.1; fetching it would let a document probe the user's
network. Only http(s) URLs whose every resolved address is a global unicast
address pass, unless the user explicitly allowed a network or host
(`online.allow_private`). The HTTP layer calls this again on every redirect.

DNS rebinding: a host with a zero TTL can answer a public address to the
check and a private one to the connection's own lookup. So the name is
resolved once, here, and the connection goes to the address that was
checked (`pinned`: the IP in the URL, the name in the Host header and in the
TLS SNI and certificate check); nothing resolves the name a second time.
The resolver is injectable so tests need no real DNS.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

RESOLVE_TIMEOUT = 3.0

IP = ipaddress.IPv4Address | ipaddress.IPv6Address
#: host, port -> the addresses the host resolves to (as strings).
Resolver = Callable[[str, int], Awaitable[list[str]]]


async def system_resolver(host: str, port: int) -> list[str]:
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


@dataclass(frozen=True)
class Pinned:
    """Where to connect for a checked URL: `url` names the checked address; `host` goes
    into the Host header, `sni` (https only) into the TLS handshake and certificate check."""

    url: str
    host: str
    sni: str | None


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


#: IPv6 ranges that `ipaddress.is_global` (Python 3.11) lets through although they reach no public
#: host of their own: IPv4-compatible (::a.b.c.d, deprecated; ::7f00:1 is 127.0.0.1 on some stacks),
#: IPv4-translated (::ffff:0:a.b.c.d), site-local (fec0::/10, deprecated), discard-only (100::/64).
_NON_GLOBAL_V6 = tuple(ipaddress.ip_network(n) for n in ("::/96", "::ffff:0:0:0/96", "fec0::/10", "100::/64"))
#: Ranges that carry an IPv4 address in their low 32 bits (NAT64, RFC 6052 / 8215): judged by that address.
_NAT64 = tuple(ipaddress.ip_network(n) for n in ("64:ff9b::/96", "64:ff9b:1::/48"))


def address_ok(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """A public unicast address, also once the IPv4 address an IPv6 one carries is taken out."""
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour
        if embedded is None and any(ip in net for net in _NAT64):
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None:
            return address_ok(embedded)
        if ip.teredo is not None or any(ip in net for net in _NON_GLOBAL_V6):
            return False
    return ip.is_global and not ip.is_multicast


async def check_url(url: str, allow: Sequence[str] = (), resolver: Resolver | None = None) -> list[IP]:
    """The addresses `url` reaches; UnsafeURL unless it is http(s) and they are all public (or allowed)."""
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
        try:
            async with asyncio.timeout(RESOLVE_TIMEOUT):
                answers = await (resolver or system_resolver)(host, port)
            addresses = [ipaddress.ip_address(a.split("%")[0]) for a in answers]
        except (OSError, TimeoutError, ValueError) as exc:
            raise UnsafeURL(f"host {host!r} does not resolve") from exc
        if not addresses:
            raise UnsafeURL(f"host {host!r} does not resolve") from None
    for ip in addresses:
        if not (address_ok(ip) or _allowed(ip, host, allow)):
            raise UnsafeURL(f"{host!r} resolves to a non-public address ({ip})")
    return addresses


def pinned(url: str, ip: IP) -> Pinned:
    """`url` rewritten to connect to `ip`, keeping the name for the Host header and TLS."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    literal = f"[{ip}]" if isinstance(ip, ipaddress.IPv6Address) else str(ip)
    netloc = literal + (f":{parts.port}" if parts.port else "")
    sni = host if parts.scheme == "https" and host.strip("[]") != str(ip) else None
    return Pinned(urlunsplit(parts._replace(netloc=netloc)), parts.netloc, sni)
