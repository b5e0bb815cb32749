"""Log-in throttling in the documented production set-up, for real.

A real nginx runs the server block of docs/operations.md, read out of the document itself
(only its ports and certificate paths are changed, so the two cannot drift apart), in
front of as many real daphne processes as its upstream names, each started with the
command the document's process table gives (``--proxy-headers``). Clients connect over
TLS from different loopback addresses (127.0.0.2, 127.0.0.3, ...: each a different
``$remote_addr`` to nginx) and send whatever ``X-Forwarded-For`` they like.
"""

from __future__ import annotations

import http.client
import re
import shlex
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from typing import BinaryIO
from urllib.parse import urlencode

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model

from tests.support import BIN, artifacts_dir, free_port, service_env, stop_process, wait_for_http

BASE_DIR = Path(__file__).resolve().parents[2]
OPERATIONS = BASE_DIR / "docs" / "operations.md"
PASSWORD = "tall-pyramid-of-cards-42"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]  # nginx and two daphnes
User = get_user_model()


def documented_proxy_block(text: str) -> str:
    """The ```nginx block of the document's "The proxy" section."""
    section = text.split("## The proxy", 1)[1]
    match = re.search(r"```nginx\n(.*?)```", section, re.S)
    assert match, "docs/operations.md has no nginx block under 'The proxy'"
    return match.group(1)


def documented_daphne_command(text: str) -> list[str]:
    """The ASGI process's command from the document's process table."""
    match = re.search(r"^\| ASGI[^|]*\|[^|]*\| `([^`]+)` \|", text, re.M)
    assert match, "docs/operations.md's process table has no ASGI row"
    return shlex.split(match.group(1))


def localise(block: str, daphne_ports: list[int], listen_port: int, cert: Path, key: Path) -> str:
    """The documented block with this machine's ports and certificate files; nothing else changes."""
    upstreams = re.findall(r"server 127\.0\.0\.1:(\d+);", block)
    assert len(upstreams) == len(daphne_ports)
    for documented, port in zip(upstreams, daphne_ports, strict=True):
        block = block.replace(f"127.0.0.1:{documented};", f"127.0.0.1:{port};")
    block, listens = re.subn(r"listen 443 ", f"listen 127.0.0.1:{listen_port} ", block)
    assert listens == 1
    block, certs = re.subn(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", block)
    block, keys = re.subn(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", block)
    assert certs == keys == 1
    return block


@dataclass
class Proxy:
    port: int

    def request(
        self,
        method: str,
        path: str,
        source: str,
        headers: dict[str, str] | None = None,
        body: str | None = None,
    ) -> tuple[int, dict[str, str], str]:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # the test's own self-signed certificate
        conn = http.client.HTTPSConnection(
            "127.0.0.1", self.port, context=context, source_address=(source, 0), timeout=30
        )
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            cookies = SimpleCookie()
            for value in response.headers.get_all("Set-Cookie") or []:
                cookies.load(value)
            return response.status, {k: m.value for k, m in cookies.items()}, response.read().decode()
        finally:
            conn.close()

    def log_in(self, username: str, password: str, source: str, forged_for: str | None = None) -> int:
        """One log-in through the login page, as a browser at ``source`` does it; the status."""
        return self.log_in_page(username, password, source, forged_for)[0]

    def log_in_page(
        self, username: str, password: str, source: str, forged_for: str | None = None
    ) -> tuple[int, str]:
        """The status and the page that answer one log-in."""
        extra = {"X-Forwarded-For": forged_for} if forged_for else {}
        _, cookies, page = self.request("GET", "/accounts/login/", source, extra)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = urlencode({"csrfmiddlewaretoken": token, "username": username, "password": password})
        headers = {
            **extra,
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={cookies['csrftoken']}",
            # Django checks the Referer of a form sent over HTTPS against the Host nginx
            # passes on ($host, without a port): what a browser on port 443 would send.
            "Referer": "https://127.0.0.1/accounts/login/",
        }
        status, _, answer = self.request("POST", "/accounts/login/", source, headers, form)
        return status, answer


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 20) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx exited with {process.returncode}; see its error log")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nginx did not listen on {port}")


