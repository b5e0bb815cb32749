"""A small HTTP client over ``http.client``: one keep-alive connection, a cookie jar, and
the CSRF header Django expects, with nothing between the fuzzer and the bytes it sends."""

from __future__ import annotations

import http.client
import http.cookies
import urllib.parse
from dataclasses import dataclass, field


@dataclass
class Answer:
    status: int
    """0 when the server sent no answer (the connection dropped or timed out)."""
    body: bytes = b""
    location: str = ""
    error: str = ""


@dataclass
class Client:
    base: str
    cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = 60.0
    _connection: http.client.HTTPConnection | None = None

    def _connect(self) -> http.client.HTTPConnection:
        if self._connection is None:
            parsed = urllib.parse.urlsplit(self.base)
            self._connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=self.timeout)
        return self._connection

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def request(
        self,
        method: str,
        path: str,
        body: bytes = b"",
        content_type: str = "application/x-www-form-urlencoded",
        csrf: bool = True,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        sent = {"Host": urllib.parse.urlsplit(self.base).netloc, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if csrf and "csrftoken" in self.cookies:
            sent["X-CSRFToken"] = self.cookies["csrftoken"]
        if method == "POST":
            sent["Content-Type"] = content_type
        connection = self._connect()
        try:
            connection.request(method, path, body=body if method == "POST" else None, headers=sent)
            response = connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.close()
            return Answer(0, error=f"{type(exc).__name__}: {exc}")
        for header in response.headers.get_all("Set-Cookie") or []:
            jar: http.cookies.SimpleCookie = http.cookies.SimpleCookie()
            jar.load(header)
            for name, morsel in jar.items():
                if morsel.value and morsel["max-age"] != "0":
                    self.cookies[name] = morsel.value
                else:
                    self.cookies.pop(name, None)
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        return Answer(response.status, data, response.getheader("Location", ""))


def form(fields: list[tuple[str, str]]) -> bytes:
    """URL-encoded, letting lone surrogates through as the invalid UTF-8 a browser never sends."""
    return "&".join(
        f"{urllib.parse.quote_plus(k.encode('utf-8', 'surrogatepass'))}="
        f"{urllib.parse.quote_plus(v.encode('utf-8', 'surrogatepass'))}"
        for k, v in fields
    ).encode()


def multipart(fields: list[tuple[str, str | bytes]], boundary: str = "fuzzboundary") -> tuple[bytes, str]:
    """A multipart body (every value a file part when it is bytes) and its content type."""
    parts = []
    for name, value in fields:
        raw = value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")
        disposition = f'form-data; name="{name}"' + (
            '; filename="game.json"' if isinstance(value, bytes) else ""
        )
        head = f"--{boundary}\r\nContent-Disposition: {disposition}\r\n\r\n"
        parts.append(head.encode("utf-8", "surrogatepass") + raw + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"
