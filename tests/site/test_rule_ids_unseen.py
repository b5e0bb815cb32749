"""Rule ids (PY-8, TN-6 ...) are for developers: no text a player reads names one (issue 41 found
"scored as PY-8 scores them" and "par scoring (PY-8)"). Templates outside their comments, and
the pages that said them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import kinds
from games.kinds.solitaire_words import end_reason
from tests.engine.test_pyramid_rules import play, position

RULE_ID = re.compile(r"\b(PY|TP|TR|BL|LP|TH|RT|TN)-\d+\b")
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
COMMENTS = re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{#.*?#}", re.DOTALL)


def test_no_template_shows_a_rule_id() -> None:
    found = []
    for path in sorted(TEMPLATES.rglob("*")):
        if path.is_file() and path.suffix in (".html", ".txt", ".svg"):
            text = COMMENTS.sub("", path.read_text(encoding="utf-8"))
            found += [f"{path.relative_to(TEMPLATES)}: {m.group()}" for m in RULE_ID.finditer(text)]
    assert found == []


def shown_text(html: str) -> str:
    """What a reader sees: no tags, no addresses (a link may target a rule's anchor)."""
    return re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.DOTALL))


@pytest.mark.django_db
def test_the_pages_that_named_rule_ids_name_none() -> None:
    client = Client()
    client.force_login(get_user_model().objects.create_user("ann", "ann@example.com", "pw-long-enough-1"))
    pages = ["/tournaments/", "/rules/", "/play/", "/leaderboards/"]
    pages += [f"/play/{spec.slug}/" for spec in kinds.SOLITAIRE]
    pages += [f"/play/{spec.slug}/match/" for spec in kinds.SOLITAIRE if spec.match is not None]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        assert RULE_ID.findall(shown_text(response.content.decode())) == [], page
    # The event form's help that named PY-8 is on the tournaments page.
    assert "par scoring; its game must have one" in client.get("/tournaments/").content.decode()


def test_a_pyramid_lost_to_an_idle_pass_says_why_without_a_rule_id() -> None:
    spec = kinds.get_solitaire("pyramid")
    state = position({"redeals": None}, tableau={(0, 0): "6c"}, stock=["8c", "9c"])
    state = play(state, "draw", "draw")  # a whole pass, no card removed: lost
    view = spec.engine.view(state, 0)
    assert view.outcome is not None and view.outcome.reason == "idle_pass"
    words = end_reason(spec, view)
    assert words.startswith("A whole pass through the stock removed no card") and not RULE_ID.search(words)