@pytest.fixture(scope="module")
def proxy(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    if not Path(NGINX).exists():
        raise RuntimeError("nginx is needed (Debian: apt-get install nginx; scripts/test installs it)")
    doc = OPERATIONS.read_text()
    folder = tmp_path_factory.mktemp("nginx")
    logs = artifacts_dir()
    processes: list[subprocess.Popen[bytes]] = []
    log_files: list[BinaryIO] = []
    try:
        block = documented_proxy_block(doc)
        command = documented_daphne_command(doc)
        assert command[0] == "daphne" and "--proxy-headers" in command
        daphne_ports = [free_port() for _ in re.findall(r"server 127\.0\.0\.1:\d+;", block)]
        for i, port in enumerate(daphne_ports, start=1):
            argv = [str(BIN / "daphne"), *[str(port) if a == "800%i" else a for a in command[1:]]]
            log = open(logs / f"proxy-daphne-{i}.log", "wb")  # noqa: SIM115 - closed at teardown
            log_files.append(log)
            processes.append(
                subprocess.Popen(
                    argv,
                    cwd=BASE_DIR,
                    env=service_env(),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        for port, process in zip(daphne_ports, processes, strict=True):
            wait_for_http(f"http://127.0.0.1:{port}/", timeout=60, process=process)

        listen_port = free_port()
        cert, key = self_signed_certificate(folder)
        for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (folder / temp).mkdir()
        conf = folder / "nginx.conf"
        conf.write_text(
            # The wrapping a Debian nginx.conf gives conf.d/ files, with paths of our own.
            # "user root" lets workers reach the test's private folder (ignored unless root).
            f"""
user root;
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {logs}/proxy-nginx-error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log {logs}/proxy-nginx-access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
{localise(block, daphne_ports, listen_port, cert, key)}
}}
"""
        )
        argv = [NGINX, "-p", str(folder), "-e", str(logs / "proxy-nginx-error.log"), "-c", str(conf)]
        check = subprocess.run([*argv, "-t"], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        nginx = subprocess.Popen(argv, start_new_session=True)
        processes.append(nginx)
        wait_for_port(listen_port, nginx)
        yield Proxy(listen_port)
    finally:
        for process in reversed(processes):
            stop_process(process)
        for log in log_files:
            log.close()


@pytest.fixture
def alice() -> object:
    return User.objects.create_user(username="alice", email="alice@example.com", password=PASSWORD)


def test_a_forged_forwarded_for_does_not_escape_the_lockout(proxy: Proxy, alice: object) -> None:
    answers = [
        proxy.log_in_page("alice", "wrong", source="127.0.0.2", forged_for=f"203.0.113.{i}")
        for i in range(1, 31)
    ]
    assert [status for status, _ in answers] == [200] * 4 + [429] * 26
    assert "this account from your connection is paused after 5 wrong passwords" in answers[4][1]
    assert "Try again in 15 minutes." in answers[4][1]
    # Ten of them locked the address too, for any username.
    assert "after 10 wrong passwords, whatever the username" in answers[9][1]
    # Even the right password is refused from there, forged header or not...
    assert proxy.log_in("alice", PASSWORD, source="127.0.0.2", forged_for="198.51.100.7") == 429
    # ...and the failures were all counted against the one address nginx saw.
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"127.0.0.2"}
    # The owner, elsewhere, still logs in (the lock is per username and address).
    assert proxy.log_in("alice", PASSWORD, source="127.0.0.3") == 302


def test_one_password_against_many_usernames_is_throttled(proxy: Proxy, alice: object) -> None:
    codes = [
        proxy.log_in(f"player{i}", "Summer2025!", source="127.0.0.4", forged_for=f"203.0.113.{i}")
        for i in range(12)
    ]
    assert codes == [200] * 9 + [429] * 3
    status, page = proxy.log_in_page("alice", PASSWORD, source="127.0.0.4")
    assert status == 429 and "after 10 wrong passwords, whatever the username" in page
    assert proxy.log_in("alice", PASSWORD, source="127.0.0.5") == 302
