"""Django's makemessages, without guessing: a message new in the code gets no translation
borrowed from a similar old one (it offered "riguardo a", *about*, for "out"). Such a guess is
marked fuzzy, which the catalogue check refuses as it refuses an empty one, and is easier to
miss. (Django documents overriding ``msgmerge_options`` this way.)"""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]
