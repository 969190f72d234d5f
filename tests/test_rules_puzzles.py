"""Rules of the six puzzles of 000: every shipped solution, other completions, placements,
removals, what is broken, options, the booklet's own answers, and the results."""

from __future__ import annotations

from typing import Any

import pytest

from core import IllegalMove, OptionError, replay, variants
from core.solitaire.puzzles import catalogue
from core.solitaire.puzzles.cells import name
from core.solitaire.puzzles.rules import PuzzleGame
from core.solitaire.puzzles.shapes import STAR_RAYS

SHIPPED = [(e["kind"], e["id"]) for e in catalogue.entries()]


def new(kind: str, puzzle: str, seed: int = 1) -> PuzzleGame:
    game = variants.get(kind).new(seed=seed, puzzle=puzzle)
    assert isinstance(game, PuzzleGame)
    return game


def play_all(game: PuzzleGame, moves: list[str]) -> None:
    for m in moves:
        assert not game.over, f"solved before {m}"
        game.play(m)


@pytest.mark.parametrize(("kind", "puzzle"), SHIPPED, ids=[p for _, p in SHIPPED])
def test_every_shipped_solution_is_a_win(kind: str, puzzle: str) -> None:
    game = new(kind, puzzle)
    solution = game.puzzle.data["solution"]
    play_all(game, solution[:-1])
    assert not game.over and not game.broken()
    game.play(solution[-1])
    assert game.over and game.solved()
    result = game.result
    assert result is not None
    assert result["winners"] == [0] and result["reason"] == "solved"
    assert result["placements"] == len(solution) and result["hints"] == 0


def test_each_kind_has_graded_puzzles() -> None:
    for kind in catalogue.KINDS:
        levels = {p.level for p in catalogue.puzzles(kind)}
        assert len(catalogue.puzzles(kind)) >= 2 and len(levels) >= 2, kind
    assert {"q1", "q2", "q3"} <= set(catalogue.ids("quadrille"))
    assert {f"total-{t}" for t in range(13, 24)} == set(catalogue.ids("magic-square"))
    assert len(catalogue.ids("magic-triangle")) >= 5
    rings = {p.id: p for p in catalogue.puzzles("reussite")}
    sums = [any(c["kind"] == "sum" for c in p.constraints) for p in rings.values()]
    assert True in sums and False in sums and {15, 10} <= {p.data["width"]
                                                           for p in rings.values()}


def _relabel(moves: list[str], swap: dict[int, int]) -> list[str]:
    out = []
    for m in moves:
        tile, c1, c2 = m.split()
        a, b = (int(x) for x in tile.split("-"))
        out.append(f"{swap.get(a, a)}-{swap.get(b, b)} {c1} {c2}")
    return out


def test_another_quadrille_completion_wins() -> None:
    game = new("quadrille", "q1")
    other = _relabel(game.puzzle.data["solution"], {0: 1, 1: 0})  # the sixes stay top left
    assert other != game.puzzle.data["solution"]
    play_all(game, other)
    assert game.over and game.result and game.result["winners"] == [0]


def test_a_mirrored_magic_square_wins() -> None:
    game = new("magic-square", "total-17")
    mirrored = []
    for m in game.puzzle.data["solution"]:
        tile, c1, c2 = m.split()
        flip = [name(5 - (ord(c[0]) - 65), int(c[1:]) - 1) for c in (c1, c2)]
        mirrored.append(f"{tile} {flip[0]} {flip[1]}")
    assert set(mirrored) != set(game.puzzle.data["solution"])
    play_all(game, mirrored)
    assert game.over and game.result and game.result["winners"] == [0]


def test_dudeneys_magic_square_of_13() -> None:
    grid = ["3 5 1 0 4 0", "4 0 6 2 0 1", "2 1 3 2 3 2", "1 1 3 4 2 2", "0 5 0 1 1 6",
            "3 1 0 4 3 2"]
    rows = [[int(x) for x in r.split()] for r in grid]
    moves = [f"{rows[r][c]}-{rows[r + 1][c]} {name(c, r)} {name(c, r + 1)}"
             for r in (0, 2, 4) for c in range(6)]
    game = new("magic-square", "total-13")
    play_all(game, moves)
    assert game.over and game.result and game.result["winners"] == [0]


