"""The grid family: the "20" game (004), lines of tiles making 20 closed by markers."""
