"""axe-core on every page type of the site, at a desktop's 1366x900 and a phone's 390x844
(issue 20): no violation of WCAG 2.0/2.1 A and AA nor of axe's best practices.

axe is vendored (tests/vendor/axe-core/README.md) and put into each page with
``page.evaluate`` of its source. Not ``page.add_script_tag``: that adds an inline <script>,
which the site's Content-Security-Policy (script-src 'self') refuses. Not a context with
``bypass_csp``: the pages are checked as served, policy included (a style the policy blocks
changes what axe sees). Code run through the DevTools protocol is not governed by the
page's policy, so axe runs and the policy stays whole.

The pages are those of ``tests.page_tour``, which the Nu HTML checker's test tours too. A
failure lists every violation of the group's pages at both sizes; the full axe results are
written as JSON to the artifacts folder.

Each page is read in English at the desktop's size and in Italian (issue 47: a browser asking
for Italian, ``<html lang="it">``) at the phone's, in two tabs loaded at once. Not both
languages at both sizes: that would double the suite's longest browser test for little, as
what a language changes is the words, and what a size changes is the layout. Italian takes the
phone because its longer words are what could crowd a control or widen a page past a phone's
width; English keeps the desktop. So every page is still checked at both sizes and in both
languages with as many axe runs and one settling wait per page, as when each page was checked
in English at both sizes; what is added is a second load of each page, made alongside the
first (four groups timed side by side on a loaded machine: 48 s before, 54 s after).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from playwright.sync_api import Page, Response, ViewportSize
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from accounts.models import User
from tests.e2e.test_tournament_journey import in_thread
from tests.page_tour import BUILDERS, STALE_TOKEN, Visit
from tests.support import artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE_SOURCE = (Path(__file__).resolve().parents[1] / "vendor" / "axe-core" / "axe.min.js").read_text()
SIZES = {"1366x900": ViewportSize(width=1366, height=900), "390x844": ViewportSize(width=390, height=844)}
LANGUAGE_AT = {"1366x900": "en", "390x844": "it"}
"""The language each size is read in (see above)."""
BROWSER_LOCALE = {"en": "en-GB", "it": "it-IT"}
"""Playwright's ``locale``: the browser's Accept-Language, as a reader's own browser asks."""
RUN_AXE = """() => axe.run(document, {
  runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]},
}).then((results) => results.violations.map((v) => ({
  id: v.id,
  impact: v.impact,
  help: v.help,
  targets: v.nodes.map((n) => n.target.join(" ")),
  summary: v.nodes.length ? v.nodes[0].failureSummary : "",
})))"""
TARGETS_SHOWN = 4
# Live pages keep swapping parts in (a table's socket brings its first news just after the
# load): let that settle so axe sees the page a person would, not the moment before. Settled
# is every socket past connecting and QUIET_MS with no socket event and no change to the
# document; at most SETTLE_MS (a clock that ticks faster never falls quiet). A fixed 700 ms
# a visit was 62 s of each suite run's waiting; most pages are quiet at once.
QUIET_MS = 200
SETTLE_MS = 700
WATCH_SETTLING = """(() => {
  const Native = window.WebSocket;
  const sockets = [];
  let last = performance.now();
  const touch = () => { last = performance.now(); };
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      sockets.push(this);
      touch();
      for (const kind of ["open", "message", "close"]) this.addEventListener(kind, touch);
    }
  };
  const everything = {subtree: true, childList: true, attributes: true, characterData: true};
  new MutationObserver(touch).observe(document, everything);
  window.axeSettled = (quiet) => document.readyState === "complete"
    && sockets.every((socket) => socket.readyState !== Native.CONNECTING)
    && performance.now() - last >= quiet;
})();"""


def axe_violations(page: Page) -> list[dict[str, Any]]:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SOURCE)
    return page.evaluate(RUN_AXE)


def describe(where: str, violations: list[dict[str, Any]]) -> str:
    lines = [f"{where}: {len(violations)} violation(s)"]
    for v in violations:
        shown = ", ".join(v["targets"][:TARGETS_SHOWN])
        more = f" (+{len(v['targets']) - TARGETS_SHOWN} more)" if len(v["targets"]) > TARGETS_SHOWN else ""
        lines.append(f"  {v['id']} [{v['impact']}] x{len(v['targets'])}: {v['help']}")
        lines.append(f"      at {shown}{more}")
    return "\n".join(lines)


