"""POST fuzzing: every endpoint ``count`` times, from a few lanes (threads) at once.

``shape`` bends an endpoint's plausible request into the adversarial one actually sent:
most go as made (a real session, a real CSRF token, the view's own fields) so the view
code runs; others get junk values, missing or extra fields, a body of 3 MB, 1,500 fields,
JSON or random bytes where a form is expected, a multipart body (valid or cut short),
no session, or no CSRF token at all (a forged post, refused 403 before any view).

An answer is *unhandled* when it is a 5xx. A request the HTTP server drops unanswered is
counted apart (Twisted refuses a request line of 100 KB by closing the connection while
the client is still writing); a server process that died is caught by the harness.
"""

from __future__ import annotations

import json
import random
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tests.fuzz import inputs, world
from tests.fuzz.endpoints import ENDPOINTS, Ctx, Endpoint, Req, Shared
from tests.fuzz.http_client import Answer, Client, form, multipart
from tests.stack import session_cookie

EXAMPLES = 5
FORGED_REFUSALS = (400, 403, 404)


@dataclass
class Wire:
    body: bytes
    content_type: str
    csrf: bool = True
    anonymous: bool = False
    shape: str = "as made"
    fields: list[tuple[str, str | bytes]] | None = None
    """What was sent, for the report (None: a raw body)."""


def shape(rng: random.Random, req: Req) -> Wire:
    fields = list(req.fields)
    roll = rng.random()
    wire_shape = "as made"
    if roll < 0.18 and fields:
        wire_shape = "junk values"
        for _ in range(rng.randint(1, 2)):
            index = rng.randrange(len(fields))
            junk = inputs.nested(rng) if rng.random() < 0.1 else inputs.value(rng)
            fields[index] = (fields[index][0], junk if isinstance(junk, str) else json.dumps(junk))
    elif roll < 0.26 and fields:
        wire_shape = "fields missing"
        fields = [f for f in fields if rng.random() < 0.5]
    elif roll < 0.32:
        wire_shape = "extra fields"
        fields += [(inputs.text(rng, 10), inputs.text(rng)) for _ in range(rng.randint(1, 5))]
        if fields:
            fields.append(rng.choice(fields))
    elif roll < 0.34:
        wire_shape = "3 MB value"
        fields.append(("big", "x" * 3_000_000))
    elif roll < 0.36:
        wire_shape = "1,500 fields"
        fields += [(f"f{n}", "1") for n in range(1500)]
    elif roll < 0.39:
        kind = rng.choice(("application/json", "application/x-www-form-urlencoded", "text/plain"))
        body = inputs.dumps(dict((k, v) for k, v in fields if isinstance(v, str)))
        if rng.random() < 0.5:
            return Wire(inputs.random_bytes(rng, 2000), kind, shape="random bytes")
        return Wire(body.encode("utf-8", "surrogatepass"), kind, shape="JSON body")
    elif roll < 0.43:
        body, content_type = multipart(fields)
        if rng.random() < 0.5:
            body = body[: rng.randrange(len(body) + 1)]
            return Wire(body, content_type, shape="multipart cut short", fields=fields)
        return Wire(body, content_type, shape="multipart", fields=fields)
    elif roll < 0.46:
        wire_shape = "no CSRF token"
    elif roll < 0.49:
        wire_shape = "no session"
    if any(isinstance(v, bytes) for _, v in fields):
        body, content_type = multipart(fields)
    else:
        body = form([(k, v) for k, v in fields if isinstance(v, str)])
        content_type = "application/x-www-form-urlencoded"
    return Wire(
        body,
        content_type,
        csrf=wire_shape != "no CSRF token",
        anonymous=wire_shape == "no session",
        shape=wire_shape,
        fields=fields,
    )


@dataclass
class Tally:
    """What one endpoint answered."""

    name: str
    sent: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    forged: int = 0
    forged_refused: int = 0
    """Forged posts refused before any view: 403 (CSRF), 404 (no such address), 400 (a
    body Django would not read). Any other answer means a view ran without the token."""
    forged_examples: list[str] = field(default_factory=list)
    dropped: int = 0
    unhandled: int = 0
    examples: list[str] = field(default_factory=list)
    dropped_examples: list[str] = field(default_factory=list)

    def limited(self) -> int:
        return self.statuses[429]


