"""The `domino` command: listing, rules, play, simulate, replay, and its errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from core import variants


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def feed(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> None:
    answers: Iterator[str] = iter(lines)

    def fake_input(prompt: str = "") -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)


def test_variants_lists_every_slug_with_names_and_players(capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    code, out, _ = run(["variants"], capsys)
    assert code == 0
    for slug in variants.names():
        line = next(x for x in out.splitlines() if x.startswith(slug + " "))
        v = variants.get(slug)
        assert v.names["fr"] in line and v.names["en"] in line
    assert "2-5" in next(x for x in out.splitlines() if x.startswith("classic "))
    code, out, _ = run(["variants", "--json"], capsys)
    described = json.loads(out)
    assert [d["slug"] for d in described] == variants.names()
    assert any(o["name"] == "draw" for o in described[0]["options"])


def test_rules_prints_the_page_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "partnership"], capsys)
    assert code == 0
    assert "Français" in out and "strict" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "matadore"], "unknown variant 'matadore'; the variants are: classic"),
        (["simulate", "classic", "--players", "9"], "classic is played by 2 to 5 players"),
        (["simulate", "classic", "-o", "draw=sometimes"], "option 'draw' must be draw, block"),
        (["simulate", "classic", "draw"], "must be written name=value"),
        (["play", "classic", "--players", "2", "--ai", "3"], "--ai must be from 0 to"),
        (["replay", "/nonexistent/record.json"], "cannot read"),
    ],
)
def test_bad_input_gets_one_clear_line_and_exit_code_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(args, capsys)
    assert code == 2
    assert err.count("\n") == 1 and message in err


def test_simulate_reports_win_rates_rounds_and_speed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["simulate", "partnership", "--games", "20", "--seed", "3",
                        "target=60"], capsys)
    assert code == 0
    rates = [float(line.split()[-1].rstrip("%")) for line in out.splitlines()
             if "win rate" in line]
    assert len(rates) == 4 and abs(sum(rates) - 100) < 0.5
    assert rates[0] == rates[2] and rates[1] == rates[3]  # partners win together
    assert "average rounds per game" in out and "games per second" in out


def test_play_against_the_computer_then_replay_the_saved_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, ["nonsense", "99", *["1"] * 40])
    record = tmp_path / "game.json"
    code, out, _ = run(["play", "classic", "--players", "2", "--ai", "1", "--seed", "5",
                        "--save", str(record), "draw=block"], capsys)
    assert code == 0
    assert "Not allowed: not a move: 'nonsense'" in out
    assert "Not allowed: there are" in out
    assert "Winner" in out
    saved = json.loads(record.read_text())
    assert saved["variant"] == "classic" and saved["seed"] == 5
    code, out, _ = run(["replay", str(record)], capsys)
    assert code == 0 and "every move is legal" in out
    saved["moves"][1] = "0-0 left" if saved["moves"][1] != "0-0 left" else "6-6 right"
    record.write_text(json.dumps(saved))
    code, _, err = run(["replay", str(record)], capsys)
    assert code == 2 and "move 2" in err


def test_quitting_a_game_prints_its_record(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    feed(monkeypatch, ["quit"])
    code, out, _ = run(["play", "tete-a-tete", "--ai", "1", "--seed", "2"], capsys)
    assert code == 0
    record = json.loads(out.strip().splitlines()[-1])
    assert record["variant"] == "tete-a-tete"


def test_play_with_images_writes_table_and_hand_pictures_then_render_draws_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from PIL import Image

    import render

    feed(monkeypatch, ["1"] * 40)
    record, images, out_dir = tmp_path / "game.json", tmp_path / "pics", tmp_path / "drawn"
    code, _, _ = run(["play", "classic", "--players", "2", "--ai", "1", "--seed", "3",
                      "--images", str(images), "--save", str(record)], capsys)
    assert code == 0
    tables = sorted(images.glob("turn*-table.png"))
    hands = sorted(images.glob("turn*-hand.png"))
    assert len(tables) >= 2 and hands
    for path in [*tables, *hands]:
        with Image.open(path) as im:
            assert im.format == "PNG" and im.width <= 1280
    saved = json.loads(record.read_text())
    code, out, _ = run(["render", str(record), "--out", str(out_dir)], capsys)
    assert code == 0 and f"Wrote {len(saved['moves']) + 1} pictures" in out
    drawn = sorted(out_dir.glob("*.png"))
    assert len(drawn) == len(saved["moves"]) + 1
    final = variants.get("classic").new(players=2, seed=3)
    for move in saved["moves"]:
        final.play(final.parse_move(move))
    assert drawn[-1].read_bytes() == render.position_png(final.view(None))
    saved["moves"][0] = "9-9"
    record.write_text(json.dumps(saved))
    code, _, err = run(["render", str(record), "--out", str(out_dir)], capsys)
    assert code == 2 and err.startswith("domino: error:")


@pytest.mark.parametrize(("args", "says"), [
    (["play", "classic", "--players", "2", "--ai", "1", "players=3"], "give it as --players 3"),
    (["play", "classic", "seed=3"], "give it as --seed 3"),
    (["simulate", "classic", "--games", "1", "seed=3"], "give it as --seed 3"),
])
def test_flags_given_as_options_are_one_clear_line(args: list[str], says: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(args, capsys)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["simulate", "play", "rules", "replay"])
def test_a_missing_argument_is_one_line_naming_only_what_is_required(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([command])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and len(err.strip().splitlines()) == 1
    assert "required" in err and "NAME=VALUE" not in err


class ClosedPipe:
    """A stdout whose reader is gone (`domino ... | head`)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("args", [["variants"], ["variants", "--json"], ["rules", "matador"],
                                  ["simulate", "classic", "--games", "2"]])
def test_a_closed_pipe_ends_quietly(args: list[str], monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdout", ClosedPipe())
    assert main(args) == 0
    assert capsys.readouterr().err == ""


def test_simulate_counts_seats_from_1(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["simulate", "classic", "--games", "2"], capsys)
    assert "seat 1:" in out and "seat 2:" in out and "seat 0" not in out


def test_play_vingt_in_the_terminal_draws_the_grid_echoes_the_move_and_its_help(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, ["help", "xyz", "1", "quit"])
    code, out, _ = run(["play", "vingt", "--players", "2", "--ai", "1", "--seed", "3"], capsys)
    assert code == 0
    first = out.split("Player 1 plays ")[0]
    assert first.count("Player 1, your turn.") == 1  # not reprinted after help or a bad entry
    assert "Not allowed: not a move: 'xyz'" in first
    assert "C4 right" in first and "'6-4 left'" not in first  # the help says vingt's moves
    legal = [str(m) for m in variants.get("vingt").new(players=2, seed=3).legal_moves()]
    assert f"Player 1 plays {legal[0]}." in out
    assert legal[0] == "7-4 7-2 M13 right"
    grid = out.split(f"Player 1 plays {legal[0]}.")[1]
    lines = grid.splitlines()
    header = next(line for line in lines if line.split()[:3] == ["I", "J", "K"])
    row = next(line for line in lines if line.split()[:1] == ["13"])
    # the line laid on M13..P13, each tile joined, closed by markers on L13 and Q13
    assert row[header.index("L") - 1:header.index("Q") + 1].split() == \
        ["20", "7--4", "7--2", "20"]
