"""The Nu HTML checker (vnu.jar, the W3C's validator) finds no error in the served pages
(issue 20); its warnings are allowed.

The pages are those of ``tests.page_tour`` (the axe-core test tours the same), fetched with
Django's test client as the person each is for, written to files and checked by one
``java -jar vnu.jar`` over all of them: the checker takes seconds to start.

vnu.jar is about 31 MB, too big to commit beside the code it checks; it is fetched once from
the npm registry (package ``vnu-jar``, a pinned version, its sha256 checked) into the
untracked ``var/`` and reused. It needs a Java runtime (Debian: ``default-jre-headless``,
which scripts/test and .ci/run install).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from tests.e2e.test_tournament_journey import in_thread
from tests.page_tour import BUILDERS, STALE_TOKEN, Visit
from tests.support import artifacts_dir

pytestmark = pytest.mark.django_db(transaction=True)

BASE_DIR = Path(__file__).resolve().parents[2]
VNU_VERSION = "26.9.27"
VNU_TARBALL = f"https://registry.npmjs.org/vnu-jar/-/vnu-jar-{VNU_VERSION}.tgz"
VNU_SHA256 = "5970d3ffca91a627cf0965e5d91bb2e4242307c29292998de0b419d6a901b2b7"
VNU_JAR = BASE_DIR / "var" / f"vnu-{VNU_VERSION}" / "vnu.jar"
VNU_TIMEOUT_S = 300
# htmx reads hx-* and ws-* (its WebSocket extension) attributes, which HTML does not define;
# its data-hx-* / data-ws-* spellings are valid. Counted apart so that they, to be converted
# all at once, do not hide the other errors.
HTMX_ATTRIBUTE = re.compile(r"Attribute “((?:hx|ws)-[\w:-]+)” not allowed")
# The same mistake with another value (a time, an id) is one kind of error.
BAD_VALUE = re.compile(r"^Bad value “[^”]*”")
EXAMPLES_SHOWN = 3
PAGES_SHOWN = 8


def fetch_vnu() -> Path:
    """The pinned vnu.jar, downloaded and checked the first time."""
    if VNU_JAR.exists():
        return VNU_JAR
    VNU_JAR.parent.mkdir(parents=True, exist_ok=True)
    with urllib.request.urlopen(VNU_TARBALL, timeout=120) as response:
        tarball = response.read()
    digest = hashlib.sha256(tarball).hexdigest()
    assert digest == VNU_SHA256, f"{VNU_TARBALL} has sha256 {digest}, not the pinned {VNU_SHA256}"
    partial = VNU_JAR.with_suffix(f".{os.getpid()}.part")
    archive = VNU_JAR.parent / f"vnu-jar-{VNU_VERSION}.{os.getpid()}.tgz"
    archive.write_bytes(tarball)
    try:
        with tarfile.open(archive) as tar:
            member = tar.extractfile("package/build/dist/vnu.jar")
            assert member is not None
            partial.write_bytes(member.read())
        partial.replace(VNU_JAR)  # whole or absent, should two runs fetch at once
    finally:
        archive.unlink(missing_ok=True)
        partial.unlink(missing_ok=True)
    return VNU_JAR


@pytest.fixture(scope="session")
def vnu_jar() -> Path:
    if shutil.which("java") is None:
        raise RuntimeError("the Nu HTML checker needs Java (Debian: apt-get install default-jre-headless)")
    return fetch_vnu()


def served(visits: list[Visit], folder: Path) -> dict[str, Visit]:
    """Writes each page's HTML to a file of ``folder``; returns the files' names to their visits."""
    clients: dict[str | None, Client] = {}
    files: dict[str, Visit] = {}
    for number, visit in enumerate(visits):
        if visit.user not in clients:
            clients[visit.user] = Client()
            if visit.user is not None:
                clients[visit.user].force_login(User.objects.get(username=visit.user))
        response = clients[visit.user].get(visit.path)
        if visit.stale_form:
            strict = Client(enforce_csrf_checks=True)  # Django's test client skips the check by default
            strict.cookies = clients[visit.user].cookies
            response = strict.post(visit.path, {"csrfmiddlewaretoken": STALE_TOKEN})
        status = response.status_code
        assert status == visit.status, f"{visit.name} ({visit.path}) answered {status}"
        assert response["Content-Type"].startswith("text/html"), visit.path
        name = f"{number:02d}-{re.sub(r'[^a-z0-9]+', '-', visit.name.lower()).strip('-')}.html"
        (folder / name).write_bytes(response.content)
        files[name] = visit
    return files


def run_vnu(jar: Path, files: list[Path]) -> list[dict[str, Any]]:
    result = subprocess.run(
        ["java", "-Xss1m", "-jar", str(jar), "--format", "json", "--exit-zero-always", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=VNU_TIMEOUT_S,
        check=True,
    )
    return json.loads(result.stderr)["messages"]


def kind_of(message: dict[str, Any]) -> str:
    text = message.get("message", "")
    htmx = HTMX_ATTRIBUTE.search(text)
    if htmx:
        return f"htmx attribute “{htmx.group(1)}” (hx-*/ws-*: use data-hx-*/data-ws-*)"
    return BAD_VALUE.sub("Bad value “…”", text)


def some(counts: Counter[str]) -> str:
    shown = "; ".join(f"{page} x{count}" for page, count in counts.most_common(PAGES_SHOWN))
    more = len(counts) - PAGES_SHOWN
    return shown + (f"; and {more} more page(s)" if more > 0 else "")


def report(errors: list[tuple[Visit, dict[str, Any]]]) -> str:
    by_kind: dict[str, list[tuple[Visit, dict[str, Any]]]] = defaultdict(list)
    for visit, message in errors:
        by_kind[kind_of(message)].append((visit, message))
    htmx = sum(len(found) for kind, found in by_kind.items() if kind.startswith("htmx attribute"))
    lines = [f"{len(errors)} error(s) of {len(by_kind)} kind(s); {htmx} of them htmx's hx-*/ws-* attributes"]
    # The htmx ones last: one conversion fixes them all, the others need a look each.
    for kind, found in sorted(by_kind.items(), key=lambda item: (item[0].startswith("htmx"), -len(item[1]))):
        pages = Counter(f"{visit.name} ({visit.path})" for visit, _ in found)
        lines.append(f"\n[{len(found)}] {kind}")
        lines.append(f"    on {len(pages)} page(s): {some(pages)}")
        for visit, message in found[:EXAMPLES_SHOWN]:
            extract = " ".join(message.get("extract", "").split())
            lines.append(f"    e.g. {visit.path} line {message.get('lastLine')}: {extract[:160]}")
    per_page = Counter(f"{visit.name} ({visit.path})" for visit, _ in errors)
    lines.append("\nper page: " + "; ".join(f"{page} {count}" for page, count in per_page.most_common()))
    return "\n".join(lines)


def test_the_served_pages_are_valid_html(celery_worker: Any, vnu_jar: Path, tmp_path: Path) -> None:
    visits = [visit for build in BUILDERS.values() for visit in in_thread(build)]
    files = served(visits, tmp_path)
    messages = run_vnu(vnu_jar, sorted(tmp_path / name for name in files))
    errors = []
    for message in messages:
        if message.get("type") == "info":  # warnings are "info" with subType "warning"
            continue
        name = Path(message.get("url", "")).name
        visit = files.get(name, Visit(name or "(the checker)", message.get("url", "?")))
        errors.append((visit, message))
    (artifacts_dir() / "vnu-messages.json").write_text(json.dumps(messages, indent=1))
    if errors:
        pytest.fail(report(errors), pytrace=False)
