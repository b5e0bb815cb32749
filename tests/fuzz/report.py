"""Figures of a fuzz run: per consumer and per endpoint, for the terminal and docs/benchmarks.md."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.fuzz.harness import FuzzRun
from tests.fuzz.http_fuzz import describe


def _counts(counter: Counter[Any]) -> str:
    return ", ".join(f"{key}: {n:,}" for key, n in sorted(counter.items(), key=lambda kv: str(kv[0])))


def markdown(run: FuzzRun) -> str:
    lines = [
        "| consumer | frames handled | flood frames | limit notices | 4429 closes | protocol-abuse frames "
        "| sockets | close codes | answers | unanswered in 5 s | unhandled |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |",
    ]
    for tally in run.sockets.values():
        lines.append(
            f"| `{tally.name}` | {tally.counted():,} | {tally.flood_frames:,} "
            f"| {tally.limited + tally.limited_paced:,} | {tally.closes.get('4429', 0):,} "
            f"| {tally.protocol_frames:,} | {tally.connections:,} | {_counts(tally.closes)} "
            f"| {_counts(tally.answers)} | {tally.unanswered:,} | {tally.unhandled} |"
        )
    lines += [
        "",
        "| POST endpoint | requests | status codes | forged (no CSRF): refused before the view "
        "| 429 (limited / locked out) | dropped unanswered | unhandled |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    for tally in run.http.values():
        lines.append(
            f"| `{tally.name}` | {tally.sent:,} | {_counts(tally.statuses)} "
            f"| {tally.forged_refused} of {tally.forged} | {tally.limited():,} | {tally.dropped} "
            f"| {tally.unhandled} |"
        )
    phases = run.phase_seconds
    handled = sum(n for found in run.logs.values() for key, n in found.items() if key.startswith("handled"))
    lines += [
        "",
        f"Server logs: {run.log_unhandled()} unhandled tracebacks; {handled} handled ones "
        "(django.security: bodies over the upload limit, too many fields, answered 400). "
        f"Components that died: {run.died or 'none'}. POST views not fuzzed: {run.uncovered or 'none'}. "
        f"Sockets not fuzzed: {run.sockets_uncovered or 'none'}. "
        f"Socket rate limits in the tree: {'yes' if run.rate_limits else 'no'}. {run.seconds:.0f} s in all "
        f"(sockets {phases.get('sockets', 0):.0f} s and posts {phases.get('http', 0):.0f} s "
        "at the same time).",
    ]
    return "\n".join(lines)


def notes(run: FuzzRun) -> list[str]:
    """What is worth a look but is no failure: requests the HTTP server dropped unanswered,
    frames a consumer left unanswered."""
    dropped = [f"POST {t.name}: dropped: {e}" for t in run.http.values() for e in t.dropped_examples]
    unanswered = [
        f"socket {t.name}: unanswered: {e}" for t in run.sockets.values() for e in t.unanswered_examples
    ]
    return dropped + unanswered


def problems(run: FuzzRun) -> list[str]:
    found = []
    for tally in run.sockets.values():
        found += [f"socket {tally.name}: {example}" for example in tally.examples]
        if tally.counted() < run.config.frames:
            found.append(f"socket {tally.name}: only {tally.counted()} frames handled")
    for http in run.http.values():
        found += [f"POST {http.name}: {example}" for example in http.examples]
        found += [f"POST {http.name}: forged, yet answered: {example}" for example in http.forged_examples]
    for log, counts in run.logs.items():
        found += [f"log {log}: {key} x{n}" for key, n in counts.items() if key.startswith("unhandled")]
    found += [f"died: {name}" for name in run.died]
    found += [f"POST view not fuzzed: {name}" for name in run.uncovered]
    found += [f"socket not fuzzed: {route}" for route in run.sockets_uncovered]
    return found


def as_json(run: FuzzRun) -> dict[str, Any]:
    return {
        "ok": run.ok(),
        "seconds": round(run.seconds, 1),
        "phase_seconds": run.phase_seconds,
        "sockets": {
            name: vars(t) | {"answers": dict(t.answers), "closes": dict(t.closes), "counted": t.counted()}
            for name, t in run.sockets.items()
        },
        "http": describe(run.http),
        "logs": {name: dict(found) for name, found in run.logs.items()},
        "died": run.died,
        "uncovered": run.uncovered,
        "sockets_uncovered": run.sockets_uncovered,
        "rate_limits": run.rate_limits,
        "problems": problems(run),
        "notes": notes(run),
        "log_dir": run.log_dir,
    }
