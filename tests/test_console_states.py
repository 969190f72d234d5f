"""One message per state in the console: a computer's move is one line, the table with its
picture comes when a human must act or a round ends, a hand when its player must act."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from tests.console_helpers import ConsoleBot, messages, plays

TILE = re.compile(r"\d+-\d+")


def test_a_42_trick_with_three_computers_is_one_table_and_one_hand(tmp_path: Path) -> None:
    bot = ConsoleBot(tmp_path, DOMINO_PICTURES="pics")
    bot.start()
    out = bot.send("/start forty-two players=4 ai=3 target=42")
    tricks = 0
    for _ in range(40):
        shown = messages(out)
        hands = [m for m in shown if m.head.startswith("[private to alice]") and m.buttons]
        if not hands:
            break
        asked = hands[-1]
        playing = any("Play a tile." in line for line in asked.lines)
        out = bot.send(f"b{asked.buttons[0][0]}")
        shown = messages(out)
        if not playing or any("Score sheet" in m.text for m in shown):
            continue  # the bidding, or a round's end (its score sheet and a new deal)
        tricks += 1
        pictured = [m for m in shown if m.head.startswith("[#main]") and m.pictures]
        private = [m for m in shown if m.head.startswith("[private to alice]")]
        assert len(pictured) <= 1, "\n".join(out)
        assert len(private) <= 1, "\n".join(out)
        assert sum(len(m.pictures) for m in shown) <= 2, "\n".join(out)  # the table, the hand
        turn_lines = [m for m in shown if "your turn" in m.head]
        assert not [m for m in turn_lines if m.pictures]  # no copy of the table picture
    assert tricks >= 3
    assert bot.close()[0] == 0
    with sqlite3.connect(tmp_path / "domino.sqlite") as db:  # every tile played was said
        logged = [m for (m,) in db.execute("SELECT move FROM moves WHERE table_id = 1 "
                                           "ORDER BY turn") if TILE.fullmatch(m)]
    assert logged == [move for _, move in plays(bot.output)][:len(logged)]
