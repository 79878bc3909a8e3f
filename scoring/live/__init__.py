"""Live play: partitions played move by move with the server's clocks, and every change of a
tournament's partitions numbered and pushed to live screens (README, "Live tables", "Push")."""
