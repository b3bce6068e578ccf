"""``ginrules serve`` as people start it: reachable links, one server per port.

Each test starts the real command (gunicorn, its workers, SQLite in the test's
folder) as a process of its own and stops it, whatever happened. The LAN test
listens on 0.0.0.0 for a few seconds, as ``make run HOST=0.0.0.0`` does: the
machine's own network address is what the phones at a table open.
"""

from __future__ import annotations

import io
import os
import re
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image

from ginrules.web import network
from tests.live_server import ADDRESS, STARTUP_SECONDS, environment, serve


def _machine_addresses() -> set[str]:
    """This machine's IPv4 addresses other than loopback, as the system lists them
    (``hostname -I``): an independent check of ginrules' own finding."""
    listed = subprocess.run(["hostname", "-I"], capture_output=True, text=True, check=False)
    return {
        address
        for address in listed.stdout.split()
        if "." in address and not network.is_loopback(address)
    }


def _save_house_rules(base: str) -> dict[str, str]:
    import json

    request = urllib.request.Request(
        base + "/api/houserules",
        data=json.dumps(
            {"yaml": "name: Kitchen table\nauthor: Ana\ndescription: ''\nextends: classic\n"}
        ).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 201
        saved: dict[str, str] = json.load(answer)
    return saved


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_on_every_address_the_share_qr_opens_the_machines_network_address(
    tmp_path: Path,
) -> None:
    addresses = _machine_addresses()
    if not addresses:
        pytest.skip("this machine has no network address besides loopback; a failure under CI")
    with serve(tmp_path, "--host", "0.0.0.0", "--port", "0") as running:
        found = running.wait_for(ADDRESS, STARTUP_SECONDS)
        listening, public = found[1], found[2]
        port = int(listening.rsplit(":", 1)[1])
        assert port > 0, "port 0 must be reported as the real port"
        lan = network.host_of(public)
        assert lan in addresses, f"{public} is not one of this machine's addresses {addresses}"
        assert public == f"http://{lan}:{port}"
        assert any(f"Open {public} on your phones" in line for line in running.lines)
        local = f"http://127.0.0.1:{port}"
        running.wait_ready(local + "/", STARTUP_SECONDS)

        saved = _save_house_rules(local)
        status, page = _get(f"{local}/h/{saved['slug']}/v1/share")
        assert status == 200
        qr_path = re.search(
            rb'id="share-qr"[^>]*src="([^"]+)"|src="([^"]+)"[^>]*id="share-qr"', page
        )
        assert qr_path, "the share page shows its QR code"
        src = (qr_path[1] or qr_path[2]).decode()
        status, png = _get(src if src.startswith("http") else local + src)
        assert status == 200
        with Image.open(io.BytesIO(png)) as image:
            decoded = [code.text for code in zxingcpp.read_barcodes(image.convert("L"))]
        assert decoded == [f"{public}/h/{saved['slug']}"]
        # ...and another device on the network opens what it decodes to.
        status, opened = _get(decoded[0])
        assert status == 200 and b"Kitchen table" in opened
    assert not (tmp_path / "home" / ".gunicorn").exists(), "no control socket in the home folder"


def test_a_second_server_on_a_used_port_stops_with_a_clear_message(tmp_path: Path) -> None:
    with serve(tmp_path / "first", "--port", "0") as first:
        found = first.wait_for(ADDRESS, STARTUP_SECONDS)
        port = int(found[1].rsplit(":", 1)[1])
        first.wait_ready(f"http://127.0.0.1:{port}/", STARTUP_SECONDS)
        second = subprocess.run(
            [sys.executable, "-m", "ginrules", "serve", "--port", str(port)],
            env=environment(tmp_path / "first", {}),
            capture_output=True,
            text=True,
            timeout=STARTUP_SECONDS,
            check=False,
        )
        assert second.returncode != 0
        assert f"port {port} on 127.0.0.1 is already in use" in second.stderr
        assert "Traceback" not in second.stderr + second.stdout
        # The first server still has the port to itself: a saved link opens every time.
        saved = _save_house_rules(f"http://127.0.0.1:{port}")
        answers = [_get(f"http://127.0.0.1:{port}/h/{saved['slug']}")[0] for _ in range(20)]
        assert answers == [200] * 20


def test_on_loopback_the_server_says_phones_cannot_open_it(tmp_path: Path) -> None:
    with serve(tmp_path, "--port", "0") as running:
        found = running.wait_for(ADDRESS, STARTUP_SECONDS)
        assert network.host_of(found[2]) == "127.0.0.1"
        running.wait_for(re.compile(r"Only this computer can open .*HOST=0\.0\.0\.0"), 10)


def test_listen_refuses_a_port_in_use_and_gives_port_zero_a_real_port() -> None:
    first = network.listen("127.0.0.1", 0)
    try:
        assert first.port > 0
        with pytest.raises(network.PortInUse) as refused:
            network.listen("127.0.0.1", first.port)
        assert refused.value.port == first.port
    finally:
        first.close()
    with (
        socket.create_server(("127.0.0.1", 0)) as taken,  # another program's socket
        pytest.raises(network.PortInUse),
    ):
        network.listen("127.0.0.1", taken.getsockname()[1])


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("::1", True), ("localhost", True), ("192.168.1.20", False)],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert network.is_loopback(host) is loopback


def test_base_urls_bracket_ipv6_hosts() -> None:
    assert network.base_url("192.168.1.20", 5000) == "http://192.168.1.20:5000"
    assert network.base_url("fd00::2", 8080) == "http://[fd00::2]:8080"
    assert network.reachable_host("192.168.1.20") == ("192.168.1.20", True)
    assert network.reachable_host("127.0.0.1") == ("127.0.0.1", False)


def test_a_sheet_made_on_the_command_line_warns_when_its_qr_opens_only_this_computer(
    tmp_path: Path,
) -> None:
    env = {key: value for key, value in os.environ.items() if key != "PUBLIC_BASE_URL"}

    def sheet(name: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "ginrules", "sheet", "classic", "-o", str(tmp_path / name)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    local = sheet("a.html")
    assert local.returncode == 0
    assert "warning: the QR code opens http://127.0.0.1:5000/rules/classic" in local.stderr
    env["PUBLIC_BASE_URL"] = "http://192.168.1.20:5000"
    lan = sheet("b.html")
    assert lan.returncode == 0 and "warning" not in lan.stderr
    assert "the QR code opens http://192.168.1.20:5000/rules/classic" in lan.stderr
