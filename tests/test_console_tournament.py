"""A tournament in the console, typed as a person would (issue 31): /tournament opens it,
the Register button, the organiser's Start, round 1's tables opened by themselves."""

from __future__ import annotations

import json
from pathlib import Path

from console_helpers import ConsoleBot, messages


def test_a_tournament_in_the_console(tmp_path: Path) -> None:
    bot = ConsoleBot(tmp_path)
    bot.start()
    out = bot.send("/tournament swiss rounds=1 seats=2 classic")
    ann = messages(out)[0]
    assert ann.head == ("[#main] Tournament #1: Classic dominoes, Swiss, 2 per table "
                        "(organiser: alice).")
    labels = dict((label, n) for n, label in ann.buttons)
    bot.send(f"b{labels['Register']}", "/as bob")
    out = bot.send(f"b{labels['Register']}")
    assert "bob is registered in tournament #1 (2 players)." in out[0]
    out = bot.send(f"b{labels['Start']}")
    assert "Only the organiser can start the tournament." in "\n".join(out)
    out = bot.send("/as alice", f"b{labels['Start']}")
    shown = messages(out)
    assert shown[0].text.splitlines()[:2] == ["[#main] Tournament #1, round 1 of 1:",
                                               "    Table #1: alice, bob"]
    assert shown[1].head == "[#main] #1 · Classic dominoes"
    out = bot.send("/tournament standings 1")  # round 1 is under way: no standings yet
    assert any("Tournament #1: no round is over yet." in line for line in out), out
    out = bot.send("/tournament list")
    assert any("#1: Classic dominoes, Swiss · round 1 of 1" in line for line in out), out
    out = bot.send("/tournament export 1")  # under way: its round 1 as it stands
    record = tmp_path / "tournament-1.json"
    assert any(line.strip() == f"file: {record}" for line in out), out
    assert json.loads(record.read_text())["rounds"][0]["tables"][0]["seats"] == ["alice",
                                                                                  "bob"]
    assert bot.send("/tournament") and bot.close()[0] == 0


def test_a_fixed_pairs_tournament_in_the_console(tmp_path: Path) -> None:
    """/tournament join N NAME asks NAME to be one's partner; NAME's Register (or join
    naming the first) confirms; those alone are paired at the start."""
    bot = ConsoleBot(tmp_path)
    bot.start()
    out = bot.send("/tournament swiss partnership rounds=1 target=1")
    ann = messages(out)[0]
    assert "4 per table" in ann.head and "Fixed partners" in ann.text
    labels = dict((label, n) for n, label in ann.buttons)
    out = bot.send("/tournament join 1 bob")
    assert any("alice asks bob to be their partner in tournament #1" in line for line in out)
    out = bot.send("/as bob", f"b{labels['Register']}")
    assert any("alice & bob are registered as partners in tournament #1 (2 players)." in line
               for line in out), out
    out = bot.send("/as carol", "/tournament join 1 carol")
    assert any("You cannot be your own partner." in line for line in out)
    bot.send(f"b{labels['Register']}", "/as dan", f"b{labels['Register']}")
    out = bot.send("/as alice", f"b{labels['Start']}")
    shown = messages(out)
    assert shown[0].head == ("[#main] Tournament #1: partners for those registered alone: "
                             "carol & dan.")
    assert shown[1].text.splitlines()[:2] == ["[#main] Tournament #1, round 1 of 1:",
                                               "    Table #1: alice & bob, carol & dan"]
    out = bot.send("/tournament standings 1")  # round 1 under way: nothing to rank yet
    assert any("Tournament #1: no round is over yet." in line for line in out), out
    assert bot.send("/tournament") and bot.close()[0] == 0
