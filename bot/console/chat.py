"""The console chat: the bot's service in a terminal, with no token (the console adapter).

You type as a named user (`/as bob` switches), and see the public messages of the channel
and every user's private messages, marked `[private to NAME]`. Pictures are written to a
folder and their paths printed. Buttons are numbered: `b3` presses button 3. Computer moves
and timers arrive while you wait (the app's tick loop delivers them here through the router).
Standard input may be a terminal or a pipe; end of input ends the chat.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import shlex
import threading
from pathlib import Path
from typing import TextIO

from ..i18n import lang_for, t
from ..logcontext import table_context, table_of
from ..service.guard import Where
from ..service.messages import Message, acting, fleeting
from ..service.seasons import season_arg
from ..service.service import TABLE_FOR, TOURNAMENT_VERBS, Service, User
from ..suggest import closest

CHANNEL = "console:main"
SCOPE = "console"
HERE = Where(CHANNEL, SCOPE)  # every command comes from the one channel
NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")
MAX_BUTTONS = 2000  # button numbers remembered
MAX_WAIT = 600.0
HELP = """Commands (the /domino prefix is optional: /start classic = /domino start classic):
  /as NAME                  speak as another user (you start as alice)
  /domino start VARIANT [players=N] [ai=K] [timer=SECONDS] [option=value ...]
  /domino join|leave|ai|noai|begin|hand|stop|rematch [TABLE]
  /domino ai [TABLE] [easy|normal|hard|expert]   a computer seat of that level (add-ai too)
  /domino review [TABLE]    your moves in a finished game, against the expert's
  /domino play [TABLE] MOVE e.g. /play 6-4 left, /play draw, /play pass
  /domino rules VARIANT     /domino variants
  /domino top [VARIANT] [global] [season 2026-10|2026-Q4]   a leaderboard (a past season)
  /domino stats [NAME]      /domino history [NAME]
  /domino export TABLE      writes the record of a finished game (for domino replay)
  /domino web [TABLE]       your link to the web table of your table (a browser page)
  /domino lang fr|en        your language (private messages, new tables you open)
  /domino settings lang=fr|en timer=SECONDS season=monthly|quarterly|never
                            this console's defaults (as a server's)
  /domino pings on|off      whether your turns notify you (the turn is shown either way)
  /tournament swiss|round-robin|knockout|arena VARIANT [rounds=N] [seats=N] [fill=on]
             [clock=SECONDS] [start=MINUTES] [option=value ...]    open a tournament here
             [partners=fixed|random] (team games: partnership, whist, forty-two...)
  /tournament list                                    the tournaments here
  /tournament join|leave|start|standings|drop|export|cancel NUMBER
  /tournament join NUMBER NAME   register with NAME as your partner (fixed pairs)
  bN                        press button N
  /wait SECONDS             let computer players and timers act (for scripts)
  /help    /quit            (end of input quits too)
