"""The score sheet of a finished round and the summary of a finished match, in words.

Built from the public view only: ``view["last_round"]`` (every hand revealed with its pips,
each scorer's lines with a reason code and points, the final board) and ``view["history"]``
(what each scorer scored in every round, and the running totals).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import Any

from ..i18n import t, tn
from .event_texts import seat_label, who_list
from .family_words import bid_text, trump_name


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
    if "contract" in last:
        return hand_sheet_lines(view, names, lang)
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


def hand_sheet_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The score sheet of a trick game's hand: the hands dealt, who bid what and trumps,
    made or set and by how much, what each team took (tricks and count), then what each
    team scores, one reason a line counted once, and the totals."""
    last = view["last_round"]
    hand = last.get("board") or {}
    contract = last["contract"]
    team = contract["team"]
    teams = last["scorers"]
    marks = view.get("target_unit") == "marks"
    lines = [t(lang, "Score sheet of round {n}:", n=last["round"])]
    dealt = [f"{seat_label(names, s)}: {' '.join(h)}" for s, h in enumerate(last["hands"])]
    lines.append(t(lang, "Hands dealt: {hands}", hands=" · ".join(dealt)))
    bidder = seat_label(names, contract["seat"])
    line = t(lang, "Contract: {who} bid {bid}", who=bidder, bid=bid_text(contract["text"], lang))
    trumps = hand.get("trumps")
    if trumps in ("nello", "sevens"):  # a way of playing, not a suit
        line += ", " + trump_name(trumps, lang)
    elif trumps is not None:
        line += ", " + t(lang, "trumps: {suit}", suit=trump_name(trumps, lang))
    lines.append(line + ".")
    lines.append(contract_result(last, trumps, scorer_name(names, teams[team]), bidder, marks,
                                 lang))
    took = []
    for i, seats in enumerate(teams):
        tricks, points = last["tricks_won"][i], last["taken"][i]
        took.append(tn(lang, "{who} {n} trick + {count} count = {points}",
                       "{who} {n} tricks + {count} count = {points}", tricks,
                       who=scorer_name(names, seats), count=points - tricks, points=points))
    lines.append(t(lang, "Points taken: {teams}", teams=" · ".join(took)))
    target = view.get("target")
    for i, seats in enumerate(teams):
        items = [f"{hand_reason(x, lang)} +{unit_points(x['points'], marks, lang)}"
                 for x in last["lines"][i]]
        total = last["totals"][i]
        standing = t(lang, "total {total} of {target}", total=total, target=target)
        lines.append(t(lang, "{who}: {scored} · {standing}", who=scorer_name(names, seats),
                       scored=" · ".join(items) or t(lang, "nothing"), standing=standing))
    return lines


def unit_points(n: int, marks: bool, lang: str) -> str:
    """Points as a score says them: "30", or "1 mark" in a game counted in marks."""
    return tn(lang, "{n} mark", "{n} marks", n) if marks else str(n)


def hand_reason(line: dict[str, Any], lang: str) -> str:
    """What a trick game's score-sheet line is for."""
    code = line["code"]
    if code == "over the contract":
        return t(lang, "{n} over the contract, counted double", n=line["points"] // 2)
    return {"contract made": t(lang, "contract made"), "contract set": t(lang, "contract set"),
            "taken": t(lang, "points taken")}.get(code, code)


def contract_result(last: dict[str, Any], trumps: Any, bidders: str, bidder: str,
                    marks: bool, lang: str) -> str:
    """Made or set, and by how much: in points, in tricks (a bid of marks in Texas, sevens),
    or the bidder's tricks (nello)."""
    contract, made = last["contract"], last["made"]
    team = contract["team"]
    if trumps == "nello":
        won = last["tricks_won"][team]  # the bidder alone plays (the partner sits out)
        return t(lang, "Made: {who} took no trick.", who=bidder) if made else tn(
            lang, "Set: {who} took {n} trick.", "Set: {who} took {n} tricks.", won, who=bidder)
    if trumps == "sevens" or (marks and contract["bid"] >= 42):
        lost = last["tricks_won"][1 - team]
        return t(lang, "Made: {who} took every trick.", who=bidders) if made else tn(
            lang, "Set: {who} lost {n} trick.", "Set: {who} lost {n} tricks.", lost,
            who=bidders)
    bid, taken = contract["bid"], last["taken"][team]
    if made and taken == bid:
        return t(lang, "Made exactly: {who} took the {bid} points needed.", who=bidders,
                 bid=bid)
    if made:
        return tn(lang, "Made by {by}: {who} took {n} point for the {bid} needed.",
                  "Made by {by}: {who} took {n} points for the {bid} needed.", taken,
                  by=taken - bid, who=bidders, bid=bid)
    return tn(lang, "Set by {by}: {who} took {n} point for the {bid} needed.",
              "Set by {by}: {who} took {n} points for the {bid} needed.", taken,
              by=bid - taken, who=bidders, bid=bid)


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
