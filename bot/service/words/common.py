"""The words every family shares: seats' names, how a match is won, the table's seat lines,
the score sheet of a round and the result of a match of several seats.

Built from the public view only (``view["last_round"]``: every hand revealed with its pips,
each scorer's lines with a reason code and points; ``view["history"]``: what each scorer
scored in every round, and the running totals), so nothing hidden can be named.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import Any

from render import words as render_words

from ...i18n import t, tn, translator


def seat_label(names: list[str], seat: int, lang: str = "en") -> str:
    """A seat's name, else "Seat 2" (counted from 1, as in the pictures)."""
    return render_words.seat_label(names, seat, translator(lang))


def who_list(names: list[str], seats: list[int], lang: str = "en") -> str:
    return ", ".join(seat_label(names, s, lang) for s in seats)


def seat_name(names: list[str], seat: int) -> str:
    """A seat's name, else "#2" (the families' own lines)."""
    return names[seat] if 0 <= seat < len(names) else f"#{seat}"


# -- the table message ----------------------------------------------------------------------

def goal_text(view: dict[str, Any], lang: str) -> str | None:
    """How the match is won: "match to 100", "reaching 50 loses", "first down to 0"..."""
    target = view.get("target")
    if target is None:
        rounds = view.get("rounds")
        return tn(lang, "{n} round", "{n} rounds", rounds) if rounds else None
    if view.get("target_reach") == "loses":
        return t(lang, "reaching {target} loses: the last one left wins", target=target)
    if target == 0:
        return t(lang, "the first down to 0 wins")
    return t(lang, "match to {target}", target=target)


