"""A live table's "Latest moves": the last few moves in words, as every spectator may know them.

Each move is put into words once per language, when a reader of that language first sees it
(``games.core.narration.Said``: LP-3's ``reveal=False`` at every moment, the end included); the
log is drawn once a version for every viewer reading the same language.
"""

from __future__ import annotations

from django.utils.translation import gettext
from markupsafe import Markup

from games.core.snapshots import Snapshot
from games.live.live_templates import live_template


def log_section(snapshot: Snapshot) -> Markup:
    """The log as the table's HTML (none before the first move)."""
    if not snapshot.log:
        return Markup("")
    log = [
        {
            "seq": line.seq,
            "text": gettext("Time ran out: %(move)s") % {"move": line.said}
            if line.timed_out
            else str(line.said),
            "timed_out": line.timed_out,
        }
        for line in snapshot.log
    ]
    return Markup(live_template("games/partials/table_log.html").render(log=log))
