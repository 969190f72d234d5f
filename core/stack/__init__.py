"""The stacking games of the magnetic dominoes (tower, quinconce): 3D placements and falls."""
