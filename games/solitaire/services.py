"""Writes about games: start one, play a move, undo, take a hint, resign.

Every move goes through ``submit_action``, which checks what is particular to a solitaire
game (its owner, a ranked daily attempt, an event's window) and hands the move to
``games.core.move_path``, the one path of every move. A stale version or an illegal move
raises ``GameError`` and changes nothing.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from games import kinds
from games.core import finishes, move_path, moves, snapshots
from games.core.errors import GameError, NotYourGame, StaleVersion
from games.core.players import Player
from games.engine import Engine, get_engine
from games.models import Action, DailyChallenge, GameRecord, SoloMatch
from games.stats import selectors

MAX_DEAL_NUMBER = 999_999_999
"""Random deals are numbered 1 .. this: short enough to read out and share."""
WINNABLE_TRIES = 200
DAILY_REQUEST_KEY = "daily-deals-requested:{date}"
"""Set (for ``DAILY_REQUEST_S``) when a page asked the worker to deal a missing day."""
DAILY_REQUEST_S = 60

SECRET_DEAL = (
    "Deal #{seed} is a deal of a daily challenge or a solitaire event that is still on: play it "
    "there. It opens as a numbered deal once its day is over or the event closes."
)
WINDOW_CLOSED = gettext_noop("The event's window has closed: its deals can no longer be played.")
"""Marked for the catalogue; raised worded: ``GameError(gettext(WINDOW_CLOSED))``."""


@dataclass(frozen=True)
class MoveResult:
    record: GameRecord
    state: Any


def random_deal_number(avoid: Collection[int] = (), numbers: int = MAX_DEAL_NUMBER) -> int:
    """A random deal number 1 .. ``numbers``, never one of ``avoid`` (the secret daily deals,
    LP-6). ``avoid`` must leave a number free."""
    while True:
        seed = 1 + secrets.randbelow(numbers)
        if seed not in avoid:
            return seed


def _winnable_deal(game: str, config: dict[str, Any], avoid: Collection[int]) -> int:
    """A random deal number, not one of ``avoid``, whose deal the solver proves winnable under
    ``config`` (with full knowledge of the deal: LP-7 leaves this choice as it was)."""
    from games.engine.solver import solve

    for _ in range(WINNABLE_TRIES):
        seed = random_deal_number(avoid)
        if solve(game, config=config, seed=seed, time_limit=2.0).winnable:
            return seed
    raise GameError(gettext("No winnable deal was found for these options; try other options or any deal."))


def start_solitaire(
    *,
    game: str,
    player: Player,
    config: dict[str, Any] | None = None,
    seed: int | None = None,
    winnable_only: bool = False,
) -> GameRecord:
    """A new casual game: deal ``seed``, or a random (optionally proven winnable) deal.

    A daily deal whose day is not over is no casual game (LP-6): its number is refused,
    and a random deal is never one. The game's clock starts now (its page only reads).
    """
    if game not in kinds.SOLITAIRE_SLUGS:
        raise GameError(gettext("%(game)s is not a solitaire game.") % {"game": repr(game)})
    engine = get_engine(game)
    secret = selectors.secret_seeds()
    if seed is not None and seed in secret:
        raise GameError(SECRET_DEAL.format(seed=seed))
    try:
        full_config = engine.normalize_config(config)
        if seed is None:
            seed = _winnable_deal(game, full_config, secret) if winnable_only else random_deal_number(secret)
        engine.initial_state(full_config, seed)
    except ValueError as exc:
        raise GameError(str(exc)) from exc
    return GameRecord.objects.create(
        game=game,
        engine_version=engine.version,
        config=full_config,
        seed=seed,
        kind=GameRecord.Kind.CASUAL,
        first_viewed_at=timezone.now(),
        **player.ownership(),
    )


def start_daily(*, daily: DailyChallenge, player: Player) -> GameRecord:
    """The player's game of a daily deal: their one ranked attempt, or else an unranked one.

    Resumes an unfinished attempt instead of dealing a second one. A deal is played from
    its UTC day on. Today's deal is for signed-in players only (LP-6): an anonymous practice
    run, from another browser, would show the stock before the ranked attempt. Past days
    are open to everyone, unranked. The attempt's clock starts now, when it is dealt, so a
    ranked time counts from the moment the deal could first be seen.
    """
    today = selectors.utc_today()
    if daily.date > today:
        raise GameError(gettext("This deal opens on its day, at midnight UTC."))
    if daily.date == today and player.user is None:
        raise GameError(
            gettext(
                "Today's deals are played signed in: log in or sign up to play them (ranked). "
                "Past days are open to everyone."
            )
        )
    ranked_possible = player.user is not None and daily.date == today
    with transaction.atomic():
        existing = (
            GameRecord.objects.select_for_update()
            .filter(daily=daily, status=GameRecord.Status.PLAYING, **player.ownership())
            .order_by("-ranked", "-created_at")
            .first()
        )
        if existing is not None:
            return existing
        ranked = (
            ranked_possible
            and not GameRecord.objects.filter(daily=daily, owner=player.user, ranked=True).exists()
        )
        engine = get_engine(daily.game)
        return GameRecord.objects.create(
            game=daily.game,
            engine_version=engine.version,
            config=daily.config,
            seed=daily.seed,
            kind=GameRecord.Kind.DAILY,
            daily=daily,
            ranked=ranked,
            first_viewed_at=timezone.now(),
            **player.ownership(),
        )


def _owned(game_id: int, player: Player, *, lock: bool = False) -> GameRecord:
    """The game, if ``player``'s; ``lock``: its row locked until the transaction ends."""
    games = GameRecord.objects.select_for_update(of=("self",)) if lock else GameRecord.objects.all()
    record = games.select_related("daily", "solo_match").filter(pk=game_id).first()
    if record is None:
        raise GameError(gettext("There is no such game."))
    if not player.owns(record):
        raise NotYourGame(gettext("This is not your game: you can watch it, not play it."))
    return record


