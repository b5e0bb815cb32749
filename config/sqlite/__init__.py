"""Django's SQLite backend, whose transactions wait for the write lock in short steps
(``base.DatabaseWrapper``). ``DATABASE_URL=sqlite:///…``, and the embedded default, select it
(config/settings/base.py)."""
