"""The memory game (000, "MEMORY") on hand-built grids: pairs kept or turned back, another
turn after a pair, the end when nothing can pair, the views that do not help memory."""

from __future__ import annotations

import json
from typing import Any

import pytest

from core import IllegalMove, OptionError, replay, variants
from core.ai import make_player
from core.memory.grid import CELLS

MEMORY = variants.get("memory")


def grid(**cells: str) -> dict[str, Any]:
    """A deal with the given cells (``A1="6-4"``) and every other cell empty."""
    out: list[str | None] = [None] * CELLS
    for name, tile in cells.items():
        out[(ord(name[0]) - ord("A")) * 7 + int(name[1:]) - 1] = tile
    return {"grid": out}


def full_grid() -> dict[str, Any]:
    tiles = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]
    return {"grid": tiles}


def cell(view: dict[str, Any], name: str) -> str:
    return view["cells"][(ord(name[0]) - ord("A")) * 7 + int(name[1:]) - 1]


def test_a_pair_sharing_a_value_is_kept_and_gives_another_turn() -> None:
    g = MEMORY.new(players=2, seed=1, deal=grid(A1="6-4", A2="4-1", B1="3-2", B2="2-0"))
    g.play("A1")
    assert g.to_move == 0 and g.view(None)["board"] == ["6-4"]
    assert cell(g.view(1), "A1") == "6-4"  # face up while the turn goes on
    g.play("a2")
    v = g.view(None)
    assert v["kept"] == [["6-4", "4-1"], []] and v["scores"] == [15, 0]
    assert cell(v, "A1") == cell(v, "A2") == "empty"
    assert v["pair"] is True and v["turned"] == [{"cell": "A1", "tile": "6-4"},
                                                 {"cell": "A2", "tile": "4-1"}]
    assert g.to_move == 0  # another turn


def test_no_hand_so_hand_sizes_are_zeros_and_the_tiles_kept_are_under_kept() -> None:
    # the interface: hand_sizes counts each seat's hand; memory has none
    g = MEMORY.new(players=3, seed=1, deal=grid(A1="6-4", A2="4-1", B1="3-2", B2="2-0"))
    g.play("A1")
    g.play("A2")
    for seat in (None, 0, 1, 2):
        v = g.view(seat)
        assert v["hand_sizes"] == [0, 0, 0] and v["hand"] == []
        assert [len(k) for k in v["kept"]] == [2, 0, 0]


def test_without_again_a_pair_passes_the_turn() -> None:
    g = MEMORY.new(players=3, seed=1, again=False,
                   deal=grid(A1="6-4", A2="4-1", B1="3-2", B2="2-0"))
    g.play("A1")
    g.play("A2")
    assert g.to_move == 1 and g.view(None)["scores"] == [15, 0, 0]


def test_tiles_that_share_no_value_are_turned_back_face_down_in_every_view() -> None:
    g = MEMORY.new(players=3, seed=1, deal=full_grid())  # A1 0-0, A2 1-0, A3 1-1, A4 2-0...
    g.play("A3")
    g.play("A4")  # 1-1 and 2-0: no pair
    assert g.to_move == 1
    views = [g.view(s) for s in (None, 0, 1, 2)]
    for v in views:
        assert cell(v, "A3") == cell(v, "A4") == "down" and v["board"] == []
        assert v["pair"] is False  # the turn just finished, as everyone saw it
    g.play("B1")  # the next move: the last turn's tiles are named nowhere any more
    for v in (g.view(s) for s in (None, 0, 1, 2)):
        text = json.dumps(v)
        assert "1-1" not in text and "2-0" not in text
        assert v["turned"] == [{"cell": "B1", "tile": "3-1"}]
    # ... only the public record says what was seen
    assert [(r["cell"], r["tile"]) for r in g.reveals()] == [("A3", "1-1"), ("A4", "2-0"),
                                                             ("B1", "3-1")]


def test_views_of_every_seat_are_the_public_view_but_for_the_seat() -> None:
    """Nothing is hidden, but the legal moves are in the view of the seat to move only."""
    g = MEMORY.new(players=4, seed=3)
    bots = [make_player("greedy", s) for s in range(4)]
    while not g.over:
        public = g.view(None)
        assert "legal" not in public
        for s in range(4):
            v = g.view(s)
            assert v["seat"] == s and v["hand"] == []
            legal = {"legal": [m.text for m in g.legal_moves()]} if s == g.to_move else {}
            assert v == {**public, "seat": s, **legal}
        g.play(bots[g.to_move].choose(g))


def test_the_game_ends_when_no_two_tiles_left_can_pair() -> None:
    g = MEMORY.new(players=2, seed=1, deal=grid(A1="6-5", A2="6-4", C3="3-2", D7="1-0"))
    g.play("A1")
    g.play("A2")
    assert g.over and g.to_move is None and g.legal_moves() == []
    assert g.result is not None
    assert g.result["reason"] == "no pair" and g.result["winners"] == [0]
    assert g.result["scores"] == [21, 0] and g.result["ranking"] == [0, 1]
    v = g.view(None)
    assert v["left_over"] == ["3-2", "1-0"] and cell(v, "C3") == "3-2"  # turned up at the end
    with pytest.raises(IllegalMove, match="over"):
        g.play("C3")


