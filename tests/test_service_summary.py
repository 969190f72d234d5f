"""The end of a round and of a match at the table: the final board and the score sheet
(every hand revealed, what each seat or team scored and why, the totals against the
target), a summary of every round at the match's end, and teams shown as teams."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.service.service import Service
from bot.service.words import sheet_lines, team_result_lines
from core import variants
from tests.service_helpers import (
    ALICE,
    BOB,
    CHANNEL,
    SCOPE,
    RecordingPictures,
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
        assert out.index(result) < out.index(sheets[-1])  # the move that ended it, then
        for sheet in sheets:  # each sheet comes right after the move that ended its round
            before = [m for m in out[:out.index(sheet)] if m.to is None][-1]
            assert before.kind in ("table", "result") and "Round over" in before.text
    run(with_service(tmp_path / "db.sqlite", body))


@dataclass
class TrickPictures(RecordingPictures):
    """Records the names given to the last-trick picture."""

    trick_names: list[Any] = field(default_factory=list)

    def last_trick(self, view: dict[str, Any], names: list[str] | None = None
                   ) -> bytes | None:
        self.trick_names.append(names)
        return super().last_trick(view, names)


def test_a_forty_two_hand_ends_with_its_move_then_its_sheet_and_keeps_its_last_trick(
        tmp_path: Path) -> None:
    pictures = TrickPictures()

    async def body(service: Service) -> None:
        tid = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "forty-two", players=4,
                                                ai=3, options="target=250"))
        table = service.tables[tid]
        out: list[Any] = []
        for _ in range(60):
            if table.game.round_no > 1:
                break
            assert table.game.to_move == 0
            out += await service.play(ALICE, tid, str(table.game.legal_moves()[0]))
        sheet = next(m for m in out if m.kind == "board")
        public = [m for m in out if m.to is None]
        before = public[public.index(sheet) - 1]
        assert before.kind == "table" and "Round over" in before.text
        text = sheet.text
        assert "none" not in text and "pips" not in text and "Contract: " in text
        scored = [line for line in text.splitlines() if " · total " in line]
        assert len(scored) == 2 and sum(line.count(" +") for line in scored) == sum(
            len(x) for x in table.game.view(None)["last_round"]["lines"])  # each reason once
        assert "Points taken: " in text and (" set by " in text.lower()
                                              or "made" in text.lower())
        # the next hand's bidding: "Last trick" shows the last trick of the hand that ended
        await service.hand(ALICE, tid)
        hand = next(m for m in await service.hand(ALICE, tid) if m.kind == "hand")
        last = next(a for a in hand.actions if a.label == "Last trick")
        seen = await service.press(ALICE, last.data)
        assert seen[0].text.startswith("Last trick: ")
        assert pictures.trick_names[-1] == table.names()

    run(with_service(tmp_path / "db.sqlite", body, pictures=pictures))


def test_the_score_sheet_is_drawn(tmp_path: Path) -> None:
    from bot.service.pictures import Pictures
    game = finished_round("canton", 2, 3)
    view = game.view(None)
    lines = sheet_lines(view, ["alice", "bob"], "fr")
    assert lines[0].startswith("Feuille de marque de la manche 1")
    png = Pictures("fr").scoresheet(view, ["alice", "bob"], lines)
    assert png is not None and png.startswith(b"\x89PNG")


def test_partnership_results_rank_teams_not_partners() -> None:
    from bot.service.words import result_lines
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


def test_a_forced_bid_says_why_there_is_no_pass() -> None:
    from types import SimpleNamespace

    from bot.service.words import hand_text

    game = variants.get("texas-42").new(seed=1)
    table = SimpleNamespace(id=7)
    first = hand_text(table, "tricks", game.view(0), "", True, "en")  # type: ignore[arg-type]
    assert first.endswith("Your bid?")
    for _ in range(3):
        game.play("pass")
    forced = hand_text(table, "tricks", game.view(3), "", True, "en")  # type: ignore[arg-type]
    assert "must bid" in forced and "three others passed" in forced
    french = hand_text(table, "tricks", game.view(3), "", True, "fr")  # type: ignore[arg-type]
    assert "devez enchérir" in french


def test_rankings_say_ties_and_the_pips_that_decided() -> None:
    from bot.service.words import ranking_text, result_lines
    from core.ai import GreedyPlayer

    names = ["alice", "bob", "carol"]
    game = variants.get("classic").new(players=3, seed=0, draw="block")
    player = GreedyPlayer(1)
    while not game.over:
        game.play(player.choose(game))
    ranking = result_lines(game.result, names, "en", game.view(None))[1]
    assert ranking == "Ranking: carol (22) > bob (0, 10 pips left) > alice (0, 12 pips left)"
    label = names.__getitem__
    assert ranking_text([0, 1, 2], label, [10, 10, 3], None, {0, 1}, "en") == \
        "alice (10) = bob (10) > carol (3)"
    assert ranking_text([2, 0, 1], label, [0, 0, 5], [4, 4, 0], {2}, "en") == \
        "carol (5) > alice (0) = bob (0)"
    assert ranking_text([0, 1], label, [0, 0], [1, 3], set(), "fr", tiles=True) == \
        "alice (0, 1 domino restant) > bob (0, 3 dominos restants)"
    teams = {"teams": [[0, 2], [1, 3]], "team_scores": [7, 7], "winners": [0, 1, 2, 3]}
    assert team_result_lines(teams, ["a", "b", "c", "d"], "en") == \
        ["Teams: a & c (7) = b & d (7)"]
