"""The beat task that deals the daily challenges, run by a real Celery worker."""

from __future__ import annotations

import subprocess

import pytest

from games.models import DailyChallenge
from games.tasks import create_daily_challenges

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def test_running_the_task_twice_creates_each_deal_once(celery_worker: subprocess.Popen[bytes]) -> None:
    first = create_daily_challenges.delay(days_ahead=1).get(timeout=120)
    seeds = dict(DailyChallenge.objects.order_by("date", "game").values_list("pk", "seed"))
    second = create_daily_challenges.delay(days_ahead=1).get(timeout=120)
    assert first == second and len(first) == 4  # today and tomorrow, for both games
    assert DailyChallenge.objects.count() == 4
    assert dict(DailyChallenge.objects.order_by("date", "game").values_list("pk", "seed")) == seeds
