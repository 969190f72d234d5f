"""The console chat: the bot's service in a terminal, with no token.

You type as a named user (`/as alice` switches), see public messages of the
channel and each user's private messages marked as such; pictures are
written to a folder and their paths printed; buttons are numbered (`b3`
presses button 3).  Same service, same database file as the chat platforms.
"""

from __future__ import annotations

import asyncio
import shlex
import sys
from pathlib import Path
from typing import TextIO

from .messages import Message
from .service import Service, User

CHANNEL = "console:main"
SCOPE = "console"
HELP = """Commands (type them as the current user):
  /as NAME                      speak as another user
  /domino start VARIANT [players=N] [ai=K] [timer=S] [option=value ...]
  /domino join|leave|begin|ai|noai|hand|stop|rematch [TABLE]
  /domino play [TABLE] MOVE     e.g. /domino play 6-4 left
  /domino rules VARIANT         /domino variants
  /domino top [VARIANT] [global]   /domino stats [USER]   /domino history [USER]
  /domino export TABLE          b3 presses button 3 of the last messages
  /help   /quit"""


class ConsoleChat:
    """Reads lines, calls the service, prints its messages."""

    def __init__(self, service: Service, out: TextIO, pictures: Path) -> None:
        self.service = service
        self.out = out
        self.pictures = pictures
        self.user = User("console:alice", "alice")
        self.buttons: dict[int, tuple[str, str]] = {}  # number -> (user id, data)
        self._next_button = 1
        self._next_picture = 1
        self.last_table: int | None = None

    # -- output ------------------------------------------------------------------

    def show(self, messages: list[Message]) -> None:
        for m in messages:
            if m.to is not None:
                head = f"[private to {m.to.split(':', 1)[-1]}]"
            else:
                head = "[#main]"
            if m.table is not None:
                self.last_table = m.table
            print(f"{head} {m.text}", file=self.out)
            if m.image:
                self.pictures.mkdir(parents=True, exist_ok=True)
                path = self.pictures / f"{self._next_picture:04d}-{m.kind}.png"
                self._next_picture += 1
                path.write_bytes(m.image)
                print(f"    picture: {path}", file=self.out)
            if m.file:
                path = self.pictures / m.file[0]
                self.pictures.mkdir(parents=True, exist_ok=True)
                path.write_bytes(m.file[1])
                print(f"    file: {path}", file=self.out)
            shown = []
            for a in m.actions:
                if not a.enabled:
                    shown.append(f"({a.label})")
                    continue
                number = self._next_button
                self._next_button += 1
                self.buttons[number] = (m.to or "", a.data)
                shown.append(f"[b{number} {a.label}]")
            if shown:
                print("    " + " ".join(shown), file=self.out)
        self.out.flush()

    # -- input ---------------------------------------------------------------------

    async def handle(self, line: str) -> bool:
        """Handle one typed line; False when the user quits."""
        line = line.strip()
        if not line:
            return True
        if line in ("/quit", "/exit"):
            return False
        if line == "/help":
            print(HELP, file=self.out)
            return True
        if line.startswith("/as "):
            name = line[4:].strip()[:32] or "alice"
            self.user = User(f"console:{name}", name)
            print(f"(you are now {name})", file=self.out)
            return True
        if line[:1] == "b" and line[1:].isdigit():
            owner, data = self.buttons.get(int(line[1:]), ("", ""))
            if not data:
                print("(no such button)", file=self.out)
                return True
            if owner and owner != self.user.id:
                print("(that button is in someone else's private message)", file=self.out)
                return True
            self.show(await self.service.press(self.user, data))
            return True
        if line.startswith("/domino"):
            self.show(await self._domino(line[len("/domino"):].strip()))
            return True
        print("(type /help for the commands)", file=self.out)
        return True

    async def _domino(self, text: str) -> list[Message]:
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        if not words:
            return [Message(CHANNEL, HELP, to=self.user.id)]
        verb, args = words[0].lower(), words[1:]
        s, u = self.service, self.user
        if verb == "start" and args:
            return await s.open_table(u, CHANNEL, SCOPE, args[0], options=" ".join(args[1:]),
                                      private=True)
        if verb == "variants":
            from core import variants
            return [Message(CHANNEL, ", ".join(variants.names()), to=u.id)]
        if verb == "rules" and args:
            return await s.rules(u, args[0])
        if verb == "top":
            scope = "global" if "global" in args else SCOPE
            rest = [a for a in args if a != "global"]
            return await s.leaderboard(u, CHANNEL, scope, rest[0] if rest else None)
        if verb == "stats":
            return await s.stats(u, CHANNEL, f"console:{args[0]}" if args else None)
        if verb == "history":
            return await s.history(u, CHANNEL, f"console:{args[0]}" if args else None)
        table, args = self._table_arg(args)
        if table is None:
            return [Message(CHANNEL, "Which table? Give its number, e.g. /domino join 1.",
                            to=u.id, kind="error")]
        simple = {"join": s.join, "leave": s.leave, "begin": s.begin, "ai": s.add_ai,
                  "noai": s.remove_ai, "hand": s.hand, "stop": s.stop, "rematch": s.rematch,
                  "export": s.export}
        if verb in simple:
            return await simple[verb](u, table)
        if verb == "play" and args:
            return await s.play(u, table, " ".join(args))
        return [Message(CHANNEL, HELP, to=u.id)]

    def _table_arg(self, args: list[str]) -> tuple[int | None, list[str]]:
        if args and args[0].lstrip("#").isdigit():
            return int(args[0].lstrip("#")), args[1:]
        return self.last_table, args


async def run_console(service: Service, pictures: Path, stdin: TextIO = sys.stdin,
                      out: TextIO = sys.stdout) -> None:
    """The console loop: typed lines and the service's ticks, until /quit or end of input."""
    chat = ConsoleChat(service, out, pictures)
    print("Domino console. Type /help for the commands; you are alice.", file=out)
    chat.show(await service.start())
    loop = asyncio.get_running_loop()

    async def ticker() -> None:
        while True:
            await asyncio.sleep(0.2)
            messages = await service.tick()
            if messages:
                chat.show(messages)

    ticking = asyncio.create_task(ticker())
    try:
        while True:
            line = await loop.run_in_executor(None, stdin.readline)
            if not line:
                break
            if not await chat.handle(line):
                break
    finally:
        ticking.cancel()