def test_dudeneys_frame_with_sides_of_44() -> None:
    left = ["0-3 A1 A2", "3-3 A3 A4", "3-5 A5 A6", "5-5 A7 A8", "5-1 A9 A10", "1-1 A11 A12",
            "1-4 A13 A14"]
    bottom = ["4-3 A15 B15", "3-2 C15 D15", "2-2 E15 F15", "2-1 G15 H15", "1-6 I15 J15",
              "6-2 K15 L15", "2-4 M15 N15"]
    right = ["0-0 O2 O3", "0-1 O4 O5", "1-3 O6 O7", "3-6 O8 O9", "6-6 O10 O11", "6-4 O12 O13",
             "4-4 O14 O15"]
    top = ["0-4 B1 C1", "4-5 D1 E1", "5-0 F1 G1", "0-6 H1 I1", "6-5 J1 K1", "5-2 L1 M1",
           "2-0 N1 O1"]
    game = new("reussite", "frame-44")
    fixed = {str(m) for m in game.puzzle.fixed}
    play_all(game, [m for m in left + bottom + right + top
                    if str(game.parse_move(m)) not in fixed])
    assert game.over and game.result and game.result["winners"] == [0]


def test_the_booklets_star() -> None:
    rays = ["3-0 0-1 1-5 5-6", "6-6 6-1 1-1", "5-0 0-4 4-3 3-2", "1-3 3-5 5-4",
            "0-2 2-4 4-4 4-1", "2-2 2-5 5-5", "0-0 0-6 6-3 3-3", "4-6 6-2 2-1"]
    moves = []
    for (dx, dy), ray in zip(STAR_RAYS, rays, strict=True):
        for i, tile in enumerate(ray.split()):
            moves.append(f"{tile} {name(8 + dx * (2 * i + 1), 8 + dy * (2 * i + 1))} "
                         f"{name(8 + dx * (2 * i + 2), 8 + dy * (2 * i + 2))}")
    for puzzle in ("star", "centre"):
        game = new("magic-star", puzzle)
        play_all(game, moves)
        assert game.over and game.result and game.result["winners"] == [0]


def _square(k: int, numbers: str) -> list[str]:
    """The four placements of hollow square `k` (0-6) showing `numbers`: top row, middle row
    (left, right), bottom row, as in PUZZLES.md."""
    col0, row0 = (k * 4, 0) if k < 4 else ((k - 4) * 4 + 2, 4)

    def cell(c: int, r: int) -> str:
        return name(col0 + c, row0 + r)

    tl, tm, tr, ml, mr, bl, bm, br = (int(x) for x in numbers.split())
    return [f"{tl}-{tm} {cell(0, 0)} {cell(1, 0)}", f"{tr}-{mr} {cell(2, 0)} {cell(2, 1)}",
            f"{br}-{bm} {cell(2, 2)} {cell(1, 2)}", f"{ml}-{bl} {cell(0, 1)} {cell(0, 2)}"]


def test_the_booklets_hollow_squares() -> None:
    squares = {3: "0 1 2 0 1 3 0 0", 7: "0 5 2 2 3 5 0 2", 8: "3 4 1 4 1 1 1 6",
               9: "5 1 3 4 3 0 6 3", 10: "4 4 2 4 2 2 2 6", 16: "4 6 6 6 5 6 5 5"}
    second_nine = "3 5 1 6 3 0 4 5"
    order = [3, 7, 8, 9, 9, 10, 16]
    moves = []
    for k, total in enumerate(order):
        moves += _square(k, second_nine if k == 4 else squares[total])
    for puzzle in ("totals", "booklet"):
        game = new("magic-squares", puzzle)
        play_all(game, moves)
        assert game.over and game.result and game.result["winners"] == [0], game.broken()


# booklet arrangements found by CP-SAT (the squares' totals printed in order)
TOTALS_3_5_8_9_9_11_16 = [
    "3-0 A1 B1", "1-0 C2 C1", "4-1 F1 E1", "2-0 G2 G1", "4-3 I1 J1", "1-1 K1 K2", "4-4 M1 N1",
    "5-1 O2 O1", "0-0 A2 A3", "4-0 E2 E3", "2-2 I2 I3", "5-0 M3 M2", "2-1 C3 B3", "3-2 G3 F3",
    "6-0 K3 J3", "3-1 O3 N3", "3-3 C5 D5", "5-3 E6 E5", "5-2 H5 G5", "5-4 I6 I5", "5-5 K5 L5",
    "6-6 M5 M6", "4-2 C6 C7", "6-3 G6 G7", "6-5 K7 K6", "6-1 D7 E7", "6-2 H7 I7", "6-4 L7 M7"]
TOTALS_3_5_7_8_10_11_16 = [
    "3-0 A1 B1", "2-0 C2 C1", "1-0 E1 F1", "4-1 G1 G2", "5-1 J1 I1", "1-1 K1 K2", "6-2 N1 M1",
    "6-0 O2 O1", "0-0 A2 A3", "3-1 E2 E3", "4-2 I2 I3", "3-3 M2 M3", "2-1 B3 C3", "4-0 F3 G3",
    "5-0 K3 J3", "3-2 N3 O3", "2-2 C5 D5", "6-3 E5 E6", "4-3 H5 G5", "5-4 I6 I5", "5-5 K5 L5",
    "6-6 M5 M6", "5-3 C6 C7", "4-4 G6 G7", "6-5 K7 K6", "6-1 D7 E7", "5-2 H7 I7", "6-4 L7 M7"]


