"""Solo matches: a run of deals played one after another, each an ordinary game of kind
``match`` played without undo or hints, the match's score their total. A solo challenge is
a game's ``SoloMatchRule``, such as PY-8's par match: six Pyramid deals with par scoring, par
a total of 0, drawn when the match starts (random deal numbers, never a secret deal's, LP-6).
A solitaire event (TN-8, ``tournaments.solitaire_events``) gives each entrant a match of its
deals that its window closes.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from games import kinds
from games.core.errors import GameError, NotYourGame
from games.core.players import Player
from games.engine import get_engine
from games.kinds.spec import SolitaireSpec, SoloMatchRule
from games.models import GameRecord, SoloMatch
from games.solitaire.services import WINDOW_CLOSED, random_deal_number
from games.stats import selectors


def rule_of(game: str) -> SoloMatchRule:
    spec = kinds.BY_SLUG.get(game)
    if not isinstance(spec, SolitaireSpec) or spec.match is None:
        raise GameError(f"{game!r} has no match of deals.")
    return spec.match


def start(*, game: str, player: Player) -> SoloMatch:
    """A new match of ``game``: its deals drawn now, none dealt yet."""
    rule = rule_of(game)
    config = get_engine(game).normalize_config(dict(rule.config))
    secret = selectors.secret_seeds()
    seeds: list[int] = []
    while len(seeds) < rule.deals:
        seed = random_deal_number(secret)
        if seed not in seeds:
            seeds.append(seed)
    with translation.override(None):
        title = str(rule.name)  # kept as its message id: the page translates it for each reader
    return SoloMatch.objects.create(
        game=game, config=config, seeds=seeds, title=title, par=rule.par, **player.ownership()
    )


def owned(match_id: int, player: Player) -> SoloMatch:
    match = SoloMatch.objects.filter(pk=match_id).first()
    if match is None or not player.owns(match):
        raise NotYourGame(gettext("There is no such match of yours."))
    return match


def play(*, match_id: int, deal: int, player: Player) -> GameRecord:
    """The game of the match's ``deal``-th deal (from 1): the one begun, or a new one. Deals
    are played in order: the next only once every earlier one is over."""
    with transaction.atomic():
        match = SoloMatch.objects.select_for_update().filter(pk=match_id).first()
        if match is None or not player.owns(match):
            raise NotYourGame(gettext("There is no such match of yours."))
        if not 1 <= deal <= len(match.seeds):
            raise GameError(gettext("A match has deals 1 to %(last)s.") % {"last": len(match.seeds)})
        if match.window_closed():
            raise GameError(WINDOW_CLOSED)
        games = {record.seed: record for record in match.games.all()}
        existing = games.get(match.seeds[deal - 1])
        if existing is not None:
            return existing
        earlier = [games.get(seed) for seed in match.seeds[: deal - 1]]
        if any(record is None or not record.is_over for record in earlier):
            raise GameError(gettext("Finish the deals before this one first: a match is played in order."))
        engine = get_engine(match.game)
        return GameRecord.objects.create(
            game=match.game,
            engine_version=engine.version,
            config=match.config,
            seed=match.seeds[deal - 1],
            kind=GameRecord.Kind.MATCH,
            solo_match=match,
            first_viewed_at=timezone.now(),
            owner=match.owner,
            session_key=match.session_key,
        )


@dataclass(frozen=True)
class DealLine:
    number: int
    seed: int
    record: GameRecord | None

    @property
    def score(self) -> int | None:
        return self.record.score if self.record is not None and self.record.is_over else None


@dataclass(frozen=True)
class MatchSummary:
    match: SoloMatch
    deals: list[DealLine]

    @property
    def played(self) -> int:
        return sum(line.score is not None for line in self.deals)

    @property
    def total(self) -> int:
        """The scores of the deals played so far, added up (PY-8: compared with par)."""
        return sum(line.score or 0 for line in self.deals)

    @property
    def over(self) -> bool:
        return self.played == len(self.deals) or self.match.window_closed()

    @property
    def sealed(self) -> bool:
        """An event's match while its window is open: its deal numbers and replays stay hidden (LP-6)."""
        return self.match.closes_at is not None and not self.match.window_closed()

    @property
    def seconds_left(self) -> int:
        """Until an event's window closes (0 once closed, or for a match with no window)."""
        if self.match.closes_at is None:
            return 0
        return max(0, int((self.match.closes_at - timezone.now()).total_seconds()))

    @property
    def next_deal(self) -> int | None:
        """The deal to play now: the first not over, while the match is on."""
        if self.match.window_closed():
            return None
        return next((line.number for line in self.deals if line.score is None), None)

    @property
    def against_par(self) -> str:
        """'level with par', '12 above par', '66 below par'; "" for a match without a par. Not
        golf's "under par": PY-8's higher total is the better one, and "66 under par" read as
        a fine result."""
        if self.match.par is None:
            return ""
        difference = self.total - self.match.par
        if difference == 0:
            return gettext("level with par")
        if difference > 0:
            return gettext("%(points)d above par") % {"points": difference}
        return gettext("%(points)d below par") % {"points": -difference}

    def deal_of(self, record: GameRecord) -> int | None:
        """Which deal of the match ``record`` is (from 1)."""
        return next((line.number for line in self.deals if line.seed == record.seed), None)


def summary(match: SoloMatch) -> MatchSummary:
    """The match deal by deal: two queries."""
    games = {record.seed: record for record in match.games.all()}
    lines = [DealLine(n, seed, games.get(seed)) for n, seed in enumerate(match.seeds, start=1)]
    return MatchSummary(match, lines)
