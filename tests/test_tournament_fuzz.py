"""A short property run of the tournaments' fuzz (issue 37; tests/tourney_fuzz_driver.py):
random operations from three servers, forged numbers, ticks of a driven clock and restarts
on one SQLite file; nothing escapes, nothing acts across servers, every tournament ends,
and the results recorded are the stored games'.  The long run: bench/tournament_fuzz.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.service_helpers import run
from tests.tourney_fuzz_driver import Fuzz

STEPS = 1500


@pytest.mark.parametrize("seed", [1, 2])
def test_a_fuzz_of_tournaments_finds_nothing(tmp_path: Path, seed: int) -> None:
    fuzz = Fuzz(tmp_path / "fuzz.sqlite", seed)
    figures = run(fuzz.run(steps=STEPS))
    assert figures.failures == []
    assert sum(figures.tournaments.values()) >= 5  # the run did open tournaments
    assert figures.tournaments["finished"] >= 1 and figures.games_checked >= 1
    assert figures.restarts >= 1 or figures.total() > STEPS
