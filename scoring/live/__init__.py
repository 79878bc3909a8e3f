"""Live tables: partitions played move by move with the server's clocks (README, "Live tables")."""
