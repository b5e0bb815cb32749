"""What every move shares: the move path, the snapshots, the refusals, the players."""