def status_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The variant's running state: ends count, unclaimed points, pot, round total, what
    each end takes (the pictures' strip says the same: `render.words.status_lines`)."""
    return render_words.status_lines(view, names, translator(lang))


def seat_line(view: dict[str, Any], names: list[str], lang: str, seat: int) -> str:
    """One seat of the table: its tiles (in hand, or the game's own count: kept, left),
    score, and what the variant adds."""
    line = t(lang, "{who}: {tiles}, {points}", who=seat_label(names, seat, lang),
             tiles=render_words.seat_tiles(view, seat, translator(lang)),
             points=tn(lang, "{n} point", "{n} points", view["scores"][seat]))
    if "chips" in view:
        line += " · " + tn(lang, "{n} chip", "{n} chips", view["chips"][seat])
    if "captured" in view and view["captured"][seat]["tiles"]:
        pile = view["captured"][seat]
        line += " · " + tn(lang, "captured {n} tile ({points} points)",
                           "captured {n} tiles ({points} points)", pile["tiles"],
                           points=pile["points"])
    if "laid" in view:
        line += " · " + t(lang, "laid {n} this round", n=view["laid"][seat])
    if seat in view.get("gone", []):
        line += " · " + t(lang, "out of the match")
    return line


# -- the builder's hand message: what a family without its own says ---------------------------

def hand_lines(view: dict[str, Any], moving: bool, lang: str) -> list[str]:
    """The seat's tiles, when it holds some."""
    hand = view.get("hand") or []
    return [t(lang, "Your tiles: {tiles}", tiles=", ".join(hand))] if hand else []


def ask(view: dict[str, Any], prefix: str, lang: str) -> str:
    return t(lang, "Your move.")


# -- the score sheet of a round --------------------------------------------------------------

def round_just_ended(view: dict[str, Any]) -> bool:
    """Whether the move just made ended a round (a new one began, or the match is over)."""
    if not view.get("last_round"):
        return False
    return bool(view.get("over")) or any(e["type"] == "round" for e in view.get("events", []))


def scorer_name(names: list[str], seats: list[int]) -> str:
    """A lone seat's name, or a team's names joined with "&"."""
    return " & ".join(seat_label(names, s) for s in seats)


def line_label(line: dict[str, Any], names: list[str], lang: str) -> str:
    """What one score-sheet line is for, in words (the seed's own column names)."""
    code, detail = line["code"], line.get("detail", "")
    if code in ("hands", "worst", "difference"):
        parts = []
        for f in line.get("from", []):
            pips = (f"{f['pips']}→{f['counted']}" if f["counted"] != f["pips"]
                    else str(f["pips"]))
            parts.append(f"{scorer_name(names, f['seats'])} {pips}")
        held = ", ".join(parts)
        if code == "worst":
            return t(lang, "the worst hand ({held})", held=held)
        if code == "difference":
            return t(lang, "the difference ({held} against {own})", held=held,
                     own=line.get("own", 0))
        return t(lang, "the others' hands ({held})", held=held) if held else t(
            lang, "the others' hands")
    if code == "capture":
        return t(lang, "capture of {tiles}", tiles=", ".join(detail.split("+")))
    if code == "ends":
        return t(lang, "the ends count {n}", n=detail) if detail else t(lang, "the ends")
    if code == "pips":
        return t(lang, "{n} pips left in the other hands", n=detail)
    fixed = {
        "lead": t(lang, "first player"),
        "double cap": t(lang, "double cap"),
        "triple cap": t(lang, "triple cap"),
        "out": t(lang, "domino"),
        "blocked": t(lang, "winner of the blocked game"),
        "laid": t(lang, "tiles laid"),
        "muggins": t(lang, "Muggins!"),
        "round": t(lang, "round won"),
        "held": t(lang, "pips in hand"),
        "kept": t(lang, "pips kept"),
    }
    return fixed.get(code, code)


def grouped_lines(lines: list[dict[str, Any]], names: list[str], lang: str
                  ) -> list[tuple[str, int]]:
    """The lines of one scorer, those of one kind together ("double cap ×2", 4)."""
    out: dict[str, list[int]] = {}
    for line in lines:
        key = line_label(line, names, lang) if line["code"] not in (
            "capture", "ends", "laid") else line["code"]
        out.setdefault(key, []).append(line["points"])
    words = {"capture": t(lang, "captures"), "ends": t(lang, "the ends"),
             "laid": t(lang, "tiles laid")}
    shown = []
    for key, points in out.items():
        label = words.get(key, key)
        if len(points) > 1:
            label += f" x{len(points)}"
        shown.append((label, sum(points)))
    return shown


def sheet_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The score sheet of the round that just ended: each hand with its pips, then what
    each seat or team scored and why, and the running totals against the target."""
    last = view["last_round"]
    sign = "-" if last.get("countdown") else "+"
    lines = [t(lang, "Score sheet of round {n}:", n=last["round"])]
    hands = []
    for seat, (hand, pips) in enumerate(zip(last["hands"], last["pips"], strict=False)):
        if seat in view.get("gone", []) and seat not in last.get("gone", []):
            continue
        tiles = " ".join(hand) if hand else t(lang, "no tile")
        hands.append(tn(lang, "{who}: {tiles} ({n} pip)", "{who}: {tiles} ({n} pips)", pips,
                        who=seat_label(names, seat), tiles=tiles))
    lines.append(t(lang, "Hands: {hands}", hands=" · ".join(hands)))
    target = view.get("target")
    for i, seats in enumerate(last["scorers"]):
        items = [f"{label} {sign}{p}" for label, p in grouped_lines(last["lines"][i], names,
                                                                       lang)]
        scored = " · ".join(items) if items else t(lang, "nothing")
        total = last["totals"][i]
        standing = (t(lang, "total {total} of {target}", total=total, target=target)
                    if target is not None else t(lang, "total {total}", total=total))
        lines.append(t(lang, "{who}: {scored} · {standing}", who=scorer_name(names, seats),
                       scored=scored, standing=standing))
    return lines


def match_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """At the end of a match of several rounds: every round's points and totals."""
    history = view.get("history") or []
    last = view.get("last_round") or {}
    if len(history) < 2 or not last.get("scorers"):
        return []
    sign = "-" if last.get("countdown") else "+"
    out = [t(lang, "Every round:")]
    for r in history:
        cells = [f"{scorer_name(names, seats)} {sign}{p} ({total})" for seats, p, total in
                 zip(last["scorers"], r["scored"], r["totals"], strict=False)]
        out.append(t(lang, "Round {n}: {cells}", n=r["round"], cells=" · ".join(cells)))
    return out


# -- the result of a match of several seats ----------------------------------------------------

def result_lines(result: dict[str, Any], names: list[str], lang: str,
                 view: dict[str, Any] | None = None) -> list[str]:
    """Who won (every tied seat, or the winning team), the scores, the rounds played (with
    the final `view`: tied scores told apart by the pips the last round left in hand)."""
    last = (view or {}).get("last_round")
    winners = result["winners"]
    listed = who_list(names, winners, lang)
    if result.get("teams"):  # teams as teams: no ranking of partners against each other
        lines = [t(lang, "Game over. Winning team: {winners}.",
                   winners=listed.replace(", ", " & "))]
        lines += team_result_lines(result, names, lang, last)
        if result.get("rounds", 1) > 1:
            lines.append(tn(lang, "{n} round played.", "{n} rounds played.", result["rounds"]))
        return lines
    if len(winners) > 1:
        lines = [t(lang, "Game over. Tie between {winners}.", winners=listed)]
    else:
        lines = [t(lang, "Game over. Winner: {winners}.", winners=listed)]
    ranking = ranking_text(result["ranking"], lambda s: seat_label(names, s, lang),
                           result["scores"], (last or {}).get("counts"), set(winners), lang,
                           tiles=(view or {}).get("options", {}).get("count") == "tiles")
    lines.append(t(lang, "Ranking: {ranking}", ranking=ranking))
    if result.get("rounds", 1) > 1:
        lines.append(tn(lang, "{n} round played.", "{n} rounds played.", result["rounds"]))
    if "chips" in result:
        chips = ", ".join(f"{seat_label(names, s, lang)} {c}"
                          for s, c in enumerate(result["chips"]))
        lines.append(t(lang, "Chips: {chips}", chips=chips))
    return lines


def team_result_lines(result: dict[str, Any], names: list[str], lang: str,
                      last: dict[str, Any] | None = None) -> list[str]:
    """A partnership result: the teams, best first, each with its score (`last`: the last
    round's public summary, whose pips held tell tied scores apart)."""
    teams, scores = result["teams"], result["team_scores"]
    winners = set(result["winners"])
    order = sorted(range(len(teams)), key=lambda i: (not (set(teams[i]) & winners), i))
    counts = (last or {}).get("counts")
    held = [sum(counts[s] for s in team) for team in teams] if counts else None
    won = {i for i, team in enumerate(teams) if set(team) & winners}
    ranked = ranking_text(order, lambda i: who_list(names, teams[i]).replace(", ", " & "),
                          scores, held, won, lang)
    return [t(lang, "Teams: {ranking}", ranking=ranked)]


def ranking_text(order: list[int], label: Callable[[int], str], scores: list[int],
                 held: list[int] | None, winners: set[int], lang: str,
                 tiles: bool = False) -> str:
    """Seats (or teams) best first with their scores: "=" between a tie, ">" otherwise;
    where equal scores were told apart by what the last round left in hand (`held`), that
    is shown too ("bob (0, 10 pips left)")."""
    shown: set[int] = set()
    seps = []
    for a, b in pairwise(order):
        same = scores[a] == scores[b]
        if same and held is not None and held[a] != held[b] and not {a, b} <= winners:
            shown |= {a, b}
        tie = {a, b} <= winners or (same and held is not None and held[a] == held[b])
        seps.append(" = " if tie else " > ")
    out = ""
    for i, s in enumerate(order):
        inner = str(scores[s])
        if s in shown and held is not None:
            inner += ", " + (tn(lang, "{n} tile left", "{n} tiles left", held[s]) if tiles
                             else tn(lang, "{n} pip left", "{n} pips left", held[s]))
        out += (seps[i - 1] if i else "") + f"{label(s)} ({inner})"
    return out
