"""Gateway addresses: parsing ``HOST:PORT``, and which addresses are loopback ones."""

from __future__ import annotations

import ipaddress
import re
import socket

from ..errors import GatewayError

_ADDRESS = re.compile(r"\[(?P<v6>[^\]]+)\]:(?P<p6>\d+)|(?P<host>[^:\[\]]+):(?P<port>\d+)")


def parse_address(text: str) -> tuple[str, int]:
    """``(host, port)`` of ``'HOST:PORT'`` or ``'[IPV6]:PORT'``."""
    m = _ADDRESS.fullmatch(text.strip())
    port = int((m.group("p6") or m.group("port")) if m else 0)
    if m is None or not 0 < port < 65536:
        raise GatewayError(
            f"A gateway address looks like 'HOST:PORT' (such as '127.0.0.1:25333'); got {text!r}"
        )
    return m.group("v6") or m.group("host"), port


def _addresses(host: str) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError as e:
        raise GatewayError(f"Unknown gateway host {host!r}: {e}") from None
    return [str(info[4][0]).split("%")[0] for info in infos]


def is_loopback(host: str) -> bool:
    """Whether every address of ``host`` is a loopback address."""
    return all(ipaddress.ip_address(a).is_loopback for a in _addresses(host))


def callback_host(host: str, port: int) -> str:
    """The address of this machine that the gateway's host reaches us on."""
    if is_loopback(host):
        return _addresses(host)[0]
    family = socket.AF_INET6 if ":" in _addresses(host)[0] else socket.AF_INET
    with socket.socket(family, socket.SOCK_DGRAM) as probe:
        probe.connect((host, port))  # a datagram socket sends nothing to connect
        return str(probe.getsockname()[0])
