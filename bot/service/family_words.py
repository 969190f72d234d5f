"""The words of the game families other than the line games, in French or English.

Button labels for moves and for the words of a move being built, the public lines of a
table (bids and trumps, the tower's height, the memory grid, the patience columns, a
puzzle's broken lines, the markers of vingt), event sentences and result lines.  Public
text is built from the public view only (its `view` argument); a label from the seat's own
view at most.
"""

from __future__ import annotations

from typing import Any

from core import variants

from ..i18n import t, tn


def family_of(view: dict[str, Any]) -> str:
    """The core family of a view's variant ("line", "tricks", "puzzle"...)."""
    try:
        return variants.get(view.get("variant", "")).family
    except Exception:  # an unknown slug: treat it as a line game
        return "line"


def seat_name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat}"


# -- the trick games ------------------------------------------------------------------------

def trump_name(value: Any, lang: str) -> str:
    """"fives", "blanks", "nello"... for trumps 5, 0, nello."""
    names = {
        "0": t(lang, "blanks"), "1": t(lang, "ones"), "2": t(lang, "twos"),
        "3": t(lang, "threes"), "4": t(lang, "fours"), "5": t(lang, "fives"),
        "6": t(lang, "sixes"), "nello": t(lang, "nello"), "sevens": t(lang, "sevens"),
        "7": t(lang, "sevens"), "8": t(lang, "nello"), "doubles": t(lang, "doubles"),
        "follow-me": t(lang, "follow-me, doubles high"),
        "follow-me-low": t(lang, "follow-me, doubles low"),
        "nello-low": t(lang, "nello, doubles low"),
        "nello-doubles": t(lang, "nello, doubles apart"),
    }
    return names.get(str(value), str(value))


def special_name(word: str, lang: str) -> str | None:
    """"plunge", "splash" in the player's words (None for another word)."""
    return {"plunge": t(lang, "plunge"), "splash": t(lang, "splash")}.get(word)


def bid_text(bid: str, lang: str) -> str:
    """"30" -> "30"; "2 marks" -> "2 marks"; "pass" -> "pass" (translated)."""
    words = str(bid).split()
    if words == ["pass"]:
        return t(lang, "no bid")
    special = special_name(words[0], lang) if words else None
    if special is not None:
        rest = bid_text(" ".join(words[1:]), lang) if words[1:] else ""
        return f"{special} ({rest})" if rest else special
    if len(words) == 2 and words[0].isdigit() and words[1].startswith("mark"):
        n = int(words[0])
        return tn(lang, "{n} mark", "{n} marks", n)
    return str(bid)


def tricks_label(move: str, lang: str) -> str | None:
    words = move.split()
    if move == "pass":
        return t(lang, "Pass")
    if move == "lay down":
        return t(lang, "Lay down")
    if words[:1] == ["bid"] and len(words) == 2 and special_name(words[1], lang):
        return t(lang, "Bid {bid}", bid=special_name(words[1], lang))
    if words[:1] == ["bid"]:
        return t(lang, "Bid {bid}", bid=bid_text(" ".join(words[1:]), lang))
    if words[:1] == ["trumps"] and len(words) == 2:
        return t(lang, "Trumps: {suit}", suit=trump_name(words[1], lang))
    return None


def tricks_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    out: list[str] = []
    phase = view.get("phase")
    bids = view.get("bids") or []
    if phase == "bidding" or (bids and not view.get("contract")):
        said = ", ".join(f"{seat_name(names, b['seat'])} {bid_text(b['bid'], lang)}"
                         for b in bids) or t(lang, "none yet")
        out.append(t(lang, "Bidding. Bids: {bids}", bids=said))
    contract = view.get("contract")
    if contract:
        line = t(lang, "Contract: {who} bid {bid}", who=seat_name(names, contract["seat"]),
                 bid=bid_text(contract.get("text", contract.get("bid")), lang))
        if view.get("trumps") is not None:
            line += " · " + t(lang, "trumps: {suit}", suit=trump_name(view["trumps"], lang))
        elif phase == "trumps":
            line += " · " + t(lang, "naming trumps")
        out.append(line)
    trick = view.get("trick") or []
    if trick:
        out.append(t(lang, "On the table: {tiles}", tiles=", ".join(
            f"{seat_name(names, p['seat'])} {p['tile']}" for p in trick)))
    teams = view.get("teams") or []
    if teams and view.get("team_points") is not None and contract:
        out.append(t(lang, "This hand: {counts}", counts=" · ".join(
            f"{'+'.join(seat_name(names, s) for s in team)} {pts}"
            for team, pts in zip(teams, view["team_points"], strict=False))))
    if teams and view.get("team_scores") is not None:
        unit = view.get("target_unit")
        scores = " · ".join(
            f"{'+'.join(seat_name(names, s) for s in team)} "
            + (tn(lang, "{n} mark", "{n} marks", score) if unit == "marks" else str(score))
            for team, score in zip(teams, view["team_scores"], strict=False))
        if unit == "marks":
            out.append(t(lang, "Marks (game to {target}): {scores}", scores=scores,
                         target=view.get("target")))
        else:
            out.append(t(lang, "Team scores: {scores}", scores=scores))
    return out


