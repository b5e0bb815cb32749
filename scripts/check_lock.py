"""Fails when pyproject.toml and requirements.lock disagree.

The lock is what every machine installs (``pip install --require-hashes``), so a
requirement added to or narrowed in pyproject.toml without ``make lock`` would go
untested: each requirement of the project (runtime and ``dev``) must be pinned in the
lock at a version its specifier admits, and the lock must pin nothing that no
requirement reaches. Runs offline, from the two files alone.

Usage: ``python scripts/check_lock.py [pyproject.toml] [requirements.lock]``
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

BASE_DIR = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)")
VIA = re.compile(r"^\s+#\s+(?:via\s+)?([A-Za-z0-9][A-Za-z0-9._-]*)")


def declared(pyproject: Path) -> list[Requirement]:
    project = tomllib.loads(pyproject.read_text())["project"]
    texts = list(project.get("dependencies", [])) + list(
        project.get("optional-dependencies", {}).get("dev", [])
    )
    return [Requirement(text) for text in texts]


def pinned(lock: Path) -> tuple[dict[str, str], dict[str, set[str]]]:
    """Versions by package, and which packages each pin says it is there for (uv's ``# via``)."""
    versions: dict[str, str] = {}
    wanted_by: dict[str, set[str]] = {}
    current: str | None = None
    for line in lock.read_text().splitlines():
        if match := PIN.match(line):
            current = canonicalize_name(match.group(1))
            versions[current] = match.group(2)
            wanted_by[current] = set()
        elif current is not None and (via := VIA.match(line)):
            wanted_by[current].add(canonicalize_name(via.group(1)))
    return versions, wanted_by


def problems(pyproject: Path, lock: Path) -> list[str]:
    requirements = declared(pyproject)
    versions, wanted_by = pinned(lock)
    found = []
    for requirement in requirements:
        name = canonicalize_name(requirement.name)
        if name not in versions:
            found.append(f"{requirement.name} is required by pyproject.toml but not pinned in the lock")
        elif not requirement.specifier.contains(versions[name], prereleases=True):
            found.append(f"{requirement} does not admit the locked {requirement.name}=={versions[name]}")
    roots = {canonicalize_name(r.name) for r in requirements} | {"capstone"}
    for name, via in wanted_by.items():
        if name not in roots and not via:
            found.append(f"{name}=={versions[name]} is pinned in the lock but nothing requires it")
    return found


def main(argv: list[str]) -> int:
    pyproject = Path(argv[1]) if len(argv) > 1 else BASE_DIR / "pyproject.toml"
    lock = Path(argv[2]) if len(argv) > 2 else BASE_DIR / "requirements.lock"
    found = problems(pyproject, lock)
    for problem in found:
        print(f"lock check: {problem}", file=sys.stderr)
    if found:
        print(
            "lock check: run `make lock` and test the result (README: upgrading a dependency)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
