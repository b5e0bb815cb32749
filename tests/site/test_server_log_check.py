"""The check that fails a test when a server it started logs an unexpected exception
(tests/conftest.py ``server_logs_stay_clean``, helpers in tests/support.py).

The reading is tested on log text in the servers' own formats; then a real Celery worker
is made to log a traceback on purpose, under ``server_errors_expected``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support import ServerLogs, artifacts_dir, log_records, unexpected_errors

DAPHNE = """\
2026-11-23 19:21:55,100 INFO daphne.server: Listening on TCP address 127.0.0.1:47675
127.0.0.1:49706 - - [23/Nov/2026:19:21:55] "GET /static/img/favicon.svg" 200 154
2026-11-23 19:21:56,001 ERROR daphne.server: Exception inside application: Timeout reading from 127.0.0.1:6391
Traceback (most recent call last):
  File "/x/redis/asyncio/connection.py", line 1286, in read_response
    response = await self._read_response_from_parser(
redis.exceptions.TimeoutError: Timeout reading from 127.0.0.1:6391
127.0.0.1:49710 - - [23/Nov/2026:19:21:57] "WSDISCONNECT /ws/ping/" - -
"""
CELERY = """\
[2026-11-23 19:19:34,060: INFO/MainProcess] Task games.tasks.advance_table[8b74] succeeded in 0.06s: True
[2026-11-23 19:19:35,001: ERROR/MainProcess] Task games.tasks.advance_table[8b75] raised: KeyError('x')
Traceback (most recent call last):
  File "/x/celery/app/trace.py", line 453, in trace_task
KeyError: 'x'
[2026-11-23 19:19:35,100: INFO/MainProcess] Task games.tasks.advance_table[8b76] received
"""


def test_a_record_holds_its_traceback() -> None:
    records = log_records(DAPHNE)
    assert len(records) == 4
    assert records[2].startswith("2026-11-23 19:21:56,001 ERROR") and records[2].endswith("127.0.0.1:6391")


@pytest.mark.parametrize(
    ("text", "raised"), [(DAPHNE, "redis.exceptions.TimeoutError"), (CELERY, "KeyError")]
)
def test_an_escaped_exception_is_found_whole_and_an_expected_one_is_not(text: str, raised: str) -> None:
    (found,) = unexpected_errors(text)
    assert "Traceback" in found and raised in found
    assert "INFO" not in found  # the records around it are not part of it
    assert unexpected_errors(text, [re.compile(re.escape(raised))]) == []
    assert unexpected_errors(text, [re.compile("something else")]) == [found]


def test_lines_without_an_exception_are_not_errors() -> None:
    assert unexpected_errors("2026-11-23 19:21:55,100 ERROR django.request: Not Found: /nowhere\n") == []


def test_logs_are_read_a_piece_at_a_time_in_whole_lines(tmp_path: Path) -> None:
    log = tmp_path / "daphne.log"
    log.write_text("old line\n")
    logs = ServerLogs(tmp_path)
    logs.skip_to_end()
    assert logs.read_new() == {}
    with log.open("a") as out:
        out.write("first\nsecond, being writ")
    assert logs.read_new() == {"daphne.log": "first\n"}  # the unfinished line waits
    with log.open("a") as out:
        out.write("ten\n")
    (tmp_path / "celery-worker.log").write_text("a new log\n")
    assert logs.read_new() == {"celery-worker.log": "a new log\n", "daphne.log": "second, being written\n"}
    log.write_text("started afresh\n")  # a server's log opened anew ("wb")
    assert logs.read_new() == {"daphne.log": "started afresh\n"}
    with log.open("a") as out:
        out.write(DAPHNE)
    assert list(logs.errors()) == ["daphne.log"]
    assert logs.errors() == {}  # each error is reported once


@pytest.mark.django_db(transaction=True)
@pytest.mark.services
@pytest.mark.server_errors_expected(r"Received unregistered task of type 'tests\.no_such_task'")
def test_a_test_may_expect_a_server_error_it_provokes(celery_worker: Any) -> None:
    from django.conf import settings

    from config.celery import app

    log = artifacts_dir() / "celery-worker.log"
    before = log.stat().st_size
    app.send_task("tests.no_such_task", queue=settings.CELERY_TASK_DEFAULT_QUEUE)
    deadline = time.monotonic() + 20
    while "Traceback" not in log.read_bytes()[before:].decode(errors="replace"):
        assert time.monotonic() < deadline, "the worker logged no traceback for an unknown task"
        time.sleep(0.1)
