"""games.live.socket_limits on its own: token buckets, patience, shared buckets, spacing.

Pure and clock-free (time is passed in), so these run in microseconds. The same limits
against a real daphne are in tests/games/test_socket_limits.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.live.socket_limits import (
    PING,
    PLAYER,
    WATCHER,
    FrameLimiter,
    Rate,
    SharedBuckets,
    Spacing,
    TokenBucket,
    Verdict,
)


def verdicts(limiter: FrameLimiter, times: list[float]) -> list[Verdict]:
    return [limiter.check(t) for t in times]


def test_the_policies_match_what_people_need() -> None:
    assert PLAYER.frames / PLAYER.per_s == pytest.approx(100 / 20)  # about 100 frames per 20 s
    assert WATCHER.frames / WATCHER.per_s == pytest.approx(30 / 20)
    assert PING.refill_per_s <= PLAYER.refill_per_s and WATCHER.burst < PLAYER.burst
    assert all(rate.burst >= 1 and rate.patience >= 1 for rate in (PLAYER, WATCHER, PING))


def test_a_bucket_gives_its_burst_at_once_then_one_per_refill() -> None:
    bucket = TokenBucket(capacity=3, refill_per_s=2, now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert not bucket.take(0.4)  # 0.8 of a token
    assert bucket.take(0.5) and not bucket.take(0.5)
    assert [bucket.take(100.0) for _ in range(4)] == [True, True, True, False]  # never above capacity


def test_a_clock_that_goes_back_refills_nothing() -> None:
    bucket = TokenBucket(capacity=1, refill_per_s=1, now=10.0)
    assert bucket.take(10.0)
    assert not bucket.take(5.0) and not bucket.take(10.5)
    assert bucket.take(11.0)


def test_a_bucket_must_hold_and_refill() -> None:
    with pytest.raises(ValueError):
        TokenBucket(capacity=0.5, refill_per_s=1, now=0)
    with pytest.raises(ValueError):
        TokenBucket(capacity=1, refill_per_s=0, now=0)


def test_a_flood_is_admitted_up_to_the_burst_refused_until_patience_runs_out_then_closed() -> None:
    rate = Rate(frames=10, per_s=10, burst=4, patience=3)
    limiter = FrameLimiter(rate, now=0.0)
    assert verdicts(limiter, [0.0] * 9) == [Verdict.ADMIT] * 4 + [Verdict.REFUSE] * 3 + [
        Verdict.CLOSE,
        Verdict.IGNORE,
    ]
    # Once closed, closed: a quiet spell does not reopen it.
    assert verdicts(limiter, [60.0, 60.0]) == [Verdict.IGNORE, Verdict.IGNORE]


def test_a_client_at_the_allowed_rate_is_never_refused() -> None:
    limiter = FrameLimiter(PLAYER, now=0.0)
    step = 1 / PLAYER.refill_per_s
    assert set(verdicts(limiter, [n * step for n in range(10_000)])) == {Verdict.ADMIT}


def test_a_client_a_little_too_fast_is_refused_now_and_then_but_not_closed() -> None:
    limiter = FrameLimiter(PLAYER, now=0.0)
    step = 1 / (PLAYER.refill_per_s * 1.1)  # 10 % over: half a refusal a second
    seen = verdicts(limiter, [n * step for n in range(20_000)])  # over an hour
    assert Verdict.REFUSE in seen and Verdict.CLOSE not in seen


@given(st.floats(min_value=2, max_value=10_000))
def test_a_flood_is_closed_soon_and_admits_little(frames_per_s: float) -> None:
    """Whatever the flood's speed (twice the rate and up), the socket is closed within
    the patience's worth of refusals, and what got through stays within the limit."""
    rate = WATCHER
    limiter = FrameLimiter(rate, now=0.0)
    step = 1 / (rate.refill_per_s * frames_per_s)
    seen: list[Verdict] = []
    t = 0.0
    while Verdict.CLOSE not in seen:
        seen.append(limiter.check(t))
        t += step
        assert t < 10 * rate.per_s, "never closed"
    admitted = seen.count(Verdict.ADMIT)
    assert admitted <= rate.burst + t * rate.refill_per_s + 1
    assert seen.count(Verdict.REFUSE) <= rate.patience + t * rate.patience / rate.per_s + 1


def test_a_spectator_who_sits_down_gets_the_players_rate_without_a_fresh_burst() -> None:
    limiter = FrameLimiter(WATCHER, now=0.0)
    assert verdicts(limiter, [0.0] * WATCHER.burst) == [Verdict.ADMIT] * WATCHER.burst
    limiter.change_rate(PLAYER, now=0.0)
    assert limiter.check(0.0) is Verdict.REFUSE  # the spent burst stays spent
    assert limiter.check(1.0) is Verdict.ADMIT  # and refills at the player's rate
    assert [limiter.check(1.0) for _ in range(4)].count(Verdict.ADMIT) == 4


def test_a_player_who_leaves_keeps_no_more_than_a_spectators_burst() -> None:
    limiter = FrameLimiter(PLAYER, now=0.0)
    limiter.change_rate(WATCHER, now=0.0)
    seen = verdicts(limiter, [0.0] * (PLAYER.burst))
    assert seen.count(Verdict.ADMIT) == WATCHER.burst


def test_sockets_sharing_a_bucket_share_its_burst_but_not_their_patience() -> None:
    shared = SharedBuckets()
    first = FrameLimiter(PLAYER, 0.0, shared.bucket("alice", PLAYER, 0.0))
    assert verdicts(first, [0.0] * PLAYER.burst) == [Verdict.ADMIT] * PLAYER.burst
    # A new socket (say, after reconnecting) starts where the first left off...
    second = FrameLimiter(PLAYER, 0.0, shared.bucket("alice", PLAYER, 0.0))
    assert second.check(0.0) is Verdict.REFUSE
    # ... with patience of its own; someone else's bucket is untouched.
    assert first.check(0.0) is Verdict.REFUSE
    other = FrameLimiter(PLAYER, 0.0, shared.bucket("bob", PLAYER, 0.0))
    assert other.check(0.0) is Verdict.ADMIT


def test_shared_buckets_keep_only_the_most_recent_keys() -> None:
    shared = SharedBuckets(size=2)
    a, b = shared.bucket("a", PLAYER, 0.0), shared.bucket("b", PLAYER, 0.0)
    assert shared.bucket("a", PLAYER, 0.0) is a  # used again: now the most recent
    shared.bucket("c", PLAYER, 0.0)  # one too many: "b", the least recently used, goes
    assert shared.bucket("a", PLAYER, 0.0) is a
    assert shared.bucket("b", PLAYER, 0.0) is not b


def test_spacing_lets_the_first_through_then_one_per_interval() -> None:
    spacing = Spacing(0.3)
    assert spacing.wait(5.0) == 0.0
    spacing.mark(5.0)
    assert spacing.wait(5.1) == pytest.approx(0.2)
    assert spacing.wait(5.3) == 0.0 and spacing.wait(9.0) == 0.0
