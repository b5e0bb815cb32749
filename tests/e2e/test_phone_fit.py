"""Issue 41's phone points (12-15) in Chromium at 390x844: the daily boards and the
leaderboards fit the screen, Tauron's shared cards fit their board with readable captions,
no action bar, toast or card covers what the player needs at that moment, and the solitaire
page keeps its move box and keys tidy.

The pages are built into their moments through the services and ``build_table`` (no task
moves them on while the test looks), then visited in one browser context.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from accounts import notices
from accounts.models import Notice, Rating, User
from games.core.players import Player
from games.engine import get_engine
from games.models import DailyChallenge, GameRecord
from games.solitaire import services, solo_matches
from tests.e2e.test_site_clarity_browser import signed_in
from tests.e2e.test_tournament_journey import in_thread
from tests.games.table_moments import build_table, find_game
from tests.support import OVERLAPPING_CAPTIONS, artifacts_dir

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
VIEWER = "phone_viewer"
PASSWORD = "pyramid-of-hexes-55"
# Names as long as a name may be (20 characters), and a day's slowest times: the widest rows.
RIVALS = ("marguerite_delacroix", "bartholomew_ashcroft", "konstantin_ivanovich", "seraphina.wolfhart99")


@dataclass(frozen=True)
class Moments:
    """The pages the test visits, by what they show."""

    daily_today: str
    daily_over: str
    tauron: str
    blocks: str
    triad_discard: str
    solitaire: str
    par_match: str


def _person(name: str) -> User:
    found = User.objects.filter(username=name).first()
    return found or User.objects.create_user(name, f"{name}@example.com", PASSWORD)


def _ranked_attempts(daily: DailyChallenge, people: list[User]) -> None:
    """A finished ranked attempt of each person at ``daily``, won and lost by turns, the slowest
    taking hours: rows as wide as a board's rows get."""
    engine = get_engine(daily.game)
    finished = timezone.now()
    for n, person in enumerate(people):
        won = n % 2 == 0
        record = GameRecord(
            game=daily.game,
            engine_version=engine.version,
            config=daily.config,
            seed=daily.seed,
            kind=GameRecord.Kind.DAILY,
            daily=daily,
            ranked=True,
            owner=person,
            status=GameRecord.Status.FINISHED,
            won=won,
            score=1250 - 37 * n if won else -(190 + n),
            action_count=len(daily.solution) + 11 * n,
            version=len(daily.solution) + 11 * n,
            first_viewed_at=finished - dt.timedelta(seconds=31 + 4567 * n),
            last_action_at=finished,
            finished_at=finished,
        )
        record.freeze_finish()
        record.save()


def build_boards() -> tuple[str, str]:
    """Today's and yesterday's daily deals with their boards full, and rated players on the
    rating boards; the viewer is on each. Today's detail page and yesterday's (over, with a
    replay link a row) are returned; /daily/ and /leaderboards/ show the same rows. Tomorrow's
    deal has the same rows: the server reads its own clock, and if the day turns while the test
    runs, its new day's boards are as full (so the test needs no fixed clock)."""
    people = [_person(VIEWER), *(_person(name) for name in RIVALS)]
    today = timezone.now().date()
    # The next day's deal too: should the day change while the test runs, /daily/ still has rows.
    for date in (today - dt.timedelta(days=1), today, today + dt.timedelta(days=1)):
        for game in ("pyramid", "tripeaks"):
            _ranked_attempts(services.ensure_daily(game=game, date=date), people)
    for n, person in enumerate(people):
        for game in ("triad", "blocks", "tauron"):
            Rating.objects.create(user=person, game=game, mu=1650.4 - 23 * n, sigma=2.1, games=1234 + n)
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    return f"/daily/pyramid/{today.isoformat()}/", f"/daily/tripeaks/{yesterday}/"


def _turn_of(seat: int) -> Callable[[Any, Any], bool]:
    return lambda engine, state: bool(engine.current_player(state) == seat)


def build_tables() -> tuple[str, str, str]:
    """The viewer to act at three tables: Tauron with its six shared cards out at six seats,
    Pyramid Poker holding a block to put into a hand late in the game (its lower rows filled),
    Triad's draw with the cards to discard, from the third of four seats (its hand far down)."""
    viewer = _person(VIEWER)
    tauron_config = {"players": 6, "hands": 3}
    seed, actions = find_game(
        "tauron", tauron_config, lambda e, s, a: len(e.view(s, None).board) == 6 and _turn_of(0)(e, s)
    )
    tauron = build_table("tauron", tauron_config, {0: viewer}, seed, actions)
    blocks_config: dict[str, Any] = {}
    seed, actions = find_game(
        "blocks",
        blocks_config,
        lambda e, s, a: e.view(s, None).phase == "hand" and _turn_of(0)(e, s) and len(a) > 60,
    )
    blocks = build_table("blocks", blocks_config, {0: viewer}, seed, actions)
    triad_config = {"players": 4, "hands": 3}
    seed, actions = find_game(
        "triad", triad_config, lambda e, s, a: e.view(s, None).phase == "draw" and _turn_of(2)(e, s)
    )
    triad = build_table("triad", triad_config, {2: viewer}, seed, actions)
    return tauron.get_absolute_url(), blocks.get_absolute_url(), triad.get_absolute_url()


