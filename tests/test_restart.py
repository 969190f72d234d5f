"""Kill the console bot with SIGKILL in the middle of games, restart it on the same database,
and check every table goes on at the same turn with no accepted move lost."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from console_helpers import ConsoleBot, hand, messages, play_first_legal, plays

NAMES = {1: ["alice", "CPU 1"], 2: ["alice", "bob"]}  # the seats of the two tables


def _logged(db: Path, table: int) -> list[tuple[int, int, str]]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT turn, seat, move FROM moves WHERE table_id = ? ORDER BY turn",
                           (table,)).fetchall()


def _state(lines: list[str], table: int) -> list[str]:
    """The last public table message of `table`, without the line saying who just played."""
    shown = [m for m in messages(lines) if m.head.startswith(f"[#main] #{table} ·")]
    assert shown, "\n".join(lines)
    return [line for line in shown[-1].lines if " plays " not in line and "[b" not in line]


def _to_move(lines: list[str]) -> str:
    prompts = [line for line in lines if line.startswith("[#main]") and "your turn" in line]
    return prompts[-1].split()[1].rstrip(",")


def test_sigkill_loses_no_accepted_move(tmp_path: Path) -> None:
    db = tmp_path / "domino.sqlite"
    first = ConsoleBot(tmp_path)
    first.start()
    # Table 1: alice against a computer (no delay); table 2: alice against bob.
    out = first.send("/start classic players=2 ai=1", "/hand 1")
    for _ in range(3):
        out = play_first_legal(first, "alice", out, table=1)
    first.send("/start tete-a-tete players=2", "/as bob", "/join 2", "/begin 2")
    for _ in range(3):
        who = _to_move(first.output)
        first.send(f"/as {who}")
        play_first_legal(first, who, first.output, table=2)
    before = {t: _state(first.output, t) for t in (1, 2)}
    waiting = _to_move(first.output)  # at table 2 (at table 1 it is always alice)
    first.kill()

    # Every move the bot showed is in the database, at consecutive turns, by the right seat.
    logged = {t: _logged(db, t) for t in (1, 2)}
    for t in (1, 2):
        assert plays(first.output, t) == [(NAMES[t][seat], move) for _, seat, move in logged[t]]
        assert [turn for turn, _, _ in logged[t]] == list(range(len(logged[t])))
    assert len(logged[1]) >= 6 and len(logged[2]) == 3

    second = ConsoleBot(tmp_path)
    restarted = second.start()
    # The same positions are shown again, and the players to move are prompted again.
    assert {t: _state(restarted, t) for t in (1, 2)} == before
    assert "[#main] alice, your turn." in restarted
    assert f"[#main] {waiting}, your turn." in restarted
    # Table 1 goes on from there: the next move takes the next turn, after the old ones.
    second.send("/as alice")
    after = play_first_legal(second, "alice", restarted, table=1)
    assert plays(after, 1)[0][0] == "alice"
    now = _logged(db, 1)
    assert now[:len(logged[1])] == logged[1] and len(now) > len(logged[1])
    assert [turn for turn, _, _ in now] == list(range(len(now)))
    assert plays(second.output, 1) == [(NAMES[1][seat], move)
                                       for _, seat, move in now[len(logged[1]):]]
    assert _logged(db, 2) == logged[2]
    assert second.close()[0] == 0


def test_a_restart_with_nothing_to_reload_is_quiet(tmp_path: Path) -> None:
    bot = ConsoleBot(tmp_path)
    assert len(bot.start()) == 1  # the greeting only
    bot.kill()
    again = ConsoleBot(tmp_path)
    assert len(again.start()) == 1
    assert hand(again.output, "alice") is None
    assert again.close()[0] == 0