def last_tricks(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The tricks taken this hand; before the first, those of the hand that just ended."""
    return list(view.get("tricks") or ((view.get("last_round") or {}).get("board") or {})
                .get("tricks") or [])


def last_trick_text(view: dict[str, Any], names: list[str], lang: str) -> str:
    """The last trick taken (public), in words."""
    tricks = last_tricks(view)
    if not tricks:
        return t(lang, "No trick has been taken yet.")
    last = tricks[-1]
    tiles = ", ".join(f"{seat_name(names, p['seat'])} {p['tile']}" for p in last["tiles"])
    return tn(lang, "Last trick: {tiles}. {who} takes it ({n} point).",
              "Last trick: {tiles}. {who} takes it ({n} points).", last.get("points", 0),
              tiles=tiles, who=seat_name(names, last["winner"]))


# -- the stacking games ---------------------------------------------------------------------

def stack_word(word: str, lang: str) -> str:
    words = {"on": t(lang, "on"), "under": t(lang, "under"), "next": t(lang, "next to"),
             "east": t(lang, "east"), "west": t(lang, "west"), "north": t(lang, "north"),
             "south": t(lang, "south")}
    return words.get(word, word)


def stack_label(move: str, view: dict[str, Any], lang: str) -> str:
    """"6-2 on 4 east" -> "6-2 on 4 east · fall 2%" (the risk from the seat's view)."""
    text = " ".join(stack_word(w, lang) for w in move.split())
    risk = (view.get("risks") or {}).get(move)
    if risk is None:
        return text
    return t(lang, "{move} · fall {risk}%", move=text, risk=round(100 * float(risk)))


def lowest_risk(label: str, prefix: str, moves: set[str] | list[str], view: dict[str, Any],
                lang: str) -> str:
    """A step's button ("6-2", "on", "tile 3") with the lowest fall risk of the moves it
    leads to ("6-2 · from 2%"); as is when the view has no risks."""
    risks = view.get("risks") or {}
    found = [float(risks[m]) for m in moves if m.startswith(prefix + " ") and m in risks]
    if not found:
        return label
    return t(lang, "{word} · from {risk}%", word=label, risk=round(100 * min(found)))


def stack_lines(view: dict[str, Any], lang: str) -> list[str]:
    out = [t(lang, "Height: {height} · falls so far: {falls}", height=view.get("height", 0),
             falls=view.get("falls", 0))]
    mode = view.get("mode")
    if mode:
        out.append(t(lang, "Next play: {mode}", mode=t(lang, "flat") if mode == "flat"
                     else t(lang, "on top")))
    return out


# -- memory and patience ----------------------------------------------------------------------

def memory_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    out = [tn(lang, "{n} tile face down.", "{n} tiles face down.", view.get("face_down", 0))]
    turned = view.get("turned") or []
    if turned:
        out.append(t(lang, "Turned up: {tiles}", tiles=", ".join(
            f"{x['cell']} {x['tile']}" for x in turned)))
    for seat, kept in enumerate(view.get("kept") or []):
        if kept:
            out.append(t(lang, "{who} kept {tiles}", who=seat_name(names, seat),
                         tiles=", ".join(kept)))
    return out


def patience_lines(view: dict[str, Any], lang: str) -> list[str]:
    cols = view.get("columns") or []
    shown = " · ".join(
        (c["up"] or "—") + (f" (+{c['hidden']})" if c.get("hidden") else "") for c in cols)
    out = [t(lang, "Columns: {columns}", columns=shown)]
    removed = view.get("removed") or []
    out.append(tn(lang, "{n} pair removed.", "{n} pairs removed.", len(removed)))
    return out


# -- the puzzles --------------------------------------------------------------------------------

def hint_name(level: str, lang: str) -> str:
    return {"1": t(lang, "What is broken?"), "2": t(lang, "Can it still be solved?"),
            "3": t(lang, "A placement"), "4": t(lang, "A value")}.get(level, "?")


def puzzle_label(move: str, lang: str) -> str | None:
    words = move.split()
    if move == "give up":
        return t(lang, "Give up")
    if words[:1] == ["hint"]:
        if len(words) == 1:
            return t(lang, "Hints…")
        return t(lang, "Hint {n}: {what}", n=words[1], what=hint_name(words[1], lang))
    if words[:1] == ["remove"]:
        return t(lang, "Remove {cell}", cell=" ".join(words[1:])) if len(words) > 1 \
            else t(lang, "Remove…")
    if words[:1] == ["give"]:
        return t(lang, "Give up")
    return None


def broken_text(b: dict[str, Any], lang: str) -> str:
    template = b.get("template")
    if template:
        return t(lang, template, **b.get("values", {}))
    return str(b.get("text", ""))


def puzzle_lines(view: dict[str, Any], lang: str) -> list[str]:
    out = [tn(lang, "{n} tile left to place", "{n} tiles left to place",
              view.get("tiles_left", 0)) + " · "
           + tn(lang, "{n} hint used", "{n} hints used", view.get("hints", 0))]
    broken = view.get("broken") or []
    for b in broken[:3]:
        out.append(t(lang, "Broken: {what}", what=broken_text(b, lang)))
    return out


# -- vingt ---------------------------------------------------------------------------------

def grid_word(word: str, lang: str) -> str:
    words = {"right": t(lang, "→ right"), "down": t(lang, "↓ down"), "left": t(lang, "← left"),
             "up": t(lang, "↑ up"), "pass": t(lang, "Pass")}
    return words.get(word, word)


def grid_label(move: str, lang: str) -> str:
    if move == "pass":
        return t(lang, "Pass")
    return " ".join(grid_word(w, lang) if w != "pass" else w for w in move.split())


def pips(words: list[str]) -> int:
    """The pips of the tiles among `words` ("5-3", "4-4", cells and directions skipped)."""
    total = 0
    for w in words:
        a, sep, b = w.partition("-")
        if sep and a.isdigit() and b.isdigit():
            total += int(a) + int(b)
    return total


def grid_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    markers = view.get("markers") or []
    out = [t(lang, "Markers left: {list}", list=" · ".join(
        f"{seat_name(names, s)} {n}" for s, n in enumerate(markers)))] if markers else []
    last = view.get("last_play")
    if last and last.get("lines"):
        out.append(t(lang, "Lines of 20: {lines}", lines=", ".join(
            f"{x['from']}–{x['to']}" for x in last["lines"])))
    return out


# -- every family -----------------------------------------------------------------------------

def move_label(family: str, move: str, view: dict[str, Any], lang: str) -> str:
    """A whole move as a button label."""
    if family == "tricks":
        return tricks_label(move, lang) or move
    if family == "stack":
        return stack_label(move, view, lang)
    if family == "puzzle":
        return puzzle_label(move, lang) or move
    if family == "solitaire":
        return " + ".join(move.split())
    if family == "grid":
        return grid_label(move, lang)
    return move


def summary_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The family's public state, for the table message."""
    family = family_of(view)
    if family == "tricks":
        return tricks_lines(view, names, lang)
    if family == "stack":
        return stack_lines(view, lang)
    if family == "memory":
        return memory_lines(view, names, lang)
    if family == "solitaire":
        return patience_lines(view, lang)
    if family == "puzzle":
        return puzzle_lines(view, lang)
    if family == "grid":
        return grid_lines(view, names, lang)
    return []


def count(value: Any) -> int:
    """A count given as a number or as the list of what is counted."""
    return value if isinstance(value, int) else len(value or [])


def event_line(e: dict[str, Any], names: list[str], lang: str) -> str | None:
    """An event of the new families as a sentence (None when not one of theirs)."""
    kind = e.get("type")
    who = seat_name(names, e["seat"]) if "seat" in e else ""
    if kind == "trick":
        return t(lang, "{who} takes the trick.", who=who)
    if kind == "fall":
        return tn(lang, "Crash! {n} tile falls: {who} takes it back.",
                  "Crash! {n} tiles fall: {who} takes them back.", count(e.get("tiles")),
                  who=who)
    if kind == "turn_up":
        if "cell" in e:
            return t(lang, "{who} turns up {cell}: {tile}.", who=who, cell=e["cell"],
                     tile=e["tile"])
        return t(lang, "{tile} is turned up.", tile=e["tile"])
    if kind == "back":
        return t(lang, "No pair: the tiles are turned back.")
    if kind == "keep":
        return t(lang, "{who} keeps the pair.", who=who)
    if kind == "remove":
        return t(lang, "{who} removes {tiles}.", who=who, tiles=" + ".join(e.get("tiles", [])))
    if kind == "markers":
        return t(lang, "{who} places markers.", who=who)
    return None


def score_reason(why: str, lang: str) -> str | None:
    return {"taken": t(lang, "points taken"), "contract made": t(lang, "contract made"),
            "contract set": t(lang, "contract set"),
            "over the contract": t(lang, "points over the contract, counted double"),
            "pair": t(lang, "a pair"), "markers": t(lang, "markers placed")}.get(why)


def end_reason(reason: str, lang: str) -> str | None:
    return {"set": t(lang, "the contract is set"), "made": t(lang, "the contract is made"),
            "stuck": t(lang, "no pair totals 12"), "cleared": t(lang, "every tile is gone"),
            "no pair": t(lang, "the last tiles cannot pair"),
            "solved": t(lang, "the puzzle is solved"), "gave up": t(lang, "given up"),
            "markers": t(lang, "every marker is placed")}.get(reason)


def move_line(move: str, view: dict[str, Any], names: list[str], lang: str, mover: int
              ) -> str | None:
    """The sentence for a move of the new families ("bids 30", "names trumps"); "" when
    the events say it all, None when the usual sentence does."""
    words = move.split()
    who = seat_name(names, mover)
    if move == "pass" and "bids" in view:
        return t(lang, "{who} passes.", who=who)
    if "face_down" in view or "columns" in view:
        return ""  # memory and patience: their events say what was turned up or removed
    if "construction" in view and move != "pass" and len(words) > 1:
        return t(lang, "{who} plays {move}.", who=who, move=" ".join(
            stack_word(w, lang) for w in words))
    if "markers" in view and move != "pass" and len(words) > 1:
        return t(lang, "{who} plays {move}.", who=who, move=grid_label(move, lang))
    if move == "lay down":
        return t(lang, "{who} lays the hand down: its result is decided.", who=who)
    if words[:1] == ["bid"]:
        return t(lang, "{who} bids {bid}.", who=who, bid=bid_text(" ".join(words[1:]), lang))
    if words[:1] == ["trumps"] and len(words) == 2:
        return t(lang, "{who} names trumps: {suit}.", who=who, suit=trump_name(words[1], lang))
    if words[:1] == ["hint"] and len(words) == 2:
        return t(lang, "{who} asks for hint {n}.", who=who, n=words[1])
    if move == "give up":
        return t(lang, "{who} gives up.", who=who)
    return None


def duration(seconds: float, lang: str) -> str:
    whole = max(0, round(seconds))
    if whole < 60:
        return tn(lang, "{n} second", "{n} seconds", whole)
    return t(lang, "{m} min {s} s", m=whole // 60, s=whole % 60)


def solo_outcome(result: dict[str, Any], moves: int, lang: str) -> str:
    """How a one-seat game ended, in a few words: a puzzle "solved in 3 min 5 s" or "given
    up after ...", a patience "won in 14 moves" or "lost after 6 moves"."""
    if "hint_levels" in result:
        took = result.get("seconds")
        when = duration(float(took), lang) if took is not None else None
        if result.get("reason") == "solved":
            return t(lang, "solved in {time}", time=when) if when else t(lang, "solved")
        return t(lang, "given up after {time}", time=when) if when else t(lang, "given up")
    if result.get("winners"):
        return tn(lang, "won in {n} move", "won in {n} moves", moves)
    return tn(lang, "lost after {n} move", "lost after {n} moves", moves)


def result_lines(result: dict[str, Any], lang: str) -> list[str]:
    """The result of a one-seat game: a puzzle's time and hints, or how a patience ended and
    whether the deal could have been won."""
    out: list[str] = []
    if "hint_levels" in result:
        if result.get("reason") == "solved":
            took = duration(result["seconds"], lang) if result.get("seconds") is not None \
                else "?"
            out.append(tn(lang, "Solved in {time} with {n} hint.",
                          "Solved in {time} with {n} hints.", result.get("hints", 0),
                          time=took))
        else:
            out.append(t(lang, "Given up."))
        return out
    reason = str(result.get("reason", ""))
    won = bool(result.get("winners"))
    out.append(t(lang, "Game over: won ({reason}).", reason=end_reason(reason, lang) or reason)
               if won else t(lang, "Game over: lost ({reason}).",
                             reason=end_reason(reason, lang) or reason))
    if "winnable" in result:
        out.append(t(lang, "This deal could have been won.") if result["winnable"]
                   else t(lang, "This deal could not be won."))
    if result.get("solution") and not won:  # the line the search found
        out.append(t(lang, "A winning line: {moves}.", moves=", ".join(
            move_label("solitaire", m, {}, lang) for m in result["solution"])))
    return out
