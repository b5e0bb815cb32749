"""Solo matches: Pyramid's par match (PY-8) of six deals, played in order without undo or
hints, its total the deals' par scores; the pages that start one and follow it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.core.errors import GameError, NotYourGame
from games.core.players import Player
from games.engine import get_engine
from games.models import GameRecord, SoloMatch
from games.solitaire import services, solo_matches

pytestmark = pytest.mark.django_db
User = get_user_model()


def person(name: str) -> Player:
    user = User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1")
    return Player(user=user, token=name)


def resign(record: GameRecord, player: Player) -> GameRecord:
    result = services.submit_action(
        game_id=record.pk, player=player, move="resign", expected_version=record.version
    )
    return result.record


def test_a_par_match_draws_six_deals_with_par_scoring_and_plays_them_in_order() -> None:
    alice = person("alice")
    match = solo_matches.start(game="pyramid", player=alice)
    assert len(match.seeds) == len(set(match.seeds)) == 6
    assert match.config == get_engine("pyramid").normalize_config({"scoring": "par", "redeals": 2})
    with pytest.raises(GameError, match="in order"):
        solo_matches.play(match_id=match.pk, deal=2, player=alice)
    first = solo_matches.play(match_id=match.pk, deal=1, player=alice)
    assert (first.kind, first.seed, first.config, first.solo_match) == (
        "match",
        match.seeds[0],
        match.config,
        match,
    )
    assert solo_matches.play(match_id=match.pk, deal=1, player=alice) == first  # resumed, not dealt again
    with pytest.raises(GameError, match="Undo is not allowed in a match"):
        services.submit_action(game_id=first.pk, player=alice, move="draw", expected_version=0)
        services.undo(game_id=first.pk, player=alice, expected_version=1)
    with pytest.raises(GameError, match="Hints are not allowed in a match"):
        services.take_hint(game_id=first.pk, player=alice, expected_version=1)
    with pytest.raises(GameError, match="deals 1 to 6"):
        solo_matches.play(match_id=match.pk, deal=7, player=alice)


def test_the_total_is_the_deals_par_scores_added_up() -> None:
    alice = person("alice")
    match = solo_matches.start(game="pyramid", player=alice)
    scores = []
    for deal in range(1, 7):
        record = resign(solo_matches.play(match_id=match.pk, deal=deal, player=alice), alice)
        engine = get_engine("pyramid")
        final = engine.replay(
            record.config, record.seed, list(record.actions.values_list("text", flat=True))
        )[-1]
        assert record.score == engine.outcome(final)["score"] < 0  # PY-8: not cleared, minus the cards left
        scores.append(record.score)
    summary = solo_matches.summary(match)
    assert summary.over and summary.played == 6 and summary.total == sum(scores)
    # PY-8's higher total is the better: a negative total is below par, never golf's "under par".
    assert summary.against_par == f"{-sum(scores)} below par" and summary.next_deal is None


def test_a_match_is_its_players_alone() -> None:
    alice, bob = person("alice"), person("bob")
    match = solo_matches.start(game="pyramid", player=alice)
    with pytest.raises(NotYourGame):
        solo_matches.play(match_id=match.pk, deal=1, player=bob)
    with pytest.raises(NotYourGame):
        solo_matches.owned(match.pk, bob)
    with pytest.raises(GameError, match="no match"):
        solo_matches.start(game="tripeaks", player=alice)


def test_a_browsers_match_goes_to_whoever_signs_in_there() -> None:
    anonymous = Player(user=None, token="tab")
    match = solo_matches.start(game="pyramid", player=anonymous)
    record = solo_matches.play(match_id=match.pk, deal=1, player=anonymous)
    carol = person("carol")
    services.claim_anonymous_games(user=carol.user, token="tab")
    match.refresh_from_db()
    record.refresh_from_db()
    assert match.owner == carol.user and record.owner == carol.user
    assert (
        solo_matches.play(match_id=match.pk, deal=1, player=Player(user=carol.user, token="other")) == record
    )


def test_the_pages_start_a_match_and_follow_it(client: Client) -> None:
    assert client.get("/play/tripeaks/match/").status_code == 404
    page = client.get("/play/pyramid/match/").content.decode()
    assert "6 deals played one after another" in page and "the higher your total, the better" in page
    assert "PY-8" not in page and 'href="/rules/#par-the-competitive-score"' in page
    response = client.post("/play/pyramid/match/")
    match = SoloMatch.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert page.count('data-testid="match-deal"') == 6 and "Play deal 1" in page
    assert str(match.seeds[1]) not in page  # a deal's number shows once it is dealt
    dealt = client.post(f"/matches/{match.pk}/deals/1/")
    record = GameRecord.objects.get(solo_match=match)
    assert dealt["Location"] == f"/games/{record.pk}/"
    game_page = client.get(dealt["Location"]).content.decode()
    assert (
        'data-testid="back-to-match"' in game_page and "/undo/" not in game_page and "/hint/" not in game_page
    )
    player = Player(user=None, token=client.session["player_token"])
    resign(record, player)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert re.search(r"Total so far: <strong>-\d+</strong>\s+after 1 of 6 deals", page)
    assert re.search(
        r'data-testid="against-par">\d+ below par \(par is a total of 0; the higher the total, the better\)',
        page,
    )
    assert f"/games/{record.pk}/replay/" in page and "Play deal 2" in page
    assert client.get("/play/pyramid/match/").content.decode().count('data-testid="my-match-row"') == 1
    assert Client().get(f"/matches/{match.pk}/").status_code == 404  # someone else's


HTMX = {"HTTP_HX_REQUEST": "true"}


def resign_on_the_page(client: Client, record: GameRecord) -> str:
    """Resigns ``record`` as its page does; returns the board with its end panel."""
    record.refresh_from_db()
    response = client.post(
        f"/games/{record.pk}/act/", {"action": "resign", "version": record.version}, **HTMX
    )
    assert response.status_code == 200
    return response.content.decode()


def test_a_match_deals_end_panel_leads_to_the_next_deal_and_after_the_last_to_the_results(
    client: Client,
) -> None:
    client.post("/play/pyramid/match/")
    match = SoloMatch.objects.get()
    first = GameRecord.objects.get(
        pk=int(client.post(f"/matches/{match.pk}/deals/1/")["Location"].split("/")[2])
    )
    panel = resign_on_the_page(client, first)
    next_deal = re.search(
        r'<form method="post" action="([^"]+)">\s*<input[^>]*csrfmiddlewaretoken[^>]*>'
        r'<button type="submit" class="button" data-testid="next-deal">([^<]+)</button>',
        panel,
    )
    assert next_deal is not None, panel
    assert next_deal.groups() == (f"/matches/{match.pk}/deals/2/", "Next deal (2 of 6)")
    assert re.search(rf'<a href="/matches/{match.pk}/" data-testid="match-page">Your par match</a>', panel)
    assert 'data-testid="match-results"' not in panel
    # The button deals the next deal of the match, not an unrelated one.
    second = client.post(next_deal.group(1))
    assert second.status_code == 302
    record = GameRecord.objects.get(pk=int(second["Location"].split("/")[2]))
    assert record.solo_match == match and record.seed == match.seeds[1]
    player = Player(user=None, token=client.session["player_token"])
    for deal in range(2, 6):
        resign(solo_matches.play(match_id=match.pk, deal=deal, player=player), player)
    last = solo_matches.play(match_id=match.pk, deal=6, player=player)
    panel = resign_on_the_page(client, last)
    assert 'data-testid="next-deal"' not in panel
    assert re.search(rf'<a class="button" href="/matches/{match.pk}/" data-testid="match-results">', panel)
    # Someone else looking at the finished deal is offered nobody's match.
    other = Client().get(f"/games/{last.pk}/").content.decode()
    assert 'data-testid="end-panel"' in other and f"/matches/{match.pk}/" not in other