def build_solitaire() -> tuple[str, str]:
    """A Pyramid game to play and a par match not begun (its "Play deal 1")."""
    player = Player(user=_person(VIEWER), token="")
    record = services.start_solitaire(game="pyramid", player=player, seed=11)
    match = solo_matches.start(game="pyramid", player=player)
    return record.get_absolute_url(), match.get_absolute_url()


def build_moments() -> Moments:
    daily_today, daily_over = build_boards()
    tauron, blocks, triad = build_tables()
    return Moments(daily_today, daily_over, tauron, blocks, triad, *build_solitaire())


# What the browser is asked. Each returns a list of what is wrong, empty when all is well.

OVERFLOWING_CELLS = """() => {
  const wrong = [];
  for (const table of document.querySelectorAll("table.leaderboard")) {
    const panel = table.closest(".panel");
    const box = panel.getBoundingClientRect();
    const style = getComputedStyle(panel);
    const right = box.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight);
    for (const cell of table.querySelectorAll("th, td")) {
      const edge = cell.getBoundingClientRect();
      if (edge.width > 0 && edge.right > right + 0.5) {
        const title = panel.querySelector("h2, h3")?.textContent.trim();
        wrong.push(`${title}: "${cell.textContent.trim()}" ends at ${edge.right} past ${right}`);
        break;  // the table's first: the rest of its column says the same
      }
    }
    for (let box = table.parentElement; box !== panel.parentElement; box = box.parentElement) {
      if (box.scrollWidth > box.clientWidth + 0.5) {
        wrong.push(`${box.className} scrolls: ${box.scrollWidth} > ${box.clientWidth}`);
      }
    }
  }
  return wrong;
}"""

COVERED = """(els) => els.flatMap((el) => {
  const box = el.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  if (hit === el || el.contains(hit)) return [];
  const over = hit ? hit.outerHTML.slice(0, 90) : "nothing: off screen";
  return [`${el.outerHTML.slice(0, 90)} at (${x}, ${y}) is under ${over}`];
})"""

OUTSIDE = """([inner, outer]) => {
  const box = document.querySelector(outer).getBoundingClientRect();
  return [...document.querySelectorAll(inner)].flatMap((el) => {
    const edge = el.getBoundingClientRect();
    const what = el.textContent.trim() || el.outerHTML.slice(0, 60);
    return edge.left < box.left - 0.5 || edge.right > box.right + 0.5
      ? [`${what}: ${edge.left}-${edge.right} outside ${box.left}-${box.right}`]
      : [];
  });
}"""

CONTRAST = """([el, background]) => {
  const lum = (c) => {
    const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [lum(getComputedStyle(el).color), lum(background)].sort((a, b) => b - a);
  return (hi + 0.05) / (lo + 0.05);
}"""

PLACEHOLDER_ROOM = """(input) => {
  const style = getComputedStyle(input);
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = style.font;
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return room - pen.measureText(input.placeholder).width;
}"""

LINES = """(el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}"""

SHORT_OF_ITS_CHOICES = """(select) => {
  const copy = select.cloneNode(true);
  copy.style.width = "max-content";
  select.parentElement.append(copy);
  const needed = copy.getBoundingClientRect().width;
  copy.remove();
  return needed - select.getBoundingClientRect().width;
}"""

LIGHTEST_FELT = "rgb(42, 131, 89)"
"""#2a8359, where the felt's gradient is lightest (static/css/game.css)."""


def fits(page: Page, what: str) -> list[str]:
    """What of the page is wider than the screen, and which table leaves its panel."""
    wrong = []
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size
    assert viewport is not None
    if width > viewport["width"]:
        wrong.append(f"{what} is {width} px wide at {viewport['width']}")
    return wrong + [f"{what}: {problem}" for problem in page.evaluate(OVERFLOWING_CELLS)]


def uncovered(page: Page, what: str, *needed: Locator) -> list[str]:
    """Each needed element, brought on screen as a person would scroll to it, is itself under
    its centre: no bar, toast or other part on top of it."""
    wrong = []
    for locator in needed:
        assert locator.count(), f"{what}: nothing matches {locator}"
        for element in locator.all():
            element.scroll_into_view_if_needed()
            wrong += [f"{what}: {problem}" for problem in page.evaluate(COVERED, [element.element_handle()])]
    return wrong


def shoot(page: Page, name: str) -> None:
    viewport = page.viewport_size
    assert viewport is not None
    page.screenshot(path=str(artifacts_dir() / f"phone-fit-{name}-{viewport['width']}.png"), full_page=True)
    assert page.evaluate(OVERLAPPING_CAPTIONS) == 0, (name, viewport, "captions overlap")


