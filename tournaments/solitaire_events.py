"""Solitaire events (TN-8): every entrant plays the same deals, chosen as daily deals are (proven
winnable, from the site's secret) when the event starts and sealed until its window closes
(LP-6); ranked by total score, then total time. The par match (PY-8: six Pyramid deals with
par scoring, par 0) is one with its game's ``SoloMatchRule``.

Each entrant's run is a ``games.SoloMatch`` of the event's deals, played deal by deal without
undo or hints (``games.solitaire.solo_matches``), which the window closes. At the close a deal still
being played is resigned, so it counts as it stands; a deal never started counts as it was
dealt ("floor" below). The functions that change a tournament expect the caller to hold its
row lock (``services``), as ``running``'s do.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from accounts import event_notices, notices
from games import kinds
from games.core import move_path
from games.core.errors import StaleVersion
from games.engine import get_engine
from games.engine.solver import event_deals
from games.kinds.spec import SolitaireSpec
from games.models import GameRecord, SealedDeal, SoloMatch
from games.solitaire.services import daily_secret
from games.stats import selectors
from tournaments.models import Entry, Tournament

DEAL_LIMITS = (1, 10)
WINDOW_LIMITS = (5, 7 * 24 * 60)
"""Minutes an event's window may last: five minutes to a week."""
ENTRANT_LIMITS = (2, 1000)
RESIGN = "resign"


class EventOptionsError(ValueError):
    """Options that make no solitaire event; ``str()`` says why, for the person."""


