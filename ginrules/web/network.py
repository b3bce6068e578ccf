"""Where the site listens and where other phones reach it.

``ginrules serve`` opens its listening socket itself, before gunicorn starts,
and hands gunicorn the open socket (``fd://``): a port already taken is then
one clear error, never a second server quietly sharing the port, and port 0
gives a free port whose real number is known before any link is made.

A site listening beyond loopback (``0.0.0.0``) is reached from the other
phones at the table through the machine's address on the local network:
:func:`lan_address` finds it, and the share links and QR codes use it.
"""

from __future__ import annotations

import errno
import ipaddress
import socket
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

#: Any address outside this machine: connecting a UDP socket to it sends nothing,
#: but makes the kernel choose the interface (and so the address) it would route by.
_PROBE: Final = ("10.254.254.254", 9)
ANY_ADDRESS: Final = ("0.0.0.0", "::", "")


class PortInUse(OSError):
    """Another program (perhaps another ginrules) already listens on the port."""

    def __init__(self, host: str, port: int) -> None:
        super().__init__(errno.EADDRINUSE, f"{host}:{port}")
        self.host = host
        self.port = port


@dataclass(frozen=True)
class Listener:
    """An open listening socket and the address it really has."""

    sock: socket.socket
    host: str
    port: int

    @property
    def fd(self) -> int:
        return self.sock.fileno()

    def close(self) -> None:
        self.sock.close()


def is_loopback(host: str) -> bool:
    """``host`` names this machine only (127.0.0.1, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def listen(host: str, port: int, backlog: int = 2048) -> Listener:
    """A socket listening on ``host``:``port`` (port 0: a free one).

    ``SO_REUSEADDR`` lets a restarted server take its port back from connections
    still closing; ``SO_REUSEPORT`` is never set, so a port in use raises
    :class:`PortInUse` instead of being shared.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(backlog)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise PortInUse(host, port) from error
        raise
    sock.set_inheritable(True)
    return Listener(sock, host, int(sock.getsockname()[1]))


def lan_address() -> str | None:
    """This machine's address on the local network (IPv4), or None when it has none."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(_PROBE)
        found = str(probe.getsockname()[0])
        if not is_loopback(found) and found != "0.0.0.0":
            return found
    except OSError:  # no route out: look at the host name's addresses instead
        pass
    finally:
        probe.close()
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    for info in infos:
        address = str(info[4][0])
        if not is_loopback(address):
            return address
    return None


def reachable_host(listen_host: str) -> tuple[str, bool]:
    """The host other devices use to reach a server on ``listen_host``, and
    whether they can (False: only this machine can open the links)."""
    if listen_host in ANY_ADDRESS:
        found = lan_address()
        return (found, True) if found else ("127.0.0.1", False)
    if is_loopback(listen_host):
        return listen_host, False
    return listen_host, True


def base_url(host: str, port: int) -> str:
    """``http://host:port`` (IPv6 hosts in brackets)."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}"


def host_of(url: str) -> str:
    """The host part of ``url`` (without brackets or port)."""
    return urlsplit(url).hostname or ""