def test_the_pages_fit_a_phone_and_nothing_a_player_needs_is_covered(
    live_site: str, new_context: Any
) -> None:
    moments = in_thread(build_moments)
    viewer = User.objects.get(username=VIEWER)
    page = signed_in(new_context, live_site, viewer, PHONE)
    wrong: list[str] = []

    for path in ("/daily/", moments.daily_today, moments.daily_over, "/leaderboards/"):
        page.goto(live_site + path)
        expect(page.locator("table.leaderboard").first).to_be_visible()
        wrong += fits(page, path)
        shoot(page, path.strip("/").replace("/", "-"))

    page.goto(live_site + moments.tauron)
    board = page.get_by_test_id("board")
    expect(board.locator(".hex-card")).to_have_count(6)
    wrong += fits(page, "Tauron")
    wrong += [
        f"Tauron's board: {p}"
        for p in page.evaluate(OUTSIDE, ['[data-testid="board"] .hex-card', '[data-testid="board"]'])
    ]
    for caption in board.locator(".hex-caption").all():
        ratio = page.evaluate(CONTRAST, [caption.element_handle(), LIGHTEST_FELT])
        if ratio < 4.5:
            wrong.append(f"Tauron's caption {caption.text_content()!r} has {ratio:.1f}:1 on the felt")
    wrong += uncovered(
        page,
        "Tauron",
        board.locator("img.hex"),
        page.locator('[data-testid="tauron-seat-0"] img.hex'),
        page.get_by_test_id("actions").get_by_role("button"),
    )
    shoot(page, "tauron")

    page.goto(live_site + moments.triad_discard)
    expect(page.locator(".discard-form")).to_be_visible()
    wrong += fits(page, "Triad")
    wrong += uncovered(
        page,
        "Triad's draw",
        page.locator(".discard-form .hex-pick img"),
        page.get_by_test_id("actions").get_by_role("button"),
        page.locator('[data-testid="triad-seat-2"] img.hex'),
    )
    shoot(page, "triad-discard")

    page.goto(live_site + moments.blocks)
    expect(page.get_by_role("button", name="Into hand 1")).to_be_visible()
    wrong += fits(page, "Pyramid Poker")
    wrong += uncovered(
        page,
        "Pyramid Poker",
        page.get_by_test_id("actions").get_by_role("button"),
        page.locator(".block-pyramid img.block"),
        page.locator(".hand-set.is-me img.block"),
    )
    shoot(page, "blocks")

    page.goto(live_site + moments.solitaire)
    expect(page.locator("#move-input")).to_be_visible()
    wrong += fits(page, "Pyramid")
    if page.locator(".keys").is_visible() or page.locator("#game kbd").first.is_visible():
        wrong.append("Pyramid: the phone shows keyboard shortcuts")
    short = page.locator("#move-input").evaluate(PLACEHOLDER_ROOM)
    if short < 0:
        wrong.append(f"Pyramid: the move box's placeholder is cut by {-short:.0f} px")
    shoot(page, "solitaire")

    page.goto(live_site + moments.par_match)
    play = page.get_by_role("button", name="Play deal 1")
    expect(play).to_be_visible()
    wrong += fits(page, "par match")
    if (lines := play.evaluate(LINES)) > 1:
        wrong.append(f"par match: 'Play deal 1' takes {lines} lines")

    # A desktop screen: Pyramid Poker's bar and a toast that arrives during the turn, the
    # boards in their columns, the new game form's choices.
    page.set_viewport_size({"width": DESKTOP["width"], "height": DESKTOP["height"]})
    page.goto(live_site + moments.blocks)
    expect(page.get_by_role("button", name="Into hand 1")).to_be_visible()
    page.wait_for_load_state("networkidle")  # the notices socket is open to hear the toast
    in_thread(
        lambda: notices.notify(
            user=viewer,
            kind=Notice.Kind.RESULTS,
            text="Night cup is over",
            url="/tournaments/",
            key="phone-fit",
        )
    )
    expect(page.get_by_test_id("notice-toast")).to_be_visible()
    wrong += uncovered(
        page,
        "Pyramid Poker (desktop, a toast shown)",
        page.get_by_test_id("actions").get_by_role("button"),
        page.locator(".block-pyramid img.block"),
        page.locator(".hand-set.is-me img.block"),
    )
    shoot(page, "blocks")
    page.goto(live_site + "/leaderboards/")
    wrong += fits(page, "/leaderboards/ (desktop)")
    page.goto(live_site + "/play/pyramid/")
    passes = page.get_by_label("Passes through the stock")
    expect(passes).to_have_value("2")
    if (short := passes.evaluate(SHORT_OF_ITS_CHOICES)) > 0.5:
        wrong.append(f"new Pyramid game: 'Passes through the stock' is {short:.0f} px short of its choices")
    assert not wrong, "\n".join(wrong)
