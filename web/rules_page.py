"""The rules page: docs/rules.md rendered once per process, for players.

docs/rules.md is also the developers' reference, so the page leaves out what is only for them:
the "For developers: ..." sections, the notes about RULES.md, and the rule ids in the text
("Hand ranking (TR-12)"). Each id stays as a link target (``/rules/#TR-12``), on its heading
when one names it. Wide tables scroll inside their own box, not the page. The file's title and
opening (before its first game) are the page's own, from the registry of games: a list written
by hand there once named four games of five.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from functools import cache
from pathlib import Path

import markdown
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_safe
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

DEVELOPER_HEADING = re.compile(r"^For developers\b")
DEVELOPER_NOTE = re.compile(r"^The rule ids\b")
"""A paragraph that explains the ids to developers (``The rule ids (`TR-1` ...) are ...``)."""
RULE_IDS = re.compile(r"\s*\(((?:[A-Z]{2}-\d+)(?:,\s*[A-Z]{2}-\d+)*)\)")
RULES_MD = re.compile(r"\s*\(RULES\.md[^)]*\)")
HEADING_ID = re.compile(r"\s*\{#([\w-]+)\}\s*$")
"""A translation's heading names the English heading's id (``## Le carte {#the-cards}``)."""
HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
BLOCKS = (*HEADINGS, "p", "li", "td", "th", "dt", "dd", "blockquote")


def _level(element: etree.Element) -> int:
    return int(element.tag[1]) if element.tag in HEADINGS else 0


class PlayersOnly(Treeprocessor):
    """Runs after the inline patterns (the text is final) and before the table of contents
    (the headings' slugs are made from their text without the ids)."""

    def run(self, root: etree.Element) -> None:
        self._drop_opening(root)
        self._keep_english_ids(root)
        self._drop_developer_parts(root)
        self._anchor_rule_ids(root)
        self._wrap_tables(root)

    def _drop_opening(self, root: etree.Element) -> None:
        """The title and what comes before the first game's section (``rules.html`` draws them)."""
        for element in list(root):
            if element.tag == "h2":
                return
            root.remove(element)

    def _keep_english_ids(self, root: etree.Element) -> None:
        """A translated heading keeps the id the English one is given: links from the games'
        pages and elsewhere point at it (the table of contents keeps an id it finds)."""
        for element in root.iter():
            if element.tag not in HEADINGS:
                continue
            last = element[-1] if len(element) else None
            text = last.tail if last is not None else element.text
            found = HEADING_ID.search(text or "")
            if not found:
                continue
            if last is not None:
                last.tail = HEADING_ID.sub("", last.tail or "")
            else:
                element.text = HEADING_ID.sub("", element.text or "")
            element.set("id", found.group(1))

    def _drop_developer_parts(self, root: etree.Element) -> None:
        dropping_below = 0  # inside a developers' section: the heading level it started at
        for element in list(root):
            level = _level(element)
            if dropping_below and (not level or level > dropping_below):
                root.remove(element)
                continue
            dropping_below = 0
            text = "".join(element.itertext()).strip()
            if level and DEVELOPER_HEADING.match(text):
                dropping_below = level
                root.remove(element)
            elif element.tag == "p" and DEVELOPER_NOTE.match(text):
                root.remove(element)

    def _anchor_rule_ids(self, root: etree.Element) -> None:
        parent = {child: element for element in root.iter() for child in element}

        def block_of(element: etree.Element) -> etree.Element:
            while element.tag not in BLOCKS and element in parent:
                element = parent[element]
            return element

        found: list[tuple[str, etree.Element]] = []  # (id, the block it was written in)

        def strip(text: str | None, where: etree.Element) -> str | None:
            if not text:
                return text
            for match in RULE_IDS.finditer(text):
                found.extend((rule_id.strip(), block_of(where)) for rule_id in match.group(1).split(","))
            return RULES_MD.sub("", RULE_IDS.sub("", text))

        for element in list(root.iter()):
            element.text = strip(element.text, element)
            for child in element:
                child.tail = strip(child.tail, element)

        # One target per id: the heading that names it if there is one, else where it is first.
        targets: dict[str, etree.Element] = {}
        for rule_id, block in found:
            if rule_id not in targets or (block.tag in HEADINGS and targets[rule_id].tag not in HEADINGS):
                targets[rule_id] = block
        for rule_id, block in reversed(targets.items()):
            anchor = etree.Element("span", {"id": rule_id, "class": "rule-anchor"})
            anchor.tail = block.text
            block.text = None
            block.insert(0, anchor)

    def _wrap_tables(self, root: etree.Element) -> None:
        for element in list(root.iter()):
            game, heading = "", gettext("the rules")  # drawn once per language, in it
            for index, child in enumerate(list(element)):
                if child.tag in HEADINGS:
                    heading = "".join(child.itertext()).strip() or heading
                    if child.tag == "h2":
                        game = heading
                if child.tag == "table":
                    # On a phone the box scrolls sideways: a keyboard must reach it to scroll
                    # it (WCAG 2.1.1), and a Tab stop needs a name, one of its own: the games
                    # share headings ("Table options"), so the game's name comes first.
                    label = f"{game}: {heading}" if game and game != heading else heading
                    box = etree.Element(
                        "div",
                        {"class": "table-scroll", "tabindex": "0", "role": "region", "aria-label": label},
                    )
                    box.tail, child.tail = child.tail, None
                    element.remove(child)
                    box.append(child)
                    element.insert(index, box)


class PlayersOnlyExtension(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:
        # Between "inline" (20) and "toc" (5); see PlayersOnly.
        md.treeprocessors.register(PlayersOnly(md), "players_only", 15)


def rules_file(language: str) -> Path:
    """The rules in ``language`` (``docs/rules.it.md``), else in the site's own (``docs/rules.md``)."""
    docs = settings.BASE_DIR / "docs"
    translated = docs / f"rules.{language}.md"
    return translated if language != settings.LANGUAGE_CODE and translated.is_file() else docs / "rules.md"


@cache
def _rules_html(language: str) -> SafeString:
    text = rules_file(language).read_text(encoding="utf-8")
    html = markdown.markdown(text, extensions=["tables", "toc", "sane_lists", PlayersOnlyExtension()])
    # Our own file, not user input: safe to mark as HTML.
    return mark_safe(html)


def rules_html() -> SafeString:
    """The rules page's text in the active language, drawn once per language."""
    return _rules_html(get_language())


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    from games import kinds  # the registry imports the apps' models

    return render(request, "rules.html", {"rules_html": rules_html(), "games": kinds.GAMES})
