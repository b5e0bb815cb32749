"""The README's start command, for real: SQLite, its own Redis, daphne, worker and beat."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support import BIN, child_env, free_port, stop_process

BASE_DIR = Path(__file__).resolve().parents[2]
# Each test starts `make run` (its own Redis, daphnes, worker and beat): not for `make check`.
pytestmark = pytest.mark.services


def port_is_listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def wait_until_healthy(port: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
                if json.load(response)["status"] == "ok":
                    return True
        except Exception:  # a 503 while a part is down, or refused while daphne restarts
            pass
        time.sleep(0.5)
    return False


def make_run(data_dir: Path, port: int, redis_port: int, *variables: str) -> subprocess.Popen[bytes]:
    """``make run`` as a person types it, on a data folder and ports of its own; its output
    goes to run.log in the data folder."""
    env = {
        k: v
        for k, v in child_env().items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "MAKEFLAGS", "MFLAGS"}
    }
    env.update(CAPSTONE_DATA_DIR=str(data_dir), CAPSTONE_REDIS_PORT=str(redis_port))
    with (data_dir / "run.log").open("wb") as log:
        return subprocess.Popen(
            ["make", "run", f"PORT={port}", *variables],
            cwd=BASE_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def daphnes_on(data_dir: Path) -> list[int]:
    """The pids of the daphne processes that ``make run WORKERS=n`` started on ``data_dir``."""
    found = subprocess.run(["pgrep", "-f", "daphne --fd"], capture_output=True, text=True).stdout.split()
    return [int(pid) for pid in found if _ours(int(pid), data_dir)]


def _ours(pid: int, data_dir: Path) -> bool:
    try:
        return f"CAPSTONE_DATA_DIR={data_dir}".encode() in Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return False


def accepted_by(pid: int, port: int) -> int:
    """How many connections to ``port`` the process ``pid`` holds (from /proc: its socket
    descriptors, and the established TCP sockets whose local port is ``port``)."""
    established = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
            established.add(fields[9])
    held = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:  # closed since the listing
            continue
        held += target.startswith("socket:[") and target[8:-1] in established
    return held


def assert_connections_are_shared(port: int, daphnes: list[int]) -> None:
    """A burst of connections while one daphne is busy (here: stopped) is still shared out:
    each daphne has its own socket, and the busy one takes its share when it can."""
    os.kill(daphnes[0], signal.SIGSTOP)
    try:
        burst = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(40)]
    finally:
        os.kill(daphnes[0], signal.SIGCONT)
    try:
        deadline = time.monotonic() + 10
        while sum(accepted_by(pid, port) for pid in daphnes) < len(burst) and time.monotonic() < deadline:
            time.sleep(0.1)
        shares = [accepted_by(pid, port) for pid in daphnes]
        assert sum(shares) == len(burst) and min(shares) >= 8, shares
    finally:
        for connection in burst:
            connection.close()


def wait_until_exited(pid: int, seconds: float = 10) -> None:
    """Until ``pid`` has exited and its parent (the supervisor) has collected it: then every
    thread of it has exited, and its descriptors, its listening socket among them, are closed.
    Its main thread shows as a zombie while daphne's other threads are still closing the
    descriptors they share, and a connection the kernel dealt to that socket meanwhile is
    reset with the rest of the dying daphne's connections, as a crash's are."""
    deadline = time.monotonic() + seconds
    while Path(f"/proc/{pid}").exists():
        if time.monotonic() > deadline:
            raise AssertionError(f"process {pid} still runs {seconds} s after SIGKILL")
        time.sleep(0.02)


def test_make_run_serves_a_healthy_site_that_outlives_a_killed_daphne_and_redis(tmp_path: Path) -> None:
    """``make run`` with two daphnes, as it starts on two cores or more (WORKERS=auto): one
    test, since each start of the whole site is seconds of both cores."""
    port, redis_port = free_port(), free_port()
    process = make_run(tmp_path, port, redis_port, "WORKERS=2")
    try:
        assert wait_until_healthy(port, seconds=120), (tmp_path / "run.log").read_text()[-3000:]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
            body = json.load(response)
        assert body["database"]["detail"] == "sqlite"
        assert (tmp_path / "db.sqlite3").exists()
        assert body["redis"]["ok"] and body["celery"]["ok"]
        assert port_is_listening(redis_port)
        daphnes = daphnes_on(tmp_path)
        assert len(daphnes) == 2, (tmp_path / "run.log").read_text()[-3000:]
        assert_connections_are_shared(port, daphnes)

        # One daphne dies, and its socket with it: the other keeps the port answering, and the
        # supervisor starts it again on a socket of its own.
        os.kill(daphnes[0], signal.SIGKILL)
        wait_until_exited(daphnes[0])
        for _ in range(20):
            # One dealt to the daphne started again waits in its new socket's queue while it starts.
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/rules/", timeout=30) as response:
                assert response.status == 200
        deadline = time.monotonic() + 30
        while len(daphnes_on(tmp_path)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(daphnes_on(tmp_path)) == 2
        assert "daphne 1 exited with code" in (tmp_path / "run.log").read_text()
        assert wait_until_healthy(port, seconds=30)

        # Redis dies (and the worker with it, as it exits when Redis restarts under it): the
        # supervisor starts what died again, and the site is healthy again by itself.
        redis_pid = int(
            subprocess.check_output(["pgrep", "-f", f"redis-server 127.0.0.1:{redis_port}"]).split()[0]
        )
        os.kill(redis_pid, signal.SIGKILL)
        assert wait_until_healthy(port, seconds=90), (tmp_path / "run.log").read_text()[-3000:]
        assert "redis exited with code" in (tmp_path / "run.log").read_text()

        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in the terminal does
        process.wait(timeout=30)
        time.sleep(0.5)
        assert not port_is_listening(port) and not port_is_listening(redis_port)
        assert not daphnes_on(tmp_path)
        text = (tmp_path / "run.log").read_text()
        assert "Capstone is running at" in text and "[capstone] stopped" in text
    finally:
        # SIGTERM, not SIGKILL: make run stops its children, each in a session of its own.
        stop_process(process, timeout=30)


def processes_of(data_dir: Path, redis_port: int) -> list[int]:
    """Every live process a launcher on ``data_dir`` started: by the data folder it passes to
    each child (and theirs inherit), and Redis, which writes its title over its environment,
    by its port."""
    pids = [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]
    redis = subprocess.run(
        ["pgrep", "-f", f"redis-server 127.0.0.1:{redis_port}"], capture_output=True, text=True
    ).stdout.split()
    return [pid for pid in pids if _ours(pid, data_dir)] + [int(pid) for pid in redis]


def wait_for_port(port: int, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not port_is_listening(port):
        assert time.monotonic() < deadline, f"nothing listened on {port} after {seconds} s"
        time.sleep(0.05)


def test_a_killed_launcher_takes_its_children_with_it_and_its_redis_does_not_block_the_next(
    tmp_path: Path,
) -> None:
    """Issue 41: ``kill -9`` of ``make run``'s group left Redis, both daphnes, the worker and
    beat running (each in a session of its own), and the next start refused: "port 6390 is
    taken". Here the launcher finds a Redis of its data folder still running, as such a run
    left it, stops it and starts its own; killed, it leaves nothing behind."""
    from launcher.embedded import redis_server_argv
    from tests.stack import redis_binary

    port, redis_port = free_port(), free_port()
    (tmp_path / "redis").mkdir()
    leftover = subprocess.Popen(
        redis_server_argv(redis_binary(), redis_port, tmp_path / "redis"),
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for_port(redis_port)
        unset = {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}  # the embedded default, as make_run
        env = {k: v for k, v in child_env().items() if k not in unset}
        env.update(CAPSTONE_DATA_DIR=str(tmp_path), CAPSTONE_REDIS_PORT=str(redis_port))
        log = tmp_path / "run.log"
        with log.open("wb") as out:
            launcher = subprocess.Popen(
                [str(BIN / "python"), "-m", "launcher.embedded", "--port", str(port), "--workers", "2"],
                cwd=BASE_DIR,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            deadline = time.monotonic() + 90
            while "Capstone is running at" not in log.read_text():
                assert launcher.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
                time.sleep(0.1)
            assert leftover.wait(timeout=10) == 0  # asked to shut down, it did
            assert "stopped the Redis that a stopped run" in log.read_text()
            children = [pid for pid in processes_of(tmp_path, redis_port) if pid != launcher.pid]
            assert len(children) >= 5, log.read_text()[-3000:]  # Redis, two daphnes, worker, beat

            os.killpg(launcher.pid, signal.SIGKILL)  # what kill -9 of make run's group does to it
            launcher.wait()
            deadline = time.monotonic() + 15
            while processes_of(tmp_path, redis_port) and time.monotonic() < deadline:
                time.sleep(0.1)
            left = processes_of(tmp_path, redis_port)
            assert not left, f"still running 15 s after the launcher was killed: {left}"
            assert not port_is_listening(redis_port) and not port_is_listening(port)
        finally:
            stop_process(launcher)
            for pid in processes_of(tmp_path, redis_port):  # what a failed run left behind
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
    finally:
        stop_process(leftover)


def test_a_redis_of_another_folder_is_left_alone(tmp_path: Path) -> None:
    import redis

    from launcher.embedded import redis_server_argv, stop_leftover_redis
    from tests.stack import redis_binary

    port = free_port()
    for folder in ("ours", "theirs"):
        (tmp_path / folder).mkdir()
    theirs = subprocess.Popen(
        redis_server_argv(redis_binary(), port, tmp_path / "theirs"),
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for_port(port)
        assert not stop_leftover_redis(port, tmp_path / "ours")
        with redis.Redis(port=port) as client:
            assert client.ping()
    finally:
        stop_process(theirs)


def test_daphnes_are_not_started_on_a_port_something_listens_on(tmp_path: Path) -> None:
    """Each daphne's socket allows the port's reuse, so without this check a second site on
    the same port would silently take half of the first one's visitors."""
    from launcher.embedded import Supervisor, start_daphne

    supervisor = Supervisor(child_env())
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        with pytest.raises(RuntimeError, match=f"port {port} is taken"):
            start_daphne(supervisor, tmp_path, "127.0.0.1", port, workers=2)
    assert supervisor.children == []
