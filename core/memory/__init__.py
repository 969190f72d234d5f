"""The memory game (000, "MEMORY"): 28 tiles face down in a named grid, two turned up a turn."""