def test_the_booklets_squares_take_any_totals_that_differ_but_two_nines() -> None:
    # "Chaque carré a un total différent : 3 pour l'un, 16 pour un autre, etc... à
    # l'exception de 2 carrés qui totalisent 9": the answer's totals are not the only ones
    game = new("magic-squares", "booklet")
    play_all(game, TOTALS_3_5_8_9_9_11_16[:-1])
    assert not game.broken()
    game.play(TOTALS_3_5_8_9_9_11_16[-1])
    assert game.over and game.result and game.result["winners"] == [0], game.broken()


def test_the_booklets_squares_break_on_a_shared_total_or_too_few_nines() -> None:
    game = new("magic-squares", "booklet")
    play_all(game, _square(0, "0 4 6 4 1 6 1 3") + _square(1, "0 5 5 5 1 5 1 4"))  # 10, 10
    assert [b["text"] for b in game.view(None)["broken"]] == [
        "2 squares total 10: the totals all differ, except two squares at 9"]
    game = new("magic-squares", "booklet")
    last = {name(c, r) for c in range(10, 13) for r in range(4, 7)}  # square 7: K5 to M7
    play_all(game, [m for m in TOTALS_3_5_7_8_10_11_16 if not set(m.split()[1:]) & last])
    assert [b["text"] for b in game.view(None)["broken"]] == [
        "two squares must total 9: too few squares are left for it"]


def test_placing_breaking_and_removing() -> None:
    game = new("magic-square", "total-13")
    game.play("6-6 A1 A2")
    game.play("5-5 B1 B2")
    assert game.view(None)["broken"] == []  # 6+5 in row 1: 2 more can come
    game.play("6-4 C1 C2")
    texts = [b["text"] for b in game.view(None)["broken"]]
    assert "row 1 totals 17, more than 13" in texts
    assert "C1" in game.view(None)["layout"]["broken_cells"]
    game.play("remove C2")
    assert "row 1 totals 17, more than 13" not in [b["text"] for b in game.view(None)["broken"]]
    assert game.view(0)["board"] == ["6-6 A1 A2", "5-5 B1 B2"]
    game.play("remove 6-6")
    assert game.view(0)["board"] == ["5-5 B1 B2"]
    assert game.turn == 5


@pytest.mark.parametrize(("move", "message"), [
    ("6-4 A1 C1", "A1 and C1 are not next to each other"),
    ("6-4 A3 A3", "a tile covers two cells, not A3 twice"),
    ("6-4 A3 B3", "A3 and B3 cannot hold one tile: A3 pairs only with A4"),  # tiles stand
    ("6-4 A1 A2", "A1 is taken: remove its tile first"),
    ("6-6 C1 C2", "6-6 is already on the board"),
    ("6-4 Z1 Z2", "Z1 is not a cell of this puzzle"),
    ("remove D5", "no tile lies on D5"),
    ("remove 3-2", "3-2 is not on the board"),
    ("7-4 C1 C2", "7-4 is not a tile of the double-6 set"),
    ("hint 7", "hints go from 1 to 4 (got 7)"),
    ("blah", "not a move: 'blah'"),
    ("x" * 100, "move text too long"),
])
def test_illegal_moves_say_why_and_change_nothing(move: str, message: str) -> None:
    game = new("magic-square", "total-13")
    game.play("6-6 A1 A2")
    before = game.record(), game.view(0)
    with pytest.raises(IllegalMove, match=message.replace("(", r"\(").replace(")", r"\)")):
        game.play(move)
    assert (game.record(), game.view(0)) == before


def test_givens_and_fixed_tiles() -> None:
    game = new("quadrille", "q1")
    with pytest.raises(IllegalMove, match="A1 shows 6"):
        game.play("5-4 A1 B1")
    frame = new("reussite", "frame")
    with pytest.raises(IllegalMove, match="part of the puzzle"):
        frame.play("remove A1")
    assert frame.view(0)["board"] == ["3-0 A2 A1", "4-0 C1 B1"]


