"""The solitaires: the domino patience and the puzzles ("réussites") of 000, with their solvers."""
