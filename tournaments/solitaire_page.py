"""A solitaire event's page (TN-8): its window, the visitor's own run, and the standings, live
while the window is open (a deal not finished counts as dealt) and final once it closes, with
each deal's replay then. Nothing on it names a deal before the close (LP-6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from accounts.models import User
from tournaments import solitaire_events
from tournaments.models import Entry, Tournament
from tournaments.solitaire_events import Standing


@dataclass(frozen=True)
class DealColumn:
    number: int
    seed: int | None
    """Shown once the event has closed, when the deal is an ordinary numbered deal."""


def solitaire_page(tournament: Tournament, user: User | None) -> dict[str, Any]:
    entrants = list(tournament.entries.filter(user__isnull=False).select_related("user", "solo_match"))
    mine = next((entry for entry in entrants if user is not None and entry.user_id == user.pk), None)
    started = tournament.started_at is not None
    rows = solitaire_events.standings(tournament) if started else []
    closed = tournament.status == Tournament.Status.FINISHED
    seconds_left = 0
    if tournament.closes_at is not None:
        seconds_left = max(0, int((tournament.closes_at - timezone.now()).total_seconds()))
    return {
        "tournament": tournament,
        "entrants": entrants,
        "people_count": len(entrants),
        "bot_count": 0,
        "entered": mine is not None,
        "my_entry": mine,
        "my_row": _row_of(rows, mine),
        "standings": rows,
        "deal_columns": [
            DealColumn(number, seed if closed else None)
            for number, seed in enumerate(tournament.deals, start=1)
        ],
        "closed": closed,
        "seconds_left": seconds_left,
        "par": solitaire_events.par_of(tournament),
        "can_enter_late": user is not None
        and mine is None
        and solitaire_events.taking_late_entries(tournament)
        and len(entrants) < tournament.max_entrants,
        "champions": [row.entry for row in rows if row.place == 1] if closed else [],
    }


def _row_of(rows: list[Standing], entry: Entry | None) -> Standing | None:
    if entry is None:
        return None
    return next((row for row in rows if row.entry.pk == entry.pk), None)
