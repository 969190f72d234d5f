"""Drive the real console bot (`python -m bot.cli`) as a subprocess through a pipe.

`ConsoleBot.send(line)` writes a line followed by `/wait 0`, whose answer "(waited 0 s)" marks
the end of that line's output, and returns the output lines in between. The output is parsed
into messages (a head line starting with "[" and its indented lines) with their buttons.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SYNC = "(waited 0 s)"
BUTTON = re.compile(r"\[b(\d+) ([^\]]+)\]")
PLAYS = re.compile(r"^    (.+?) plays (.+)\.$")
TIMEOUT = 60.0  # seconds to wait for one answer before the test fails (a hang, not a timing)


@dataclass
class Shown:
    """One message as the console printed it."""

    head: str
    lines: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join([self.head, *self.lines])

    @property
    def buttons(self) -> list[tuple[int, str]]:
        return [(int(n), label) for line in self.lines for n, label in BUTTON.findall(line)]

    @property
    def pictures(self) -> list[Path]:
        return [Path(line.split("picture: ", 1)[1]) for line in self.lines
                if line.strip().startswith("picture: ")]


def messages(lines: list[str]) -> list[Shown]:
    out: list[Shown] = []
    for line in lines:
        if line.startswith("["):
            out.append(Shown(line))
        elif line.startswith("    ") and out:
            out[-1].lines.append(line)
    return out


def plays(lines: list[str], table: int | None = None) -> list[tuple[str, str]]:
    """(who, move) of every "X plays M." line (of one table's messages), in order."""
    return [(m[1], m[2]) for shown in messages(lines)
            if table is None or shown.head.startswith(f"[#main] #{table} ·")
            for line in shown.lines if (m := PLAYS.match(line))]


class ConsoleBot:
    """The console bot in a subprocess, in folder `cwd` (its .env, database and pictures)."""

    def __init__(self, cwd: Path, **env: str) -> None:
        full = {k: v for k, v in os.environ.items()
                if not k.startswith(("DOMINO_", "DISCORD_", "TELEGRAM_"))}
        full.update({"DOMINO_AI_DELAY": "0", "DOMINO_PICTURES": "off",
                     "PYTHONPATH": str(ROOT)}, **env)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot.cli"], cwd=cwd, env=full, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
        self.output: list[str] = []  # every line so far
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def until(self, predicate: object) -> list[str]:
        """Lines up to and including the first one for which predicate(line) is true."""
        got: list[str] = []
        while True:
            try:
                line = self._lines.get(timeout=TIMEOUT)
            except queue.Empty:
                raise AssertionError("the bot did not answer; so far:\n" + "\n".join(got)) \
                    from None
            if line is None:
                raise AssertionError("the bot ended; its output:\n" + "\n".join(got)
                                     + "\nstderr:\n" + self.stderr())
            got.append(line)
            self.output.append(line)
            if predicate(line):  # type: ignore[operator]
                return got

    def start(self) -> list[str]:
        """The output up to the greeting and whatever the restart prompted."""
        return self.send("")

    def send(self, *lines: str) -> list[str]:
        """Type the lines; return the output they produced (without the sync line)."""
        self.write(*lines, "/wait 0")
        return self.until(lambda line: line == SYNC)[:-1]

    def write(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()

    def close(self) -> tuple[int, list[str]]:
        """End of input: the bot must end by itself. Returns (exit code, remaining lines)."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        rest: list[str] = []
        while (line := self._lines.get(timeout=TIMEOUT)) is not None:
            rest.append(line)
        self.output += rest
        return self.proc.wait(timeout=TIMEOUT), rest

    def kill(self) -> None:
        """SIGKILL: no chance to clean up."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=TIMEOUT)

    def stderr(self) -> str:
        if self.proc.poll() is None or self.proc.stderr is None:
            return "(still running)"
        return self.proc.stderr.read()


def hand(lines: list[str], user: str, table: int | None = None) -> Shown | None:
    """The last private hand (or choose-an-end) message for `user` with enabled buttons
    (at `table`: its hand message says "table #N")."""
    found = [m for m in messages(lines)
             if m.head.startswith(f"[private to {user}]") and m.buttons
             and (table is None or f"table #{table}." in m.head)]
    return found[-1] if found else None


def play_first_legal(bot: ConsoleBot, user: str, lines: list[str],
                     table: int | None = None) -> list[str]:
    """Press the first legal move of `user`'s last hand message (choosing the first end
    when asked); returns the output of the press."""
    shown = hand(lines, user, table)
    assert shown is not None, "no hand with a legal move in:\n" + "\n".join(lines)
    out = bot.send(f"b{shown.buttons[0][0]}")
    if any("Which end" in line for line in out):
        chooser = hand(out, user)
        assert chooser is not None
        out += bot.send(f"b{chooser.buttons[0][0]}")
    return out
