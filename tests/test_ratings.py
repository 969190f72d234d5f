"""Ratings: openskill over teams, computer seats in the match but never rated, the ordinal."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.service.ratings import DEFAULT, ordinal, rate_game


def test_the_winner_goes_up_and_the_loser_down() -> None:
    new = rate_game([("a", 0), ("b", 1)], [1, 2], {})
    assert new["a"][0] > DEFAULT[0] > new["b"][0]
    assert new["a"][1] < DEFAULT[1] and new["b"][1] < DEFAULT[1]  # both are better known now
    assert ordinal(*new["a"]) > ordinal(*DEFAULT) > ordinal(*new["b"])


def test_known_ratings_are_the_starting_point() -> None:
    strong, weak = (35.0, 3.0), (20.0, 3.0)
    expected = rate_game([("a", 0), ("b", 1)], [1, 2], {"a": strong, "b": weak})
    upset = rate_game([("a", 0), ("b", 1)], [2, 1], {"a": strong, "b": weak})
    # the favourite gains little by winning and loses much by losing
    assert 0 < expected["a"][0] - strong[0] < strong[0] - upset["a"][0]
    assert upset["b"][0] - weak[0] > weak[0] - expected["b"][0] > 0


def test_many_players_are_ordered_by_rank_and_ties_share() -> None:
    seats = [("a", 0), ("b", 1), ("c", 2), ("d", 3)]
    new = rate_game(seats, [3, 1, 2, 2], {})
    assert new["b"][0] > new["c"][0] == new["d"][0] > new["a"][0]


def test_a_team_of_two_humans_is_one_team() -> None:
    seats = [("a", 0), ("b", 1), ("c", 0), ("d", 1)]
    new = rate_game(seats, [1, 2, 1, 2], {})
    assert new["a"] == new["c"] and new["b"] == new["d"]
    assert new["a"][0] > DEFAULT[0] > new["b"][0]
    # two against two is not four players each on their own with the same ranks
    alone = rate_game([("a", 0), ("b", 1), ("c", 2), ("d", 3)], [1, 2, 1, 2], {})
    assert new["a"][0] != pytest.approx(alone["a"][0])


def test_a_team_ranks_as_its_best_seat() -> None:
    seats = [("a", 0), ("b", 1), ("c", 0), ("d", 1)]
    assert rate_game(seats, [1, 2, 3, 2], {}) == rate_game(seats, [1, 2, 1, 2], {})


def test_computer_seats_play_but_earn_nothing() -> None:
    new = rate_game([("a", 0), (None, 1), (None, 2)], [2, 1, 3], {})
    assert set(new) == {"a"}
    # a computer plays as a default-rated newcomer would
    as_humans = rate_game([("a", 0), ("x", 1), ("y", 2)], [2, 1, 3], {})
    assert new["a"] == pytest.approx(as_humans["a"])
    # and a human partnered with a computer is rated as one team with it
    partnered = rate_game([("a", 0), ("b", 1), (None, 0), (None, 1)], [1, 2, 1, 2], {})
    assert set(partnered) == {"a", "b"} and partnered["a"][0] > partnered["b"][0]


def test_losing_to_a_strong_player_costs_less_than_to_a_computer() -> None:
    # the same defeat against a strong human costs less than against a computer (a newcomer)
    by_strong = rate_game([("a", 0), ("s", 1)], [2, 1], {"s": (40.0, 2.0)})
    by_computer = rate_game([("a", 0), (None, 1)], [2, 1], {})
    assert by_strong["a"][0] > by_computer["a"][0]


def test_a_game_without_two_teams_changes_nothing() -> None:
    assert rate_game([("a", 0)], [1], {"a": (30.0, 4.0)}) == {"a": (30.0, 4.0)}
    assert rate_game([("a", 0), ("b", 0)], [1, 1], {}) == {"a": DEFAULT, "b": DEFAULT}


def test_mismatched_ranks_are_refused() -> None:
    with pytest.raises(ValueError, match="2 seats but 3 ranks"):
        rate_game([("a", 0), ("b", 1)], [1, 2, 3], {})


@pytest.mark.parametrize("mu, sigma", [(25.0, 25 / 3), (31.5, 2.25), (12.0, 6.0)])
def test_ordinal_is_openskills(mu: float, sigma: float) -> None:
    assert ordinal(mu, sigma) == pytest.approx(PlackettLuce().rating(mu, sigma).ordinal())