def _check_version(record: GameRecord, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != record.version:
        raise StaleVersion(
            gettext(
                "This game changed in another tab or window: the board is now shown as it stands. Try again."
            )
        )


def submit_action(
    *, game_id: int, player: Player, move: str | Mapping[str, object], expected_version: int | None
) -> MoveResult:
    """Apply one move (its text, or the cards the page picked: ``card``, ``partner``);
    expects no lock held, takes the game row's lock itself."""
    if not isinstance(move, Mapping):
        moves.check_text(move, "'draw' or '5h+8c'")
    record = _owned(game_id, player)
    if record.is_over:
        raise GameError(gettext("This game is over."))
    _check_version(record, expected_version)
    # LP-6: once its day is over the deal is public (number, replays, solution), so a move
    # made after that cannot count on the day's leaderboard.
    unrank = record.ranked and record.daily is not None and record.daily.date < selectors.utc_today()
    if record.solo_match is not None and record.solo_match.window_closed():
        raise GameError(gettext(WINDOW_CLOSED))
    moved = move_path.play_game(record, move, expected_version=record.version, unrank=unrank)
    return MoveResult(moved.record, moved.state)


def undo(*, game_id: int, player: Player, expected_version: int | None) -> MoveResult:
    """Take back the last move (replaying one action fewer). Never in a ranked attempt, nor in
    any game of a daily deal whose day is not over (LP-6): drawing through the stock and
    taking it back would show every card."""
    with transaction.atomic():
        record = _owned(game_id, player, lock=True)
        if record.ranked:
            raise GameError(gettext("Undo is not allowed in a ranked daily attempt."))
        if record.solo_match_id is not None:
            raise GameError(gettext("Undo is not allowed in a match: every deal counts as it is played."))
        if selectors.deal_is_secret(record.game, record.seed):
            raise GameError(
                gettext(
                    "Undo is closed for this deal while it is a daily challenge or solitaire event deal "
                    "(until its day is over or the event closes): it could show cards that are still hidden."
                )
            )
        _check_version(record, expected_version)
        if record.action_count == 0:
            raise GameError(gettext("There is no move to undo."))
        record.actions.filter(seq=record.action_count - 1).delete()
        record.action_count -= 1
        record.undo_count += 1
        record.version += 1
        state = snapshots.state_of(record)
        was_over = record.is_over
        moves.finish_if_over(record, get_engine(record.game), state)
        record.save()
        if record.is_over != was_over:
            finishes.sync(record)
    transaction.on_commit(lambda: snapshots.keep(snapshots.Snapshot(record, state)))
    return MoveResult(record, state)


def take_hint(*, game_id: int, player: Player, expected_version: int | None) -> str:
    """The suggested move, computed from the player's view alone (LP-7); counts the hint.
    None in a ranked attempt, nor in any game of a daily deal whose day is not over (LP-6)."""
    from games.engine.solver import hint

    with transaction.atomic():
        record = _owned(game_id, player, lock=True)
        if record.ranked:
            raise GameError(gettext("Hints are not allowed in a ranked daily attempt."))
        if record.solo_match_id is not None:
            raise GameError(gettext("Hints are not allowed in a match: every deal counts as it is played."))
        if record.is_over:
            raise GameError(gettext("This game is over."))
        _check_version(record, expected_version)
        if selectors.deal_is_secret(record.game, record.seed):
            raise GameError(
                gettext(
                    "Hints are closed for this deal while it is a daily challenge or solitaire event deal "
                    "(until its day is over or the event closes): it could show cards that are still hidden."
                )
            )
        suggestion = hint(record.game, get_engine(record.game).view(snapshots.state_of(record), 0))
        if suggestion is None:
            raise GameError(gettext("There is no move left to suggest."))
        record.hint_count += 1
        record.save(update_fields=["hint_count"])
    return str(suggestion)


def daily_secret() -> str:
    """This site's key to its daily deals (``solver.daily_candidate``), derived from
    SECRET_KEY: the published formula alone would let anyone work out tomorrow's deal (LP-6)."""
    return hmac.new(settings.SECRET_KEY.encode(), b"capstone daily deals", hashlib.sha256).hexdigest()


def ensure_daily(*, game: str, date: dt.date) -> DailyChallenge:
    """The daily deal of ``game`` for ``date``, created if missing; running it twice changes nothing.

    For the beat task and the ``create_daily_challenges`` command, never a page: it may run
    the solver many times. The seed and its winning line come from the solver (``daily_deal``
    is deterministic, so two processes racing here compute the same deal, and the unique
    constraint keeps one).
    """
    existing = DailyChallenge.objects.filter(game=game, date=date).first()
    if existing is not None:
        return existing
    from games.engine.solver import daily_deal, solve

    seed = daily_deal(game, date, daily_secret())
    config = get_engine(game).normalize_config(None)
    solution = list(solve(game, config=config, seed=seed).actions)
    try:
        with transaction.atomic():
            return DailyChallenge.objects.create(
                game=game, date=date, seed=seed, config=config, solution=solution
            )
    except IntegrityError:
        return DailyChallenge.objects.get(game=game, date=date)


def request_daily_deals() -> bool:
    """Ask the worker to deal today's missing deals, at most once a minute; True if asked.

    For a page that found today's deal missing (a fresh site before its first beat): the
    page itself never deals (GET does no unbounded work). Queued on commit (at once
    outside a transaction), so a rolled-back request queues nothing.
    """
    from games.tasks import create_daily_challenges

    if not cache.add(DAILY_REQUEST_KEY.format(date=selectors.utc_today()), True, DAILY_REQUEST_S):
        return False
    transaction.on_commit(lambda: create_daily_challenges.delay(days_ahead=0))
    return True


def claim_anonymous_games(*, user: Any, token: str | None) -> int:
    """Give ``user`` the games this browser started before logging in; returns how many."""
    if not token:
        return 0
    with transaction.atomic():
        claimed = list(GameRecord.objects.select_for_update().filter(owner__isnull=True, session_key=token))
        for record in claimed:
            record.owner, record.session_key = user, ""
        GameRecord.objects.bulk_update(claimed, ["owner", "session_key"])
        finishes.sync([record for record in claimed if record.is_over])
        SoloMatch.objects.filter(owner__isnull=True, session_key=token).update(owner=user, session_key="")
    return len(claimed)


def import_game(*, data: dict[str, Any], player: Player) -> GameRecord:
    """Store a checked game file (``replays.parse_import``) to be watched; it is an archive, never
    played. It has no owner: its importer did not play it (the file may be anyone's game, or a
    solver's line), so it counts in no one's statistics, streaks, ratings or boards, all of
    which read games by their owner or by the participations written from it."""
    engine = get_engine(data["game"])
    played = engine.replay(data["config"], data["seed"], data["actions"], deck=data["deck"])
    outcome = engine.outcome(played[-1])
    with transaction.atomic():
        record = GameRecord.objects.create(
            game=data["game"],
            engine_version=engine.version,
            config=data["config"],
            seed=data["seed"],
            deck=data["deck"],
            kind=GameRecord.Kind.IMPORTED,
            status=GameRecord.Status.FINISHED,
            outcome=outcome,
            won=None if outcome is None else outcome.get("won"),
            score=None if outcome is None else outcome.get("score"),
            version=len(data["actions"]),
            action_count=len(data["actions"]),
            finished_moves=len(data["actions"]),
            finished_at=timezone.now(),
            imported_by=player.user,
            played_by=data["players"] or None,
        )
        Action.objects.bulk_create(
            [
                Action(game=record, seq=n, seat=_seat_to_act(engine, played[n]), text=text)
                for n, text in enumerate(data["actions"])
            ]
        )
    return record


def _seat_to_act(engine: Engine[Any, Any], state: Any) -> int:
    seat = engine.current_player(state)
    if seat is None:  # a replay that applied an action to this state says the game went on
        raise ValueError("an action after the end of the game")
    return seat


def continue_from(*, record: GameRecord, step: int, player: Player) -> GameRecord:
    """A new casual game from ``step`` of a solitaire replay: same deal, the first ``step`` moves.
    Its player's to play, undo and finish, but it counts in no statistic (``GameRecord.continued``):
    the moves it starts with may be anyone's, a solver's winning line among them."""
    if record.game not in kinds.SOLITAIRE_SLUGS:
        raise GameError(gettext("Only solitaire games can be continued from a replay."))
    if not record.is_over:
        raise GameError(gettext("A game still being played cannot be continued elsewhere."))
    texts = list(record.actions.order_by("seq").values_list("text", flat=True))[: max(0, step)]
    engine = get_engine(record.game)
    final = engine.replay(record.config, record.seed, texts, deck=record.deck)[-1]
    if engine.outcome(final) is not None:
        raise GameError(gettext("The game is already over at that step: pick an earlier one."))
    with transaction.atomic():
        new = GameRecord.objects.create(
            game=record.game,
            engine_version=engine.version,
            config=record.config,
            seed=record.seed,
            deck=record.deck,
            kind=GameRecord.Kind.CASUAL,
            version=len(texts),
            action_count=len(texts),
            continued_from=record,
            continued_from_step=len(texts),
            **player.ownership(),
        )
        Action.objects.bulk_create([Action(game=new, seq=n, seat=0, text=t) for n, t in enumerate(texts)])
    return new