def pages_for(new_context: Any, base: str) -> Callable[[str | None, str], Page]:
    """One tab per person (a signed-in one per name, a visitor's for None) and size, its
    browser asking for that size's language."""
    tabs: dict[tuple[str | None, str], Page] = {}

    def tab(username: str | None, size: str) -> Page:
        if (username, size) not in tabs:
            context = new_context(viewport=SIZES[size], locale=BROWSER_LOCALE[LANGUAGE_AT[size]])
            context.add_init_script(WATCH_SETTLING)
            if username is not None:
                user = User.objects.get(username=username)
                session = SessionStore()
                session[SESSION_KEY] = str(user.pk)
                session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
                session[HASH_SESSION_KEY] = user.get_session_auth_hash()
                session.create()
                context.add_cookies([{"name": "sessionid", "value": session.session_key, "url": base}])
            tabs[(username, size)] = context.new_page()
        return tabs[(username, size)]

    return tab


SEND_STALE_FORM = """(token) => {
  const form = document.querySelector("main form[method=post]");
  form.querySelector("[name=csrfmiddlewaretoken]").value = token;
  form.submit();
}"""


def check(tabs: dict[str, Page], base: str, visit: Visit) -> dict[str, list[dict[str, Any]]]:
    """The violations on the visit's page at each size, in its language (those with none left
    out). The tabs load at once: their requests and drawing overlap, and they settle together."""
    answered: dict[str, Response | None] = {}
    for size, page in tabs.items():
        if visit.stale_form:  # a navigation of its own, one tab at a time
            page.goto(base + visit.path)
            with page.expect_navigation() as sent:
                page.evaluate(SEND_STALE_FORM, STALE_TOKEN)
            answered[size] = sent.value
        else:
            answered[size] = page.goto(base + visit.path, wait_until="commit")
    found = {}
    for size, page in tabs.items():
        response = answered[size]
        assert response is not None and response.status == visit.status, (
            f"{visit.name} ({visit.path}) answered {response and response.status}, not {visit.status}"
        )
        page.wait_for_load_state("load")
        language = page.evaluate("() => document.documentElement.lang")
        assert language == LANGUAGE_AT[size], f"{visit.name} ({visit.path}) at {size} is in {language!r}"
    for page in tabs.values():
        # Still changing after SETTLE_MS (a ticking clock): checked as it stands.
        with contextlib.suppress(PlaywrightTimeoutError):
            page.wait_for_function(
                "(quiet) => window.axeSettled(quiet)", arg=QUIET_MS, polling=50, timeout=SETTLE_MS
            )
    for size, page in tabs.items():
        violations = axe_violations(page)
        if violations:
            found[f"{size} ({LANGUAGE_AT[size]})"] = violations
    return found


@pytest.mark.parametrize("group", list(BUILDERS))
def test_every_page_has_no_axe_violation_at_desktop_and_phone_sizes(
    live_site: str, new_context: Any, group: str
) -> None:
    visits: list[Visit] = in_thread(BUILDERS[group])
    found: dict[str, list[dict[str, Any]]] = {}
    tab = pages_for(new_context, live_site)
    for visit in visits:
        tabs = {size: tab(visit.user, size) for size in SIZES}
        for size, violations in check(tabs, live_site, visit).items():
            found[f"{visit.name} ({visit.path}) at {size}"] = violations
    report = artifacts_dir() / f"axe-{group}.json"
    report.write_text(json.dumps(found, indent=1))
    assert not found, (
        f"axe-core found violations on {len(found)} of {len(visits) * len(SIZES)} page views"
        f" (all of them in {report}):\n" + "\n".join(describe(where, v) for where, v in found.items())
    )


def test_axe_runs_under_the_policy_and_sees_a_violation_when_there_is_one(
    live_site: str, new_context: Any
) -> None:
    """The control: without it, a harness whose axe never ran would pass every page."""
    page = new_context(viewport=SIZES["390x844"]).new_page()
    response = page.goto(live_site + "/")
    assert response is not None
    # The policy that refuses add_script_tag is really there when axe goes in.
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert axe_violations(page) == []
    page.evaluate("() => document.body.append(document.createElement('button'))")
    assert [v["id"] for v in axe_violations(page)] == ["button-name"]
