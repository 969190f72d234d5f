"""The puzzles' solver: the four hints on a few positions (a dead end among them), the
computer player, and the uniqueness of the generated triangles. Needs OR-Tools."""

from __future__ import annotations

import pytest

pytest.importorskip("ortools")

from core import variants
from core.ai import make_player
from core.solitaire.puzzles import catalogue, generate, solver
from core.solitaire.puzzles.rules import PuzzleGame
from tests.test_rules_puzzles import TOTALS_3_5_8_9_9_11_16


def new(kind: str, puzzle: str) -> PuzzleGame:
    game = variants.get(kind).new(seed=1, puzzle=puzzle)
    assert isinstance(game, PuzzleGame)
    return game


def values_of(game: PuzzleGame) -> dict[str, int]:
    return dict(game.value)


def test_hint_one_names_what_is_broken() -> None:
    game = new("magic-square", "total-13")
    assert solver.hint(game, 1)["text"] == "Nothing is broken so far"
    game.play("6-6 A1 A2")
    game.play("5-5 B1 B2")
    game.play("6-4 C1 C2")
    answer = solver.hint(game, 1)
    assert answer["text"].startswith("Broken: ") and "more than 13" in answer["text"]


def test_hint_two_on_a_solvable_position_and_a_dead_end() -> None:
    game = new("quadrille", "q1")
    answer = solver.hint(game, 2)
    assert answer["solvable"] is True
    game.play("6-5 B3 C3")
    answer = solver.hint(game, 2)  # a 6 in the square of 2s at B3: broken, said at once
    assert answer["solvable"] is False and answer["text"].startswith("Dead end")


def test_a_dead_end_before_anything_is_broken() -> None:
    # 6-6 across the top of the sixes' square: A2 can only pair with B2, and needs 6-6 too
    game = new("quadrille", "q1")
    game.play("6-6 A1 B1")
    assert not game.broken()
    answer = solver.hint(game, 2)
    assert answer["solvable"] is False and answer["remove"] == ["remove A1"]
    for level in (3, 4):
        assert solver.hint(game, level)["text"].startswith("Dead end")


def test_a_wrong_tile_in_a_unique_triangle_is_a_dead_end() -> None:
    game = new("magic-triangle", "t1")
    tile, c1, c2 = game.puzzle.data["solution"][0].split()
    wrong = next(m for m in (f"{x}-{y} {c1} {c2}" for x in range(7) for y in range(7))
                 if m.split()[0] not in (tile, tile[::-1]) and _fits(game, m))
    game.play(wrong)
    answer = solver.hint(game, 2)
    assert answer["solvable"] is False  # the triangle's numbers are unique
    assert answer["remove"] == [f"remove {min(c1, c2)}"]


def _fits(game: PuzzleGame, move: str) -> bool:
    g = game.copy()
    try:
        g.play(move)
    except Exception:
        return False
    return not g.broken()


def test_hint_three_gives_a_placement_that_keeps_it_solvable() -> None:
    for kind, puzzle in (("quadrille", "q2"), ("magic-star", "star"), ("reussite", "frame")):
        game = new(kind, puzzle)
        answer = solver.hint(game, 3)
        game.play(answer["move"])
        assert not game.broken()
        assert solver.hint(game, 2)["solvable"] is True


def test_hint_three_proves_a_forced_placement_on_a_unique_triangle() -> None:
    game = new("magic-triangle", "t2")
    answer = solver.hint(game, 3, seconds=10)
    assert answer["forced"] is True
    assert answer["move"] in game.puzzle.data["solution"] or str(
        game.parse_move(answer["move"])) in {str(game.parse_move(m))
                                              for m in game.puzzle.data["solution"]}


def test_hint_four_reveals_a_number() -> None:
    game = new("quadrille", "q3")
    answer = solver.hint(game, 4)
    assert answer["cells"] and answer["value"] in range(7)
    game = new("magic-squares", "booklet")
    answer = solver.hint(game, 4)
    assert answer["value"] in (3, 7, 8, 9, 10, 16)
    game = new("magic-triangle", "t3")
    answer = solver.hint(game, 4)
    solution = new("magic-triangle", "t3")
    for m in solution.puzzle.data["solution"]:
        solution.play(m)
    assert solution.value[answer["cells"][0]] == answer["value"]


