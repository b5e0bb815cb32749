"""``manage.py generate_turn_games``: people and open turn-based games waiting for them, as the
table services leave a game just dealt, that the "your turn" count and page read."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from accounts import waiting
from games.core import move_path
from games.engine import get_engine
from games.live import turn_clocks
from games.models import GameRecord, Seat, Table, Turn

pytestmark = pytest.mark.django_db

PLAYERS, GAMES = 30, 90


def generate(*extra: str) -> str:
    out = StringIO()
    call_command(
        "generate_turn_games",
        "--players",
        str(PLAYERS),
        "--games",
        str(GAMES),
        "--batch",
        "40",
        *extra,
        stdout=out,
    )
    return out.getvalue()


def test_every_game_waits_for_the_person_its_deal_leaves_to_act() -> None:
    assert f"done: {PLAYERS} players, {GAMES} games" in generate()
    now = timezone.now()
    turns = list(Turn.objects.select_related("table", "game"))
    assert len(turns) == GAMES == Table.objects.filter(status=Table.Status.PLAYING).count()
    for turn in turns:
        table, record = turn.table, turn.game
        assert turn_clocks.is_turn_based(table.clock_seconds) and table.record_id == record.pk
        assert record.status == GameRecord.Status.PLAYING and record.turn_deadline == turn.deadline
        assert turn.since < now < turn.deadline
        seats = list(Seat.objects.filter(table=table).order_by("number"))
        assert len(seats) == table.seat_count and all(seat.user_id for seat in seats)
        assert seats[turn.seat].user_id == turn.user_id
        # The table's own reading of the game agrees on whose turn it is.
        state = move_path.table_now(table.pk).state
        assert get_engine(table.game).current_player(state) == turn.seat
    assert Table.objects.filter(private_key__isnull=False).exists()


def test_the_busiest_persons_page_lists_their_games() -> None:
    generate("--seed", "3")
    busiest = Turn.objects.values_list("user", flat=True).order_by("user")
    user_id = max(set(busiest), key=list(busiest).count)
    client = Client()
    client.force_login(Turn.objects.filter(user_id=user_id).first().user)  # type: ignore[union-attr]
    html = client.get("/turns/").content.decode()
    assert html.count('data-testid="your-turn"') == min(waiting.count(user_id), waiting.PER_PAGE)


def test_it_refuses_a_database_with_people_unless_told() -> None:
    generate()
    with pytest.raises(CommandError, match="--yes"):
        generate()
    generate("--yes", "--seed", "2")
    assert Turn.objects.count() == 2 * GAMES
