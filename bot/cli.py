"""The `domino` command: run the bot (no sub-command, or `domino bot`), list variants,
read rules, play in the terminal, simulate computer games, replay and render game records.

Every bad input (unknown variant, bad option, illegal move text, unreadable
record) ends with one line on stderr saying what is wrong and what is
allowed, and exit code 2.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from core import DominoError, IllegalMove, replay, variants
from core.ai import KINDS, make_player
from core.options import parse_pairs

from .console import textboard
from .service.rules_pages import rules_page


class UsageError(Exception):
    """A command-line mistake: printed as one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line (and where to find help), exit code 2."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


# keywords of `variants.get(slug).new()` that have their own flag, not NAME=VALUE options
FLAGS = {"players": "--players", "seed": "--seed"}


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    try:
        args, unknown = parser.parse_known_args(argv)
        # words after the variant are its options (`_options` says which are not NAME=VALUE)
        stray = [u for u in unknown if u.startswith("-")]
        if stray or (unknown and not hasattr(args, "extra")):
            parser.error(f"unrecognized arguments: {' '.join(stray or unknown)}")
        if unknown:
            args.extra = [*args.extra, *unknown]
        if not getattr(args, "func", None):
            return cmd_bot(args)
        return int(args.func(args) or 0)
    except (DominoError, UsageError, ValueError, FileNotFoundError, ImportError) as exc:
        print(f"domino: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0


def _quiet_stdout() -> None:
    """The reader closed the pipe (`domino rules matador | head`): end quietly, and point
    stdout at nothing so that the interpreter's last flush does not complain either."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


# -- subcommands --------------------------------------------------------------


def cmd_bot(args: argparse.Namespace) -> int:
    """The bot: Discord and/or Telegram when their tokens are set, else the console chat."""
    from .app import main as run_bot

    return run_bot()


def cmd_variants(args: argparse.Namespace) -> int:
    rows = []
    for slug in variants.names():
        d = variants.get(slug).describe()
        lo, hi = d["players"]
        count = str(lo) if lo == hi else f"{lo}-{hi}"
        rows.append((slug, d["names"]["fr"], d["names"]["en"], count))
    if args.json:
        print(json.dumps([variants.get(s).describe() for s in variants.names()], indent=2,
                         ensure_ascii=False))
        return 0
    widths = [max(len(r[i]) for r in [*rows, ("slug", "français", "english", "players")])
              for i in range(4)]
    head = ("slug", "français", "english", "players")
    print("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    print(rules_page(args.variant))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    variant = variants.get(args.variant)
    players = args.players if args.players is not None else variant.default_players
    if not 0 <= args.ai <= players:
        raise UsageError(f"--ai must be from 0 to the number of players ({players}), got {args.ai}")
    game = variant.new(players=players, seed=args.seed, **_options(args))
    humans = players - args.ai
    names = [f"Player {i + 1}" if i < humans else f"CPU {i + 1 - humans}"
             for i in range(players)]
    bots = {s: make_player(args.ai_kind, game.seed + s) for s in range(humans, players)}
    out: TextIO = sys.stdout
    images = Path(args.images) if args.images else None
    if images:
        images.mkdir(parents=True, exist_ok=True)
    print(f"{variant.names['en']} — {players} players, seed {game.seed}. "
          f"Type a move number or its notation ({EXAMPLE.get(variant.family, EXAMPLE['line'])})"
          "; 'help' or 'quit'.", file=out)
    shown_turn = -1
    asked_turn = -1  # the turn whose table was printed: a bad entry or help asks again only
    while not game.over:
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        for line in textboard.events_text(view, names):
            print(line, file=out)
        if images and game.turn != shown_turn:
            _write_images(images, game, seat if seat < humans else None, names)
            shown_turn = game.turn
        if seat in bots:
            move = bots[seat].choose(game)
            print(f"{names[seat]} plays {move}.", file=out)
            game.play(move)
            continue
        if asked_turn != game.turn:
            asked_turn = game.turn
            print("", file=out)
            print(textboard.table_text(view, names), file=out)
            print(textboard.board_text(view, names), file=out)
            print(f"{names[seat]}, your turn.", file=out)
            print(textboard.hand_text(view), file=out)
        text = _ask(f"{names[seat]}> ")
        if text is None or text.strip().lower() in {"quit", "exit", "q"}:
            print("Game abandoned. Record:", file=out)
            print(json.dumps(game.record()), file=out)
            return 0
        if text.strip().lower() in {"help", "?", "h"}:
            print("Type the number of a move, or write it: "
                  f"{HELP.get(variant.family, HELP['line'])}.", file=out)
            continue
        try:
            move = _pick(game, text)
            game.play(move)
        except IllegalMove as exc:
            print(f"Not allowed: {exc}", file=out)
            continue
        print(f"{names[seat]} plays {move}.", file=out)
    view = game.view(None)
    for line in textboard.events_text(view, names):
        print(line, file=out)
    print(textboard.board_text(view, names), file=out)
    assert game.result is not None
    print(textboard.result_text(game.result, names, view), file=out)
    if images:
        _write_images(images, game, None, names)
    if args.save:
        Path(args.save).write_text(json.dumps(game.record(), indent=1), encoding="utf-8")
        print(f"Record saved to {args.save}", file=out)
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    variant = variants.get(args.variant)
    players = args.players if args.players is not None else variant.default_players
    variant.check_players(players)
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, got {args.games}")
    options = _options(args)
    wins = [0.0] * players
    rounds = 0
    contracts = [0, 0]  # made, played (trick games: each round is a contract)
    start = time.perf_counter()
    base = args.seed if args.seed is not None else 0
    for i in range(args.games):
        game = variant.new(players=players, seed=base + i, **options)
        bots = [make_player(args.ai, (base + i) * 31 + s) for s in range(players)]
        while not game.over:
            seat = game.to_move
            assert seat is not None
            game.play(bots[seat].choose(game))
        result = game.result
        assert result is not None
        for s in result["winners"]:
            wins[s] += 1 / len(result["winners"])
        rounds += result["rounds"]
        for past in game.round_results:
            if "made" in past:
                contracts[0] += bool(past["made"])
                contracts[1] += 1
    elapsed = time.perf_counter() - start
    print(f"{variant.slug}: {args.games} games, {players} players, {args.ai} players, "
          f"options {options or 'default'}")
    for s in range(players):
        print(f"  seat {s + 1}: win rate {wins[s] / args.games:6.1%}")
    print(f"  average rounds per game: {rounds / args.games:.2f}")
    if contracts[1]:
        print(f"  contracts made: {contracts[0] / contracts[1]:6.1%} of {contracts[1]}")
    print(f"  games per second: {args.games / elapsed:,.0f}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    record = _read_record(args.file)
    game = replay(record)
    if not game.over:
        print(f"Replayed {len(game.moves)} moves: the game is not over; "
              f"{textboard.seat_name({}, game.to_move)} is to move.")
        return 0
    assert game.result is not None
    print(f"Replayed {len(game.moves)} moves of {record['variant']}: every move is legal.")
    stored = record.get("result")
    if stored is not None and stored != game.result:
        raise UsageError("the record's stored result differs from the replayed one")
    print(textboard.result_text(game.result, None, game.view(None)))
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    """A consistent copy of the SQLite database while the bot runs (bot/storage/backup.py)."""
    from .storage.backup import BackupError, backup

    database = _database()
    try:
        counts = backup(database, args.file)
    except BackupError as exc:
        raise UsageError(str(exc)) from None
    print(f"Backed up {database} to {args.file}: {_counts(counts)}.")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """Replace the SQLite database by a checked backup; refused while a bot uses it."""
    from .storage.backup import BackupError, restore

    database = _database()
    try:
        counts = restore(database, args.file)
    except BackupError as exc:
        raise UsageError(str(exc)) from None
    print(f"Restored {args.file} into {database}: {_counts(counts)}; the replaced database "
          f"is kept as {database}.pre-restore.")
    return 0


def _database() -> Path | str:
    """DOMINO_DB as the bot reads it (environment over .env)."""
    from .config import Settings

    return Settings.from_env().database


def _counts(counts: dict[str, int]) -> str:
    return (f"schema version {counts['version']}, {counts['tables']} tables, "
            f"{counts['moves']} moves, {counts['games']} finished games")


def cmd_render(args: argparse.Namespace) -> int:
    import render

    record = _read_record(args.file)
    game = replay({**record, "moves": []})
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for i, text in enumerate([*record.get("moves", []), None]):
        (out / f"{i:03d}.png").write_bytes(render.position_png(game.view(None)))
        count += 1
        if text is None:
            break
        game.play(game.parse_move(text))
    print(f"Wrote {count} pictures to {out}")
    return 0


# -- helpers -------------------------------------------------------------------

EXAMPLE = {  # a move of each family, in the notation `parse_move` reads
    "line": "'6-4 left'", "grid": "'5-3 4-4 2-2 C4 right'", "stack": "'6-4 on 3 east'",
    "tricks": "'bid 30', '6-4'", "memory": "'B3'", "solitaire": "'4-4 4-0'",
    "puzzle": "'6-6 D1 E1'",
}
HELP = {  # how each family's moves are written (`help` in `domino play`)
    "line": "'6-4 left', '6-4 right', '6-4' when it fits one end only, 'draw' or 'pass' when "
            "offered",
    "grid": "the tiles in order along the line (each written with the half that comes first), "
            "the cell of the first half and the direction the line goes, like "
            "'5-3 4-4 2-2 C4 right' or '7-1 1-2 M10 down'; 'pass' when offered",
    "stack": "the tile, 'on' or 'under' (or 'next' in quinconce) and the number of the tile it "
             "goes against (with the half, 'e', 'w', 'n' or 's', of a double), then where its "
             "other half points, like '6-4 on 3 east' or '6-4 under 1e north'",
    "tricks": "'pass', 'bid 30', 'trumps 5', or the tile you play, like '6-4'",
    "memory": "the cell to turn up, like 'B3'",
    "solitaire": "the two face-up tiles to remove, totalling 12, like '4-4 4-0'",
    "puzzle": "the tile and the two cells its halves go on, like '6-6 D1 E1'; 'remove D1', "
              "'hint 1' to 'hint 4', 'give up'",
}


def _options(args: argparse.Namespace) -> dict[str, Any]:
    options = dict(parse_pairs([*args.option, *getattr(args, "extra", [])]))
    for name, flag in FLAGS.items():
        if name in options:
            raise UsageError(f"{name} is not a variant option: give it as {flag} "
                             f"{options[name]}")
    return options


def _pick(game: Any, text: str) -> Any:
    text = text.strip()
    if text.isdigit():
        legal = game.legal_moves()
        index = int(text)
        if not 1 <= index <= len(legal):
            raise IllegalMove(f"there are {len(legal)} moves; type a number from 1 to {len(legal)}")
        return legal[index - 1]
    return game.parse_move(text)


def _ask(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def _read_record(path: str) -> dict[str, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(record, dict):
        raise UsageError(f"{path} is not a game record")
    return record


def _write_images(folder: Path, game: Any, seat: int | None, names: list[str]) -> None:
    import render

    turn = game.turn
    (folder / f"turn{turn:03d}-table.png").write_bytes(render.position_png(game.view(None), names))
    if seat is not None:
        (folder / f"turn{turn:03d}-hand.png").write_bytes(render.hand_png(game.view(seat)))


def _parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="domino", description="Dominoes: every variant of the books. With no command, "
        "runs the bot (settings from the environment or .env: DOMINO_DB, DOMINO_LANG, "
        "DOMINO_AI_DELAY, DOMINO_PICTURES, DOMINO_LOG, DISCORD_TOKEN, TELEGRAM_TOKEN, "
        "TELEGRAM_API_URL).")
    sub = p.add_subparsers(title="commands", parser_class=Parser)

    s = sub.add_parser("bot", help="run the bot (the default): Discord and/or Telegram when "
                       "DISCORD_TOKEN / TELEGRAM_TOKEN are set, else a chat in this terminal")
    s.set_defaults(func=cmd_bot)

    s = sub.add_parser("variants", help="list the variants")
    s.add_argument("--json", action="store_true", help="print names, players and options as JSON")
    s.set_defaults(func=cmd_variants)

    s = sub.add_parser("rules", help="print the rules of a variant")
    s.add_argument("variant")
    s.set_defaults(func=cmd_rules)

    def option_args(s: argparse.ArgumentParser) -> None:
        s.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                       help="a variant option, e.g. -o draw=block (repeatable)")
        # NAME=VALUE words after the variant are gathered by `main` (an optional positional
        # would be listed as "required" when the variant is missing)
        s.set_defaults(extra=[])
        s.usage = "%(prog)s [options] variant [NAME=VALUE ...]"
        s.epilog = "NAME=VALUE after the variant: a variant option, as with -o."

    s = sub.add_parser("play", help="play in the terminal against computer players")
    s.add_argument("variant")
    s.add_argument("--players", type=int, default=None)
    s.add_argument("--ai", type=int, default=1, help="how many seats the computer plays")
    s.add_argument("--ai-kind", choices=KINDS, default="greedy")
    s.add_argument("--seed", type=int, default=None)
    s.add_argument("--images", metavar="DIR", help="write the table and hand pictures each turn")
    s.add_argument("--save", metavar="FILE", help="save the game record at the end")
    option_args(s)
    s.set_defaults(func=cmd_play)

    s = sub.add_parser("simulate", help="computer self-play: win rates and speed")
    s.add_argument("variant")
    s.add_argument("--games", type=int, default=100)
    s.add_argument("--players", type=int, default=None)
    s.add_argument("--seed", type=int, default=None)
    s.add_argument("--ai", choices=KINDS, default="greedy")
    option_args(s)
    s.set_defaults(func=cmd_simulate)

    s = sub.add_parser("replay", help="check a game record move by move and print the result")
    s.add_argument("file")
    s.set_defaults(func=cmd_replay)

    s = sub.add_parser("render", help="draw every position of a game record as PNG")
    s.add_argument("file")
    s.add_argument("--out", required=True, metavar="DIR")
    s.set_defaults(func=cmd_render)

    s = sub.add_parser("backup", help="copy the SQLite database (DOMINO_DB) to FILE, while "
                       "the bot runs")
    s.add_argument("file")
    s.set_defaults(func=cmd_backup)

    s = sub.add_parser("restore", help="replace the SQLite database (DOMINO_DB) by the backup "
                       "FILE (the bot must be stopped)")
    s.add_argument("file")
    s.set_defaults(func=cmd_restore)
    return p


if __name__ == "__main__":
    sys.exit(main())