def test_a_cleared_grid_ends_the_game_and_a_tie_has_every_tied_winner() -> None:
    g = MEMORY.new(players=2, seed=1, again=False,
                   deal=grid(A1="6-5", A2="6-4", B1="6-6", B2="6-3"))
    for cellname in ("A1", "A2", "B1", "B2"):
        g.play(cellname)
    assert g.result is not None and g.result["reason"] == "cleared"
    assert g.result["scores"] == [21, 21] and g.result["winners"] == [0, 1]


def test_a_deal_with_nothing_to_pair_is_over_at_once() -> None:
    g = MEMORY.new(players=2, seed=1, deal=grid(A1="6-5", A2="4-3"))
    assert g.over and g.legal_moves() == [] and g.result["winners"] == [0, 1]


@pytest.mark.parametrize("text", ["A8", "E1", "Z9", "", "6-4", "A1 B2", None, 42, "x" * 500])
def test_bad_cells_are_refused_and_change_nothing(text: Any) -> None:
    g = MEMORY.new(players=2, seed=5)
    before = json.dumps(g.view(None))
    with pytest.raises(IllegalMove):
        g.play(text)
    assert json.dumps(g.view(None)) == before


def test_an_empty_cell_or_the_cell_already_up_is_refused() -> None:
    g = MEMORY.new(players=2, seed=1, deal=grid(A1="6-4", A2="4-1", B1="3-2", B2="2-0"))
    g.play("B1")
    with pytest.raises(IllegalMove, match="already turned up"):
        g.play("B1")
    with pytest.raises(IllegalMove, match="empty"):
        g.play("C1")
    assert g.turn == 1 and g.view(None)["board"] == ["3-2"]


@pytest.mark.parametrize("deal", [
    {"grid": ["6-4"] * 2}, {"grid": ["6-4", "6-4", *[None] * 26]}, {"grid": ["7-1", *[None] * 27]},
    {"hands": [["6-4"]]}, "grid",
])
def test_bad_deals_are_refused(deal: Any) -> None:
    with pytest.raises(OptionError):
        MEMORY.new(players=2, seed=1, deal=deal)


@pytest.mark.parametrize("players", [1, 7])
def test_two_to_six_players(players: int) -> None:
    with pytest.raises(OptionError, match="2 to 6"):
        MEMORY.new(players=players)


def test_a_record_replays_the_same_game() -> None:
    g = MEMORY.new(players=3, seed=11, deal=full_grid())
    bots = [make_player("greedy", s) for s in range(3)]
    while not g.over:
        g.play(bots[g.to_move].choose(g))
    again = replay(json.loads(json.dumps(g.record())))
    assert again.view(None) == g.view(None) and again.result == g.result


def test_good_memory_beats_a_memory_that_forgets_most() -> None:
    wins = 0
    for seed in range(60):
        g = MEMORY.new(players=2, seed=seed)
        bots = [make_player("expert", seed), make_player("easy", seed)]
        while not g.over:
            g.play(bots[g.to_move].choose(g))
        wins += g.result["winners"] == [0]
    assert wins > 42


def _recalled(level: str, seeds: range) -> tuple[int, int]:
    """Over games played by two normal players to their 30th move, what a `level` player
    recalls then (summed over the seeds) and what it could (seen and still face down)."""
    got = could = 0
    for seed in seeds:
        g = MEMORY.new(players=2, seed=seed)
        bots = [make_player("normal", seed), make_player("normal", seed + 1)]
        for _ in range(30):
            g.play(bots[g.to_move].choose(g))
        assert not g.over
        down = {m.text for m in g.legal_moves()}
        player = make_player(level, seed)
        player.choose(g)  # the seat player makes its memory player
        got += len(player._by_family["memory"].remembered(g, down))
        could += len({r["cell"] for r in g.reveals() if r["cell"] in down})
    return got, could


def test_every_level_forgets_easy_most_and_expert_little() -> None:
    shares = {}
    for level in ("easy", "normal", "hard", "expert"):
        got, could = _recalled(level, range(30))
        shares[level] = got / could
    assert shares["easy"] < 0.5 < shares["normal"] < shares["hard"] < shares["expert"]
    assert shares["expert"] > 0.8 and shares["expert"] < 1, shares


def test_a_tile_forgotten_stays_forgotten_until_it_is_seen_again() -> None:
    g = MEMORY.new(players=2, seed=3)
    bots = [make_player("normal", 3), make_player("normal", 4)]
    easy = make_player("easy", 5)
    easy.choose(g)
    memory = easy._by_family["memory"]
    before: dict[str, Any] = {}
    for _ in range(60):
        if g.over:
            break
        seen_now = {r["cell"] for r in g.reveals()[-2:]}
        down = {m.text for m in g.legal_moves()}
        now = memory.remembered(g, down)
        assert all(c in before or c in seen_now for c in now), (now, before)
        before = now
        g.play(bots[g.to_move].choose(g))
