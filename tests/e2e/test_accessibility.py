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
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from playwright.sync_api import Page, ViewportSize

from accounts.models import User
from tests.e2e.test_tournament_journey import in_thread
from tests.page_tour import BUILDERS, STALE_TOKEN, Visit
from tests.support import artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE_SOURCE = (Path(__file__).resolve().parents[1] / "vendor" / "axe-core" / "axe.min.js").read_text()
SIZES = {"1366x900": ViewportSize(width=1366, height=900), "390x844": ViewportSize(width=390, height=844)}
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
# load): let that settle so axe sees the page a person would, not the moment before.
SETTLE_MS = 700
RESIZE_MS = 150
"""A page is loaded once and checked at both sizes, the phone's after a resize: what a
resize changes (the media queries' layout) is drawn in a frame or two."""


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


def pages_for(new_context: Any, base: str, viewport: ViewportSize) -> Callable[[str | None], Page]:
    """One tab per person (a signed-in one per name, a visitor's for None) at this size."""
    tabs: dict[str | None, Page] = {}

    def tab(username: str | None) -> Page:
        if username not in tabs:
            context = new_context(viewport=viewport)
            if username is not None:
                user = User.objects.get(username=username)
                session = SessionStore()
                session[SESSION_KEY] = str(user.pk)
                session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
                session[HASH_SESSION_KEY] = user.get_session_auth_hash()
                session.create()
                context.add_cookies([{"name": "sessionid", "value": session.session_key, "url": base}])
            tabs[username] = context.new_page()
        return tabs[username]

    return tab


SEND_STALE_FORM = """(token) => {
  const form = document.querySelector("main form[method=post]");
  form.querySelector("[name=csrfmiddlewaretoken]").value = token;
  form.submit();
}"""


def check(page: Page, base: str, visit: Visit) -> dict[str, list[dict[str, Any]]]:
    """The violations on the visit's page at each size (those with none left out)."""
    page.set_viewport_size(SIZES["1366x900"])
    response = page.goto(base + visit.path)
    if visit.stale_form:
        with page.expect_navigation() as sent:
            page.evaluate(SEND_STALE_FORM, STALE_TOKEN)
        response = sent.value
    assert response is not None and response.status == visit.status, (
        f"{visit.name} ({visit.path}) answered {response and response.status}, not {visit.status}"
    )
    page.wait_for_load_state("load")
    page.wait_for_timeout(SETTLE_MS)
    found = {}
    for size, viewport in SIZES.items():
        if viewport != SIZES["1366x900"]:
            page.set_viewport_size(viewport)
            page.wait_for_timeout(RESIZE_MS)
        violations = axe_violations(page)
        if violations:
            found[size] = violations
    return found


@pytest.mark.parametrize("group", list(BUILDERS))
def test_every_page_has_no_axe_violation_at_desktop_and_phone_sizes(
    live_site: str, new_context: Any, group: str
) -> None:
    visits: list[Visit] = in_thread(BUILDERS[group])
    found: dict[str, list[dict[str, Any]]] = {}
    tab = pages_for(new_context, live_site, SIZES["1366x900"])
    for visit in visits:
        for size, violations in check(tab(visit.user), live_site, visit).items():
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
