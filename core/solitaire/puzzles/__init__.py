"""The six puzzles of booklet 000 (réussite, quadrille, magic square, squares, triangle, star).

`shapes` builds each board (cells, slots, constraints), `catalogue` holds the
shipped puzzles with their verified solutions, `rules` plays one (the
`PuzzleGame` of the core interface), and `solver` (OR-Tools CP-SAT, never
imported by the rules) gives the hints and the computer player's placements.
"""