def test_every_reussite_shows_its_top_left_tiles_from_the_start() -> None:
    # "Vous avez le droit de retourner la fiche pour voir les deux dominos du coin supérieur
    # gauche": each frame starts with the tile on A1 and the one next to it in row 1
    for puzzle in catalogue.ids("reussite"):
        game = new("reussite", puzzle)
        layout = game.view(None)["layout"]
        cells = {c for t in layout["tiles"] if t["fixed"] for c in t["cells"]}
        assert len(layout["tiles"]) == 2 and {"A1", "B1"} <= cells, puzzle
        with pytest.raises(IllegalMove, match="part of the puzzle"):
            game.play("remove B1")


def test_all_tiles_placed_then_no_more() -> None:
    game = new("magic-square", "total-13")
    play_all(game, game.puzzle.data["solution"][:17])
    first = game.puzzle.data["solution"][17]
    # an 18th tile that is not the solution's: the square is full, nothing is solved
    spare = next(t for t in game.to_place() if f"{t}" != first.split()[0])
    cells = first.split()[1:]
    game.play(f"{spare} {cells[0]} {cells[1]}")
    assert game.complete() and not game.over and game.broken()
    assert game.to_place() == []
    with pytest.raises(IllegalMove, match="is taken"):  # every cell is covered
        game.play(f"{first.split()[0]} {cells[0]} {cells[1]}")


def test_notation_round_trips() -> None:
    game = new("quadrille", "q1")
    assert str(game.parse_move("4-6 C1 B1")) == "6-4 B1 C1"
    assert str(game.parse_move("pose 6:4 b1-c1")) == "6-4 B1 C1"
    assert str(game.parse_move("indice 3")) == "hint 3"
    assert str(game.parse_move("abandon")) == "give up"
    for m in game.legal_moves():
        assert str(game.parse_move(str(m))) == str(m)


def test_hints_and_giving_up_are_in_the_result_and_the_record() -> None:
    game = new("magic-star", "star", seed=4)
    game.play("hint 1")
    game.play("hint 3")
    game.play("give up")
    result = game.result
    assert result is not None
    assert result["winners"] == [] and result["reason"] == "gave up"
    assert result["hints"] == 2 and result["hint_levels"] == [1, 3]
    again = replay(game.record())
    assert again.result == result


def test_a_hint_changes_neither_the_position_nor_the_turn() -> None:
    # issue 27: a hint made every earlier button stale; it is kept in the record (the result
    # counts it) but the turn a button carries counts the moves that change the board
    game = new("quadrille", "q1")
    game.play("6-6 B1 B2")
    turn, legal = game.turn, game.view(0)["legal"]
    game.play("hint 2")
    game.play("hint 1")
    assert game.turn == turn and game.view(0)["legal"] == legal
    assert game.record()["moves"][-2:] == ["hint 2", "hint 1"]
    game.play("remove B1")
    assert game.turn == turn + 1
    again = replay(game.record())
    assert again.turn == game.turn and again.hints == [2, 1]


def test_options_pick_a_puzzle() -> None:
    v = variants.get("quadrille")
    assert new("quadrille", "q2").puzzle.id == "q2"
    assert {v.new(seed=s, level="hard").puzzle.id for s in range(5)} == {"q2"}  # type: ignore
    picked = {v.new(seed=s).puzzle.id for s in range(30)}  # type: ignore[attr-defined]
    assert picked == {"q1", "q2", "q3"}
    assert v.new(seed=3).puzzle.id == v.new(seed=3).puzzle.id  # type: ignore[attr-defined]
    with pytest.raises(OptionError, match="must be any, q1"):
        v.new(puzzle="q9")
    with pytest.raises(OptionError, match="takes no deal"):
        v.new(deal={"hands": [[]]})
    with pytest.raises(OptionError):
        v.new(players=2)


def test_views_have_the_interface_keys_and_no_hand_in_public() -> None:
    game = new("magic-triangle", "t1")
    public, mine = game.view(None), game.view(0)
    keys = {"seat", "to_move", "hand_sizes", "board", "ends", "stock", "scores", "round"}
    assert keys <= set(public) and keys | {"hand", "legal"} <= set(mine)
    assert "hand" not in public and "legal" not in public
    assert public["layout"]["kind"] == "puzzle" and len(mine["hand"]) == 28
    lines: list[dict[str, Any]] = public["layout"]["lines"]
    assert len(lines) == 15 and all(line["current"] == 0 for line in lines)


def test_placements_of_a_tile_and_of_a_cell_for_buttons() -> None:
    game = new("magic-square", "total-13")
    of_tile = game.placements("6-4")
    assert len(of_tile) == 36  # 18 upright slots, either way up
    at_cell = game.placements("6-4", "C3")
    assert [str(m) for m in at_cell] == ["6-4 C3 C4", "6-4 C4 C3"]
    game.play("6-4 C3 C4")
    assert game.placements("6-4") == [] and game.placements(cell="C4") == []
