"""What ``ginrules serve`` and the sheet commands tell the person starting them."""

from __future__ import annotations

from ginrules.words.i18n import _, ngettext


def port_in_use(host: str, port: int) -> str:
    return _(
        "error: port {port} on {host} is already in use: another ginrules (or another "
        "program) is listening there. Stop it, or choose another port: "
        "make run PORT={other}  (or ginrules serve --port {other})"
    ).format(host=host, port=port, other=port + 1 if port else 5001)


def cannot_listen(host: str, port: int, reason: str) -> str:
    return _("error: cannot listen on {host}:{port}: {reason}").format(
        host=host, port=port, reason=reason
    )


def serving(address: str, public: str) -> str:
    return _("ginrules is at {address}/  (links and QR codes point to {public})").format(
        address=address, public=public
    )


def open_on_phones(public: str) -> str:
    return _("Open {public} on your phones (they must be on this network)").format(public=public)


def loopback_only(public: str) -> str:
    return _(
        "Only this computer can open {public}: to use the site from phones at the table, "
        "run  make run HOST=0.0.0.0  (or ginrules serve --host 0.0.0.0)"
    ).format(public=public)


def no_lan_address() -> str:
    return _(
        "warning: listening on every address, but this computer has no address on a local "
        "network; set PUBLIC_BASE_URL to the address phones use"
    )


def qr_points_to(url: str) -> str:
    return _("the QR code opens {url}").format(url=url)


def qr_loopback(url: str) -> str:
    return _(
        "warning: the QR code opens {url}, which only this computer can open; "
        "pass --base-url (or set PUBLIC_BASE_URL) to an address the phones reach"
    ).format(url=url)


def database(where: str) -> str:
    return _("database: {where}; Ctrl-C stops it").format(where=where)


def recycling(pid: int, answered: int) -> str:
    return _(
        "worker {pid} has answered {answered} requests: it finishes those under way, "
        "then a fresh worker takes its place"
    ).format(pid=pid, answered=answered)


def master_gone(pid: int) -> str:
    return _("worker {pid} stops: the server that started it is gone").format(pid=pid)


def stopped_busy(left: int, seconds: float) -> str:
    return ngettext(
        "stopping: {left} connection still busy after {seconds:g} s was closed",
        "stopping: {left} connections still busy after {seconds:g} s were closed",
        left,
    ).format(left=left, seconds=seconds)