def check_options(
    *, game: str, format: str, deal_count: int | None, window_minutes: int | None, max_entrants: int
) -> tuple[dict[str, Any], int]:
    """The deals' full config and their number, or ``EventOptionsError``. A par match takes its
    game's rule (deals and config); any other event the game's standard deal, as the daily."""
    spec = kinds.BY_SLUG.get(game)
    if not isinstance(spec, SolitaireSpec):
        raise EventOptionsError(gettext("A solitaire event is played at a solitaire game."))
    low, high = ENTRANT_LIMITS
    if not low <= max_entrants <= high:
        raise EventOptionsError(
            gettext("A solitaire event takes between %(low)d and %(high)d players.")
            % {"low": low, "high": high}
        )
    low, high = WINDOW_LIMITS
    if window_minutes is None or not low <= window_minutes <= high:
        raise EventOptionsError(
            gettext("A solitaire event is played within %(low)d minutes to %(days)d days.")
            % {"low": low, "days": high // 1440}
        )
    engine = get_engine(game)
    if format == Tournament.Format.PAR_MATCH:
        if spec.match is None:
            raise EventOptionsError(gettext("%(game)s has no par match.") % {"game": spec.name})
        if deal_count not in (None, spec.match.deals):
            raise EventOptionsError(gettext("A par match is %(count)d deals.") % {"count": spec.match.deals})
        return engine.normalize_config(dict(spec.match.config)), spec.match.deals
    low, high = DEAL_LIMITS
    if deal_count is None or not low <= deal_count <= high:
        raise EventOptionsError(
            gettext("A solitaire event has %(low)d to %(high)d deals.") % {"low": low, "high": high}
        )
    return engine.normalize_config(None), deal_count


def par_of(tournament: Tournament) -> int | None:
    spec = kinds.BY_SLUG.get(tournament.game)
    if tournament.format == Tournament.Format.PAR_MATCH and isinstance(spec, SolitaireSpec) and spec.match:
        return spec.match.par
    return None


def open_event(tournament: Tournament, now: dt.datetime) -> None:
    """Start the event: choose and seal its deals, open its window, give each entrant their run."""
    assert tournament.window_minutes is not None and tournament.deal_count is not None
    closes_at = now + dt.timedelta(minutes=tournament.window_minutes)
    seeds = event_deals(
        tournament.game,
        tournament.config,
        f"tournament-{tournament.pk}",
        tournament.deal_count,
        daily_secret(),
        avoid=selectors.secret_seeds(),
    )
    SealedDeal.objects.bulk_create(SealedDeal(seed=seed, sealed_until=closes_at) for seed in seeds)
    tournament.deals = seeds
    tournament.closes_at = closes_at
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.version += 1
    tournament.save(update_fields=["deals", "closes_at", "status", "started_at", "version"])
    for entry in tournament.entries.filter(user__isnull=False).select_related("user"):
        give_run(tournament, entry)


def give_run(tournament: Tournament, entry: Entry) -> SoloMatch:
    """The entrant's run at the event's deals (at the start, or on a late entry), and a notice
    that it is open."""
    match = SoloMatch.objects.create(
        game=tournament.game,
        config=tournament.config,
        seeds=tournament.deals,
        title=tournament.name,
        par=par_of(tournament),
        closes_at=tournament.closes_at,
        owner=entry.user,
    )
    entry.solo_match = match
    entry.save(update_fields=["solo_match"])
    if entry.user is not None:
        event_notices.event_open(tournament, entry.user, match.get_absolute_url())
    return match


def taking_late_entries(tournament: Tournament, now: dt.datetime | None = None) -> bool:
    """An event takes entries while its window is open: a late entrant has less time."""
    return (
        tournament.status == Tournament.Status.RUNNING
        and tournament.closes_at is not None
        and (now or timezone.now()) < tournament.closes_at
    )


def resign(game_id: int, tries: int = 10) -> None:
    """A deal's game resigned from where it stands: a move that came first is played first."""
    for _ in range(tries):
        record = GameRecord.objects.filter(pk=game_id).first()
        if record is None or record.is_over:
            return
        try:
            move_path.play_game(record, RESIGN, expected_version=None)
            return
        except StaleVersion:
            continue
    raise StaleVersion(f"game {game_id} kept moving while its event closed")


def close(tournament: Tournament, now: dt.datetime) -> None:
    """The window has closed: resign the deals still being played, place every entrant, finish."""
    playing = GameRecord.objects.filter(
        solo_match__event_entry__tournament=tournament, status=GameRecord.Status.PLAYING
    ).values_list("pk", flat=True)
    for game_id in list(playing):
        resign(game_id)
    rows = standings(tournament)
    for row in rows:
        row.entry.place = row.place
    Entry.objects.bulk_update([row.entry for row in rows], ["place"])
    tournament.status = Tournament.Status.FINISHED if rows else Tournament.Status.CANCELLED
    tournament.finished_at = now
    tournament.version += 1
    tournament.save(update_fields=["status", "finished_at", "version"])
    notices.settle(about=notices.about_tournament(tournament.pk))  # "play your deals": closed
    for row in rows:
        if row.entry.user is not None:
            event_notices.event_results(tournament, row.entry.user, row.place, len(rows))


def finished_deals(tournament: Tournament) -> int:
    """How many of the entrants' deals are over: the standings change when this does."""
    return GameRecord.objects.filter(
        solo_match__event_entry__tournament=tournament, status=GameRecord.Status.FINISHED
    ).count()


@dataclass(frozen=True)
class DealResult:
    number: int
    record: GameRecord | None
    score: int
    """The deal's score: its game's once over, else the floor (the deal as dealt, resigned)."""

    @property
    def over(self) -> bool:
        return self.record is not None and self.record.is_over

    @property
    def seconds(self) -> float:
        return (self.record.elapsed_seconds or 0.0) if self.over and self.record else 0.0


@dataclass
class Standing:
    entry: Entry
    deals: list[DealResult]
    place: int = 0

    @property
    def total(self) -> int:
        return sum(deal.score for deal in self.deals)

    @property
    def seconds(self) -> float:
        return sum(deal.seconds for deal in self.deals)

    @property
    def played(self) -> int:
        return sum(deal.over for deal in self.deals)

    @property
    def key(self) -> tuple[int, float]:
        """TN-8: total score (higher first), then total time (less first), to the second."""
        return (-self.total, round(self.seconds))


def floors(tournament: Tournament) -> list[int]:
    """Each deal's score if it is resigned as dealt: what a deal not finished counts until it is."""
    engine = get_engine(tournament.game)
    scores = []
    for seed in tournament.deals:
        resigned = engine.apply(engine.initial_state(tournament.config, seed), RESIGN)
        outcome = engine.outcome(resigned)
        assert outcome is not None
        scores.append(int(outcome["score"]))
    return scores


def standings(tournament: Tournament) -> list[Standing]:
    """The entrants of a started event by TN-8's order, equal totals and times sharing a place:
    two queries, however many entrants."""
    entries = list(
        tournament.entries.filter(user__isnull=False, solo_match__isnull=False).select_related("user")
    )
    records: dict[tuple[int, int], GameRecord] = {}
    for found in GameRecord.objects.filter(solo_match__in=[entry.solo_match_id for entry in entries]).only(
        "solo_match_id", "seed", "status", "score", "first_viewed_at", "last_action_at", "game", "outcome"
    ):
        assert found.solo_match_id is not None
        records[(found.solo_match_id, found.seed)] = found
    floor = floors(tournament) if entries else []
    rows = []
    for entry in entries:
        assert entry.solo_match_id is not None
        deals = []
        for number, seed in enumerate(tournament.deals, start=1):
            record = records.get((entry.solo_match_id, seed))
            score = floor[number - 1]
            if record is not None and record.is_over and record.score is not None:
                score = record.score
            deals.append(DealResult(number, record, score))
        rows.append(Standing(entry, deals))
    return place(rows)


def place(rows: Sequence[Standing]) -> list[Standing]:
    ordered = sorted(rows, key=lambda row: (row.key, row.entry.joined_at))
    for index, row in enumerate(ordered):
        row.place = ordered[index - 1].place if index and row.key == ordered[index - 1].key else index + 1
    return ordered
