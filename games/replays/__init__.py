"""Replays of any game, their pages, downloads and imports."""