@dataclass
class HttpLane:
    """One thread: its person, its browsers (one per kind of sender), its things."""

    base: str
    csrf: str
    lane: world.Lane
    rng: random.Random
    browsers: dict[str, Client] = field(default_factory=dict)

    def browser(self, who: str, anonymous: bool) -> Client:
        """The client whose cookies fit the request; a fresh one where a request needs one."""
        if anonymous or who in ("anonymous", "fresh"):
            client = self.browsers.setdefault("new", Client(self.base))
            client.cookies = {"csrftoken": self.csrf}
            if who == "fresh" and not anonymous:
                client.cookies["sessionid"] = session_cookie(self.lane.user).split("=", 1)[1]
            return client
        if who not in self.browsers:
            cookie = {"user": self.lane.cookie, "password": self.lane.password_cookie}.get(who, "")
            cookies = {"csrftoken": self.csrf}
            if cookie:
                cookies["sessionid"] = cookie.split("=", 1)[1]
            self.browsers[who] = Client(self.base, cookies=cookies)
        return self.browsers[who]

    def close(self) -> None:
        for client in self.browsers.values():
            client.close()


def send(http: HttpLane, endpoint: Endpoint, shared: Shared, tally: Tally, lock: threading.Lock) -> None:
    from django.db import close_old_connections

    close_old_connections()
    req = endpoint.make(Ctx(http.rng, http.lane, shared))
    wire = shape(http.rng, req)
    client = http.browser(endpoint.who, wire.anonymous)
    if wire.csrf:
        client.cookies.setdefault("csrftoken", http.csrf)
    # Half as htmx sends them: views answer those with a partial (or 204) instead of a redirect.
    headers = {"HX-Request": "true"} if http.rng.random() < 0.5 else {}
    answer = client.request("POST", req.path, wire.body, wire.content_type, csrf=wire.csrf, headers=headers)
    if (
        endpoint.name == "password_change"
        and answer.status == 302
        and answer.location.endswith("/password_change/done/")
    ):
        http.lane.password = req.new_password
    with lock:
        record(tally, req, wire, answer)


def record(tally: Tally, req: Req, wire: Wire, answer: Answer) -> None:
    tally.sent += 1
    tally.statuses[answer.status] += 1
    if not wire.csrf:
        tally.forged += 1
        if answer.status in FORGED_REFUSALS:
            tally.forged_refused += 1
        elif len(tally.forged_examples) < EXAMPLES:
            tally.forged_examples.append(_example(req, wire, answer))
    if answer.status == 0:
        tally.dropped += 1
        if len(tally.dropped_examples) < EXAMPLES:
            tally.dropped_examples.append(_example(req, wire, answer))
    elif answer.status >= 500:
        tally.unhandled += 1
        if len(tally.examples) < EXAMPLES:
            tally.examples.append(_example(req, wire, answer))


def _example(req: Req, wire: Wire, answer: Answer) -> str:
    sent = wire.fields if wire.fields is not None else [("(body)", wire.body[:300])]
    shown = [(k[:50], v[:200]) for k, v in sent[:12]]
    return f"{answer.status or answer.error} for POST {req.path[:200]} ({wire.shape}): {shown!r}"


def run_http(
    bases: list[str],
    csrf: str,
    shared: Shared,
    lanes: list[world.Lane],
    count: int,
    seed: int,
    sent: list[int] | None = None,
) -> dict[str, Tally]:
    """``count`` requests to each endpoint, spread over the lanes (one thread each);
    ``sent[0]`` counts them as they go."""
    tallies = {e.name: Tally(e.name) for e in ENDPOINTS}
    jobs = [e for e in ENDPOINTS for _ in range(count)]
    random.Random(seed).shuffle(jobs)
    lock = threading.Lock()
    errors: list[BaseException] = []

    def work(n: int) -> None:
        http = HttpLane(bases[n % len(bases)], csrf, lanes[n], random.Random(seed * 1000 + n))
        try:
            for endpoint in jobs[n :: len(lanes)]:
                send(http, endpoint, shared, tallies[endpoint.name], lock)
                if sent is not None:
                    sent[0] += 1  # a progress count only: a lost increment does not matter
        except BaseException as exc:  # a harness error must stop the run, not vanish in a thread
            errors.append(exc)
        finally:
            http.close()

    threads = [threading.Thread(target=work, args=(n,), daemon=True) for n in range(len(lanes))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return tallies


def shared_things(rng: random.Random) -> Shared:
    world.daily_deals(days=3)
    finished, exports = world.finished_games(8, rng)
    logins = []
    for _ in range(3):
        user = world.make_user("fzlogin", "login-password-1")
        logins.append((user.username, "login-password-1"))
    return Shared(finished=finished, exports=exports, logins=logins, reset_user=world.make_user("fzreset"))


def fetch_csrf(base: str) -> str:
    client = Client(base)
    answer = client.request("GET", "/accounts/login/")
    client.close()
    if answer.status != 200 or "csrftoken" not in client.cookies:
        raise RuntimeError(f"no CSRF cookie from {base}/accounts/login/ (status {answer.status})")
    return client.cookies["csrftoken"]


def describe(tallies: dict[str, Tally]) -> Any:
    return {name: vars(t) | {"statuses": dict(t.statuses)} for name, t in tallies.items()}