def test_hints_on_booklet_squares_with_other_totals_do_not_say_dead_end() -> None:
    # squares 1 to 4 total 3, 5, 8 and 9: not the booklet's answer (no 5 there), yet the
    # rest can total 9, 11 and 16
    game = new("magic-squares", "booklet")
    for m in TOTALS_3_5_8_9_9_11_16[:16]:
        game.play(m)
    assert not game.broken()
    answer = solver.hint(game, 2, seconds=20)
    assert answer["solvable"] is True, answer["text"]
    answer = solver.hint(game, 3, seconds=20)
    game.play(answer["move"])
    assert not game.broken() and solver.hint(game, 2, seconds=20)["solvable"] is True


def test_hints_without_the_solver_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "cp_model", None)
    game = new("quadrille", "q1")
    assert solver.hint(game, 1)["text"] == "Nothing is broken so far"
    assert "not installed" in solver.hint(game, 2)["text"]


def test_the_computer_player_takes_back_a_wrong_tile_and_solves() -> None:
    game = new("magic-triangle", "t1")
    tile, c1, c2 = game.puzzle.data["solution"][0].split()
    game.play(next(m for m in (f"{x}-{y} {c1} {c2}" for x in range(7) for y in range(7))
                   if m.split()[0] not in (tile, tile[::-1]) and _fits(game, m)))
    bot = make_player("greedy", 1)
    first = bot.choose(game)
    assert str(first) == f"remove {min(c1, c2)}"
    for _ in range(40):
        if game.over:
            break
        move = bot.choose(game)
        assert move in game.legal_moves()
        game.play(move)
    assert game.over and game.result and game.result["winners"] == [0]


@pytest.mark.parametrize("puzzle", catalogue.ids("magic-triangle"))
def test_shipped_triangles_are_unique(puzzle: str) -> None:
    game = new("magic-triangle", puzzle)
    for m in game.puzzle.data["solution"]:
        game.play(m)
    assert solver.other_solution(game.puzzle, values_of(game)) is None


def test_a_generated_triangle_is_unique() -> None:
    made = generate.triangle(seed=1234)
    from core.solitaire.puzzles import shapes
    from core.solitaire.puzzles.rules import Puzzle

    puzzle = Puzzle({**shapes.triangle(**made["args"]), "id": "x", "kind": "magic-triangle",
                     "level": "x", "name": {}, "solution": made["solution"]})
    status, sol = solver.solve(puzzle)
    assert status == "solved" and sol is not None
    values = {c: v for m in sol for c, v in zip(m.cells, m.values, strict=True)}
    assert solver.other_solution(puzzle, values) is None
    assert sorted(values[c] for c in puzzle.constraints[-1]["cells"]) == sorted(generate.EDGE)


def _solvable(game: PuzzleGame) -> bool:
    solver._FOUND.clear()
    status, _ = solver.position_solution(game, 60)
    assert status != "unknown"
    return status == "solved"


def test_a_dead_end_names_the_fewest_tiles_whose_removal_mends_it() -> None:
    # issue 27: on the frame, the 4 of 4-4 on E1 touches the 6 of 6-6 on F1; taking either
    # back leaves a solvable board, so the hint names one tile, never both
    game = new("reussite", "frame")
    game.play("4-4 D1 E1")
    game.play("6-6 F1 G1")
    solver._FOUND.clear()
    answer = solver.hint(game, 2, seconds=30)
    assert answer["solvable"] is False
    assert answer["remove"] in (["remove D1"], ["remove F1"])
    assert answer["text"].startswith("Dead end: remove the tile on ")
    for removal in ("remove D1", "remove F1"):
        mended = game.copy()
        mended.play(removal)
        assert _solvable(mended)


def test_two_clashes_need_two_removals_one_from_each() -> None:
    # 4-4 D1 E1 against 6-6 F1 G1 at the top, 3-3 C15 D15 against 5-5 E15 F15 at the bottom:
    # the shipped solution has none of the four, yet two removals mend the board
    game = new("reussite", "frame")
    for move in ("4-4 D1 E1", "6-6 F1 G1", "3-3 C15 D15", "5-5 E15 F15"):
        game.play(move)
    solver._FOUND.clear()
    answer = solver.hint(game, 2, seconds=60)
    remove = answer["remove"]
    assert len(remove) == 2
    assert remove[0] in ("remove D1", "remove F1") and remove[1] in ("remove C15", "remove E15")
    mended = game.copy()
    for removal in remove:
        mended.play(removal)
    assert _solvable(mended)
