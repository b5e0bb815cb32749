"""Where a replay opens (issue 20): at the deal, so the result is not given away, unless the
address names a step; a game still being played opens where it stands."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import kinds
from games.core.players import Player
from games.replays import replays
from games.solitaire import services
from tests.games.test_replays import finished_solitaire, person

pytestmark = pytest.mark.django_db
TRIPEAKS = kinds.SOLITAIRE[1].slug


def test_a_finished_replay_opens_at_the_deal_with_no_result_shown(client: Client) -> None:
    record = finished_solitaire(TRIPEAKS, person("alice"), seed=7)
    steps = replays.from_record(record).steps
    body = client.get(f"/games/{record.pk}/replay/").content.decode()
    assert f"Step 0 of {steps}" in body and "The deal." in body
    assert "Result" not in body and "game won" not in body
    last = client.get(f"/games/{record.pk}/replay/?step={steps}").content.decode()
    assert f"Step {steps} of {steps}" in last and "Result <strong>Won</strong>" in last


def test_a_link_to_a_step_still_opens_there(client: Client) -> None:
    record = finished_solitaire(TRIPEAKS, person("alice"), seed=7)
    assert "Step 3 of" in client.get(f"/games/{record.pk}/replay/?step=3").content.decode()


def test_a_game_still_being_played_opens_where_it_stands(client: Client) -> None:
    player = Player(user=None, token="t")
    record = services.start_solitaire(game=TRIPEAKS, player=player, seed=7)
    for version in range(2):
        services.submit_action(game_id=record.pk, player=player, move="draw", expected_version=version)
    assert "Step 2 of 2" in client.get(f"/games/{record.pk}/replay/").content.decode()


def test_the_replay_controls_are_named_by_their_words_and_the_replay_has_a_heading(client: Client) -> None:
    record = finished_solitaire(TRIPEAKS, person("alice"), seed=7)
    body = client.get(f"/games/{record.pk}/replay/").content.decode()
    assert re.search(r'<section id="replay"[^>]*aria-labelledby="replay-heading"', body)
    assert re.search(r'<h2 id="replay-heading"[^>]*>[^<]+</h2>', body)
    # WCAG 2.5.3: each accessible name holds the words shown (the arrows are hidden from it).
    before = re.findall(r'aria-label="([^"]+)"><span aria-hidden="true">[^<]*</span> (\w+)</a>', body)
    after = re.findall(r'aria-label="([^"]+)">(\w+) <span aria-hidden="true">', body)
    assert len(before) == 2 and len(after) == 2
    for label, shown in before + after:
        assert shown.lower() in label.lower(), (label, shown)
    assert 'aria-label="Back one step"' in body and "Previous step" not in body
    assert re.search(r"<button[^>]*data-play>", body)  # named by its words: Play, then Pause