TABLE is a table number (#2 or 2); without it, your table here that the command fits."""
# Console verbs that look for their table as a `Service.find_table` command does.
FIND_AS = {"ai": "begin", "noai": "begin", "draw": "play", "pass": "play", "export": "rematch"}
FIND_AS["add-ai"] = "begin"
FIND_AS["web"] = "leave"  # a lobby or a game the user sits at
CONSOLE_WORDS = ("/as", "/wait", "/help", "/quit", "/exit", "/domino", "/tournament")
VERBS = ("start", "join", "leave", "ai", "noai", "begin", "hand", "stop", "rematch", "play",
         "draw", "pass", "rules", "variants", "top", "stats", "history", "export", "lang",
         "settings", "add-ai", "review", "web", "pings")


class ConsoleChat:
    """Reads typed lines, calls the service, prints its messages (and the router's)."""

    def __init__(self, service: Service, out: TextIO, pictures: Path | None) -> None:
        self.service = service
        self.out = out
        self.pictures = pictures
        self.user = User("console:alice", "alice")
        self.locales: dict[str, str] = {}  # user id -> the language chosen with /lang
        self.buttons: dict[int, tuple[str, str]] = {}  # number -> (owner user id or "", data)
        self.next_button = 1
        self.next_picture = _first_free_number(pictures)
        self.last_table: int | None = None
        self.prompt = False  # a terminal: show "alice> " after each output

    # -- output --------------------------------------------------------------------------

    async def deliver(self, messages: list[Message]) -> None:
        """The adapter API: messages from the tick loop or a restart."""
        if self.prompt and messages:
            self.out.write("\r\x1b[K")  # over the prompt shown while waiting for a line
        self.show(messages)

    def show(self, messages: list[Message]) -> None:
        """Print `messages`, one message per state: a move that a later one replaces at once
        (a computer's, or one the batch goes past) as its sentences alone; a hand when its
        player must act, asked for it, or the game ended (not after every move)."""
        must = acting(messages)
        moved = {m.table for m in messages if m.to is None and m.said}
        over = {m.table for m in messages if m.kind == "result"}
        last = {_slot(m): i for i, m in enumerate(messages)}
        for i, m in enumerate(messages):
            if m.said and (fleeting(m, messages) or last[_slot(m)] != i):
                self._show_move(m)
            elif m.kind == "hand" and m.to is not None and (
                    last[_slot(m)] != i or ((m.table, m.to) not in must
                                            and m.table in moved and m.table not in over)):
                continue  # the player sees their hand when they must act
            else:
                self._show_one(m)
        if self.prompt and messages:
            self.out.write(f"{self.user.name}> ")
        self.out.flush()

    def _show_one(self, m: Message) -> None:
        head = f"[private to {_name(m.to)}]" if m.to is not None else "[#main]"
        if m.kind == "error":
            head += " error:"
        if m.table is not None:
            self.last_table = m.table
        lines = m.text.splitlines() or [""]
        print(f"{head} {lines[0]}", file=self.out)
        for line in lines[1:]:
            print(f"    {line}", file=self.out)
        notified = [u for u in m.mention if u and u not in m.quiet]  # quiet: pings off
        if notified:
            print("    (notifies " + ", ".join(_name(u) for u in notified) + ")", file=self.out)
        if m.image and self.pictures:
            table = f"t{m.table}-" if m.table is not None else ""
            self._write(f"{self.next_picture:05d}-{table}{m.kind}.png", m.image, "picture")
            self.next_picture += 1
        if m.file:
            self._write(Path(m.file[0]).name, m.file[1], "file")
        shown = []
        for a in m.actions:
            if not a.enabled:
                shown.append(f"({a.label})")
                continue
            number = self.next_button
            self.next_button += 1
            self.buttons[number] = (m.to or "", a.data)
            self.buttons.pop(number - MAX_BUTTONS, None)
            shown.append(f"[b{number} {a.label}]")
        if shown:
            print("    " + " ".join(shown), file=self.out)

    def _show_move(self, m: Message) -> None:
        """A move as its table's title and its sentences (no picture, no buttons)."""
        head = (m.text.splitlines() or [""])[0]
        print(f"[#main] {head}", file=self.out)
        for line in m.said:
            print(f"    {line}", file=self.out)

    def _write(self, name: str, data: bytes, what: str) -> None:
        folder = self.pictures or Path.cwd()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        except OSError as exc:
            print(f"    ({what} not written: {exc.strerror}: {folder / name})", file=self.out)
            return
        print(f"    {what}: {folder / name}", file=self.out)

    def say(self, text: str) -> None:
        """A line from the console itself (not from the bot)."""
        print(f"({text})", file=self.out)
        if self.prompt:
            self.out.write(f"{self.user.name}> ")
        self.out.flush()

    def hello(self, database: Path, web: str | None = None) -> None:
        """The greeting, one line: the web table's address first when it runs (its home page
        plays every game in a browser), then the console's."""
        there = f"Play in your browser: {web}/ (/web: your link). " if web else ""
        self.say(f"{there}Domino console, database {database}. Type /help for the commands; "
                 f"you are {self.user.name}")

    # -- input ---------------------------------------------------------------------------

    async def run(self, stdin: TextIO) -> None:
        """Read lines until /quit or the end of input. A daemon thread reads, so the event
        loop (and the tick loop) keeps running while nobody types, and exiting never waits
        for a blocked read."""
        self.prompt = _isatty(stdin) and _isatty(self.out)
        if self.prompt:
            self.out.write(f"{self.user.name}> ")
            self.out.flush()
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def read() -> None:
            try:
                for line in iter(stdin.readline, ""):
                    loop.call_soon_threadsafe(lines.put_nowait, line)
            except (OSError, ValueError, UnicodeDecodeError):
                pass
            finally:
                with contextlib.suppress(RuntimeError):  # a closed loop: we are exiting
                    loop.call_soon_threadsafe(lines.put_nowait, None)

        threading.Thread(target=read, name="console-stdin", daemon=True).start()
        try:
            while True:
                line = await lines.get()
                if line is None or not await self.handle(line):
                    break
        finally:
            print("(bye)", file=self.out)
            self.out.flush()

    async def handle(self, line: str) -> bool:
        """Handle one typed line; False when the user quits."""
        line = line.strip()
        if not line:
            if self.prompt:
                self.say("type /help for the commands")
            return True
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("/quit", "/exit"):
            return False
        if word == "/help":
            print(HELP, file=self.out)
            self.say("end of help")
        elif word == "/as":
            self._switch(rest.strip())
        elif word == "/wait":
            await self._wait(rest.strip())
        elif re.fullmatch(r"b\d+", word):
            await self._press(int(word[1:]))
        elif word == "/domino":
            await self._domino(rest)
        elif word == "/tournament":
            await self._tournament(rest.split())
        elif word.startswith("/") and word[1:] in VERBS:
            await self._domino(line[1:])
        else:
            self._unknown(line.split()[0], CONSOLE_WORDS + tuple("/" + v for v in VERBS))
        return True

    def _unknown(self, word: str, known: tuple[str, ...]) -> None:
        """An unknown command, with the known one most like it ("/plya": /play)."""
        lang = lang_for(self.user.locale)
        guess = closest(word, known)
        if guess is None:
            self.say(t(lang, "unknown command {word!r}; type /help for the commands",
                       word=word[:40]))
        else:
            self.say(t(lang, "unknown command {word!r}; did you mean {guess}? type /help for "
                       "the commands", word=word[:40], guess=guess))

    def _switch(self, name: str) -> None:
        if not NAME.fullmatch(name):
            self.say("usage: /as NAME (1 to 32 letters, digits, . _ or -)")
            return
        self.user = User(f"console:{name}", name, self.locales.get(f"console:{name}"))
        self.say(f"you are now {name}")

    async def _wait(self, text: str) -> None:
        try:
            seconds = float(text or "1")
        except ValueError:
            seconds = -1.0
        if not 0 <= seconds <= MAX_WAIT:
            self.say(f"usage: /wait SECONDS (from 0 to {MAX_WAIT:.0f})")
            return
        await asyncio.sleep(seconds)
        self.say(f"waited {seconds:g} s")

    async def _press(self, number: int) -> None:
        owner, data = self.buttons.get(number, ("", ""))
        if not data:
            self.say(f"there is no button b{number}")
        elif owner and owner != self.user.id:
            self.say(f"b{number} is in {_name(owner)}'s private message; "
                     f"type /as {_name(owner)} first")
        else:
            with table_context(table_of(data), "console"):
                self.show(await self.service.press(self.user, data, where=HERE))

    async def _domino(self, text: str) -> None:
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        if not words:
            self.say("type /help for the commands")
            return
        verb, args = words[0].lower(), words[1:]
        s, u = self.service, self.user
        if verb == "start":
            if not args:
                self.say("usage: /domino start VARIANT [players=N] [ai=K] [option=value ...]; "
                         "/domino variants lists them")
                return
            # No turn timer unless asked for: everyone shares this keyboard.
            self.show(await s.open_table(u, CHANNEL, SCOPE, args[0], timer=0,
                                         options=" ".join(args[1:]), where=HERE))
        elif verb == "variants":
            from core import variants

            self.say("variants: " + ", ".join(variants.names()))
        elif verb == "rules":
            if not args:
                self.say("usage: /domino rules VARIANT")
                return
            self.show(await s.rules(u, args[0], where=HERE))
        elif verb == "top":
            scope = "global" if "global" in args else SCOPE
            rest, season = season_arg([a for a in args if a != "global"])
            variant = rest[0] if rest else None
            self.show(await (s.leaderboard(u, CHANNEL, scope, variant, where=HERE)
                             if season is None else
                             s.season_leaderboard(u, CHANNEL, scope, season, variant,
                                                  where=HERE)))
        elif verb == "lang":
            if not args or args[0].lower() not in ("fr", "en"):
                self.say("usage: /domino lang fr|en")
                return
            self.locales[u.id] = args[0].lower()
            self.user = User(u.id, u.name, self.locales[u.id])
            await s.store.upsert_user(u.id, u.name, self.user.locale)
            self.say(f"{u.name}: language {self.user.locale}")
        elif verb == "settings":
            pairs = [a.partition("=") for a in args]
            if not pairs or any(not sep for _, sep, _ in pairs):
                self.say("usage: /domino settings lang=fr|en timer=SECONDS "
                         "season=monthly|quarterly|never")
                return
            for key, _, value in pairs:
                self.show(await s.set_setting(u, SCOPE, key, value, is_admin=True,
                                              where=HERE))
        elif verb == "pings":
            self.show(await s.set_pings(u, args[0] if args else "", where=HERE))
        elif verb in ("stats", "history"):
            target = f"console:{args[0]}" if args else None
            call = s.stats if verb == "stats" else s.history
            self.show(await call(u, CHANNEL, target, where=HERE))
        elif verb == "web":
            await self._web(args)
        elif verb in VERBS:
            await self._table_verb(verb, args)
        else:  # a typo must not play its words as a move
            self._unknown(verb, VERBS)

    async def _tournament(self, args: list[str]) -> None:
        """/tournament FORMAT VARIANT [key=value ...] opens one (anyone may, here);
        /tournament list shows them; /tournament join|leave|start|standings|drop|export|cancel
        NUMBER acts on one; join NUMBER NAME registers with NAME (the console's user of that
        name) as one's partner."""
        s, u = self.service, self.user
        verb = args[0].lower() if args else ""
        if not args:
            self.say("usage: /tournament swiss VARIANT [rounds=N] [seats=N] ...; "
                     "/tournament list; "
                     "/tournament join|leave|start|standings|drop|export|cancel NUMBER")
        elif verb == "list":
            self.show(await s.tournament_action(u, SCOPE, verb, where=HERE))
        elif verb in TOURNAMENT_VERBS:
            if len(args) < 2:
                self.say(f"usage: /tournament {verb} NUMBER")
                return
            partner: User | str | None = None
            if verb == "join" and len(args) > 2:  # with a partner, by name
                name = args[2].lstrip("@")
                partner = (User(f"console:{name}", name) if NAME.fullmatch(name) else name)
            # the number as typed: the service reads it (bot/service/numbers.py); anyone
            # here is the console's manager, who may cancel
            self.show(await s.tournament_action(u, SCOPE, verb, args[1], partner,
                                                is_admin=True, where=HERE))
        else:
            self.show(await s.open_tournament(u, CHANNEL, SCOPE, " ".join(args), is_admin=True,
                                              where=HERE))

    async def _web(self, args: list[str]) -> None:
        """The user's own link to the web table of their table (bot/web/reply.py)."""
        from ..web.reply import web_reply

        table, _ = await self._table_arg("web", args)
        self.show(await web_reply(self.service, self.user, table, lang_for(self.user.locale),
                                  CHANNEL))

    async def _table_verb(self, verb: str, args: list[str]) -> None:
        s, u = self.service, self.user
        table, args = await self._table_arg(verb, args)
        if table is None:
            self.say(f"which table? give its number, e.g. /domino {verb} 1")
            return
        simple = {"join": s.join, "leave": s.leave, "begin": s.begin, "ai": s.add_ai,
                  "noai": s.remove_ai, "hand": s.hand, "stop": s.stop, "rematch": s.rematch,
                  "export": s.export}
        if verb in ("ai", "add-ai"):  # a level may follow the table
            self.show(await s.add_ai(u, table, args[0] if args else None, where=HERE))
        elif verb == "review":
            self.show(await s.review(u, table, where=HERE))
        elif verb in simple:
            self.show(await simple[verb](u, table, where=HERE))
        elif verb in ("draw", "pass"):
            self.show(await s.play(u, table, verb, where=HERE))
        elif not args:
            self.say("usage: /domino play [TABLE] MOVE, e.g. /play 6-4 left")
        else:
            self.show(await s.play(u, table, " ".join(args), where=HERE))

    async def _table_arg(self, verb: str, args: list[str]) -> tuple[int | None, list[str]]:
        """The table a command names (#2 or 2), else the one `Service.find_table` says the
        command means here, else the last table shown."""
        if args and re.fullmatch(r"#?\d{1,12}", args[0]):
            return int(args[0].lstrip("#")), args[1:]
        command = FIND_AS.get(verb, verb)
        if command in TABLE_FOR:
            move = (" ".join(args) or verb) if command == "play" else None
            found = await self.service.find_table(CHANNEL, self.user.id, command, move=move)
            if found is not None:
                return found, args
        return self.last_table, args


def _slot(m: Message) -> tuple[str, int | None, str | None]:
    """What a later message of a batch replaces: a table's message, a user's hand."""
    if m.kind in ("table", "result", "hand") and m.table is not None:
        return ("table" if m.kind != "hand" else "hand", m.table, m.to)
    return ("", id(m), None)


def _name(user_id: str | None) -> str:
    return (user_id or "").split(":", 1)[-1]


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _first_free_number(folder: Path | None) -> int:
    """Pictures are numbered on from those already in the folder (a restart keeps them)."""
    if folder is None or not folder.is_dir():
        return 1
    numbers = [int(p.name[:5]) for p in folder.glob("*.png") if p.name[:5].isdigit()]
    return max(numbers, default=0) + 1
