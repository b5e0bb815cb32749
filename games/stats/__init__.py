"""Reads for boards, profiles and lists: leaderboards, streaks, ranks, a person's games."""
