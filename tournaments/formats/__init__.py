"""Tournament formats as pure functions: no Django, no Channels, no Celery (RULES.md, TN).

Every function here takes plain values (entrant ids as ints, frozen dataclasses, tuples)
and returns plain values, and is deterministic for the same input: a service can call it
from the stored results at every step, and a restart gives the same draw.

- ``seeding``: the seed order (TN-2).
- ``elimination``: single and double elimination brackets (TN-1, TN-2).
- ``round_robin``: heads-up and table round robins (TN-1, TN-3).
- ``swiss``: Swiss pairings, heads-up and at tables (TN-3, TN-4, TN-7).
- ``results``: what a service records of a round (who sat where, who finished where).
- ``seating``: balanced table sizes and the local search that fills them (TN-3).
- ``standings``: points and tie-breaks (TN-3, TN-4).
- ``best_of``: a match of 1, 3 or 5 games (TN-5).
"""
