"""Live play: the changes of a tournament's partitions, numbered and pushed to live screens."""
