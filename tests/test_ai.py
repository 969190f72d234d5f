"""Computer players: legal everywhere, seeded, and the greedy one plays heavy."""

from __future__ import annotations

import pytest

from core import variants
from core.ai import GreedyPlayer, RandomPlayer, make_player


def play_out(slug: str, players: int, kinds: list[str], seed: int) -> list[str]:
    game = variants.get(slug).new(players=players, seed=seed)
    bots = [make_player(kinds[s % len(kinds)], seed * 10 + s) for s in range(players)]
    while not game.over:
        seat = game.to_move
        assert seat is not None
        move = bots[seat].choose(game)
        assert move in game.legal_moves()
        game.play(move)
    return game.record()["moves"]


@pytest.mark.parametrize("slug", variants.names())
def test_computer_players_finish_every_variant_and_replay_the_same(slug: str) -> None:
    v = variants.get(slug)
    for players in range(v.min_players, v.max_players + 1):
        first = play_out(slug, players, ["greedy", "random"], seed=players)
        again = play_out(slug, players, ["greedy", "random"], seed=players)
        assert first == again


def test_greedy_lays_its_heaviest_legal_tile() -> None:
    game = variants.get("classic").new(
        players=2, seed=1, draw="block",
        deal={"hands": [["6-6", "0-0"], ["6-1", "6-5", "5-5", "6-0"]]})
    game.play("6-6")
    assert str(GreedyPlayer(1).choose(game)) == "6-5 left"  # 11 pips; 5-5 does not fit


def test_greedy_keeps_variety_between_equal_tiles() -> None:
    # after 6-6 and 6-4, the ends are 4 and 6; 5-4 and 6-3 both weigh 9.
    # Laying 6-3 leaves 5-4 5-5 5-0 (values 5, 4, 0); laying 5-4 leaves
    # 6-3 5-5 5-0 (values 6, 3, 5, 0): greedy keeps more values, so 5-4.
    game = variants.get("classic").new(
        players=2, seed=1, draw="block",
        deal={"hands": [["6-6", "1-1"], ["6-3", "5-4", "5-5", "5-0", "6-4"]]})
    game.play("6-6")
    game.play("6-4 left")
    assert game.to_move == 1  # seat 0 cannot play 1-1
    assert sorted(str(m) for m in game.legal_moves()) == ["5-4 left", "6-3 right"]
    for seed in range(5):
        assert str(GreedyPlayer(seed).choose(game)) == "5-4 left"


def test_greedy_beats_random_at_the_block_game() -> None:
    wins = 0
    games = 300
    for seed in range(games):
        game = variants.get("classic").new(players=2, seed=seed, draw="block")
        bots = [GreedyPlayer(seed), RandomPlayer(seed)]
        while not game.over:
            seat = game.to_move
            assert seat is not None
            game.play(bots[seat].choose(game))
        assert game.result is not None
        wins += 0 in game.result["winners"]
    assert wins / games > 0.55


def test_unknown_player_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="easy, normal, hard, expert, random, greedy"):
        make_player("clever")


def test_the_search_levels_exist_only_where_a_searcher_plays() -> None:
    from core.ai import LEVELS, levels_for

    for slug in ("classic", "partnership", "all-fives", "forty-two", "texas-42", "memory"):
        assert levels_for(variants.get(slug)) == LEVELS, slug
    for slug in ("tower", "quinconce", "vingt", "patience"):
        assert levels_for(variants.get(slug)) == ("easy", "normal"), slug
