"""The end of a round and of a match at the table: the final board and the score sheet
(every hand revealed, what each seat or team scored and why, the totals against the
target), a summary of every round at the match's end, and teams shown as teams."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.service.service import Service
from bot.service.summary import sheet_lines
from core import variants
from tests.service_helpers import (
    ALICE,
    BOB,
    CHANNEL,
    SCOPE,
    play_to_the_end,
    run,
    table_id,
    with_service,
)


def finished_round(slug: str, players: int, seed: int, **options: Any) -> Any:
    from core.ai import GreedyPlayer
    game = variants.get(slug).new(players=players, seed=seed, **options)
    player = GreedyPlayer(seed)
    while not game.over and game.round_no == 1:
        game.play(player.choose(game))
    return game


def test_the_core_keeps_each_rounds_score_lines_and_final_board() -> None:
    game = finished_round("bergen", 2, 4)
    last = game.view(None)["last_round"]
    assert last["board"]["board"]  # the board as the round ended, not the next round's
    assert game.view(None)["board"] != last["board"]["board"] or game.over
    assert len(last["lines"]) == 2 and last["scorers"] == [[0], [1]]
    codes = {line["code"] for lines in last["lines"] for line in lines}
    assert "lead" in codes  # Bergen's "Premier joueur: 2 pts"
    assert last["scored"] == [sum(x["points"] for x in lines) for lines in last["lines"]]
    assert game.view(None)["history"][0]["totals"] == last["totals"]


def test_all_fives_shows_the_rounded_remainders() -> None:
    for seed in range(40):
        game = finished_round("all-fives", 2, seed)
        last = game.view(None)["last_round"]
        hands = [x for lines in last["lines"] for x in lines if x["code"] == "hands"]
        if hands and hands[0]["from"][0]["pips"] % 5:
            f = hands[0]["from"][0]
            assert f["counted"] % 5 == 0 and abs(f["counted"] - f["pips"]) <= 2
            text = "\n".join(sheet_lines(game.view(None), ["alice", "bob"], "en"))
            assert f"{f['pips']}→{f['counted']}" in text
            return
    raise AssertionError("no round with a remainder to round")


def test_a_round_end_sends_the_final_board_and_the_score_sheet(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                options="players=2 target=60"))
        await service.join(BOB, tid)
        await service.begin(ALICE, tid)
        out = await play_to_the_end(service, tid, {0: ALICE, 1: BOB})
        sheets = [m for m in out if m.kind == "board"]
        assert sheets and all(m.to is None for m in sheets)
        first = sheets[0].text
        assert first.startswith("Score sheet of round 1:") and "Hands:" in first
        assert "alice:" in first and "bob:" in first and "of 60" in first
        assert "Hands: alice" in first and "pip" in first
        result = next(m for m in out if m.kind == "result")
        if len(sheets) > 1:  # a match of several rounds ends with every round's totals
            assert "Every round:" in sheets[-1].text
            assert "Round 1:" in sheets[-1].text
        assert out.index(sheets[-1]) < out.index(result)
    run(with_service(tmp_path / "db.sqlite", body))


def test_the_score_sheet_is_drawn(tmp_path: Path) -> None:
    from bot.service.pictures import Pictures
    game = finished_round("canton", 2, 3)
    view = game.view(None)
    lines = sheet_lines(view, ["alice", "bob"], "fr")
    assert lines[0].startswith("Feuille de marque de la manche 1")
    png = Pictures("fr").scoresheet(view, ["alice", "bob"], lines)
    assert png is not None and png.startswith(b"\x89PNG")


def test_partnership_results_rank_teams_not_partners() -> None:
    from bot.service.texts import result_lines
    result = {"winners": [0, 2], "scores": [100, 12, 100, 12], "ranking": [0, 2, 1, 3],
              "rounds": 3, "reason": "out", "teams": [[0, 2], [1, 3]],
              "team_scores": [100, 12]}
    lines = result_lines(result, ["alice", "bob", "carol", "dave"], "en")
    assert lines[0] == "Game over. Winning team: alice & carol."
    assert "Teams: alice & carol (100) > bob & dave (12)" in lines
    assert not any(line.startswith("Ranking:") for line in lines)


def test_the_lobby_shows_the_teams(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        opened = await service.open_table(ALICE, CHANNEL, SCOPE, "partnership")
        text = opened[0].text
        assert "1. alice · team 1" in text and "2. " in text and "team 2" in text
        classic = await service.open_table(ALICE, CHANNEL, SCOPE, "classic")
        assert "team" not in classic[0].text
    run(with_service(tmp_path / "db.sqlite", body))
