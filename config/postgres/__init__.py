"""Django's PostgreSQL backend, with its connection health check run at most once a second
(``base.DatabaseWrapper``). ``DATABASE_URL=postgres://…`` selects it (config/settings/base.py)."""
