"""Solitaire games: starting, moves, undo and hints, their pages, and matches of deals."""
