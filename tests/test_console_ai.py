"""Computer levels, hints and a game review typed in the console (the real program)."""

from __future__ import annotations

from pathlib import Path

from console_helpers import ConsoleBot, hand, messages, play_first_legal


def test_levels_hints_and_a_review_in_the_console(tmp_path: Path) -> None:
    bot = ConsoleBot(tmp_path)
    bot.start()
    bot.send("/domino start classic players=3 hints=on")
    out = bot.send("/domino ai hard")
    assert any(line.strip() == "2. CPU 1 (hard)" for line in out), out
    out = bot.send("/domino ai 1 godlike")
    assert any("unknown computer level godlike" in line for line in out), out
    out = bot.send("/domino review 1")
    assert any("still under way" in line for line in out), out
    out = bot.send("/domino add-ai 1 expert", "/domino begin")
    assert any("CPU 2 (expert)" in line for line in out), out
    finished = False
    for _ in range(100):
        if any("Game over" in line for line in out):
            finished = True
            break
        mine = hand(out, "alice") or hand(bot.output, "alice")
        assert mine is not None, "\n".join(out)
        assert "Hint" in [label for _, label in mine.buttons]
        out = play_first_legal(bot, "alice", bot.output)
    assert finished
    out = bot.send("/domino review")
    shown = messages(out)
    assert shown and shown[0].head.startswith("[private to alice]"), out
    assert "Review of game #1 for alice" in shown[0].text
    bot.send("/as bob")
    out = bot.send("/domino review 1")
    assert any("You did not play game #1" in line for line in out), out
    assert bot.close()[0] == 0
