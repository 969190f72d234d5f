"""The words of the trick games: forty-two and Texas 42.

Bids (points, marks, plunge, splash) and trumps (a suit, doubles, follow-me, nello, sevens),
the table's lines (during the bidding the bids so far, the high bid and who bids next: there
is no contract yet; then the contract, the trick on the table, the teams' count and marks),
the last trick, the sentences of a bid, of trumps named and of a hand laid down, a team's
score, the hand's prompts and buttons, and the score sheet of a hand (the contract, made or
set and by how much, the last trick complete, what each team scores).  Public text is
built from the public view only; a label from the seat's own view at most.
"""

from __future__ import annotations

from typing import Any

from render.tricks import bid_words

from ...i18n import t, tn, translator
from .common import scorer_name, seat_label, seat_name

HAND_TRICKS = 7  # the tricks of a hand played out
ALL_POINTS = 42  # every point of a hand: a bid of marks must take them all


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
    """"30" -> "30"; "2 marks" -> "2 marks"; "pass" -> "no bid" (translated; the words of a
    bid are the picture's, `render.tricks.bid_words`)."""
    if str(bid).split() == ["pass"]:
        return t(lang, "no bid")
    return bid_words(bid, translator(lang))


def tricks_label(move: str, lang: str) -> str | None:
    """A bid, trumps, a pass or laying the hand down as a button label (None for a tile)."""
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


def move_label(move: str, view: dict[str, Any], lang: str) -> str:
    return tricks_label(move, lang) or move


def word_label(head: list[str], word: str, view: dict[str, Any], whole: set[str],
               lang: str) -> str:
    """The label of `word` after the words `head` of a bid or of trumps being built."""
    if word == "bid":
        return t(lang, "Bid…")
    if word == "trumps":
        return t(lang, "Trumps…")
    if head[:1] == ["bid"]:
        return bid_text(" ".join([*head[1:], word]), lang)
    if head[:1] == ["trumps"]:
        return trump_name(word, lang)
    return word


# -- the table ---------------------------------------------------------------------------------

def summary_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The bids, the contract and trumps, the trick on the table, the count and the marks."""
    out: list[str] = []
    phase = view.get("phase")
    bids = view.get("bids") or []
    bidding = phase == "bidding"
    if bids and (bidding or not view.get("contract")):  # none yet: the next line says so
        said = ", ".join(f"{seat_name(names, b['seat'])} {bid_text(b['bid'], lang)}"
                         for b in bids)
        out.append(t(lang, "Bidding. Bids: {bids}", bids=said))
    if bidding:
        out.append(bidding_line(view, names, lang))
    contract = None if bidding else view.get("contract")  # the high bid is no contract yet
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


def bidding_line(view: dict[str, Any], names: list[str], lang: str) -> str:
    """Where the bidding stands: the high bid so far (it is no contract until the bidding
    ends), and who bids next (the dealer who may not pass, after three passes)."""
    high = view.get("contract")
    parts = [t(lang, "High bid: {who} {bid}", who=seat_name(names, high["seat"]),
               bid=bid_text(high.get("text", high.get("bid")), lang))
             if high else t(lang, "No bid yet")]
    mover = view.get("to_move")
    if mover is not None and view.get("must_bid"):
        parts.append(t(lang, "{who} must bid: the three others passed",
                       who=seat_name(names, mover)))
    elif mover is not None:
        parts.append(t(lang, "{who} to bid", who=seat_name(names, mover)))
    return " · ".join(parts)


def last_tricks(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The tricks taken this hand; before the first, those of the hand that just ended."""
    return list(view.get("tricks") or ((view.get("last_round") or {}).get("board") or {})
                .get("tricks") or [])


def last_trick_text(view: dict[str, Any], names: list[str], lang: str) -> str:
    """The last trick taken (public), in words."""
    tricks = last_tricks(view)
    if not tricks:
        return t(lang, "No trick has been taken yet.")
    return trick_text(tricks[-1], names, lang)


def trick_text(trick: dict[str, Any], names: list[str], lang: str) -> str:
    """A trick taken, complete: who played which tile, in order, and who took it."""
    tiles = ", ".join(f"{seat_name(names, p['seat'])} {p['tile']}" for p in trick["tiles"])
    return tn(lang, "Last trick: {tiles}. {who} takes it ({n} point).",
              "Last trick: {tiles}. {who} takes it ({n} points).", trick.get("points", 0),
              tiles=tiles, who=seat_name(names, trick["winner"]))


def last_trick_button(lang: str) -> str:
    return t(lang, "Last trick")


# -- reasons, events and moves ------------------------------------------------------------------

def score_reason(why: str, lang: str) -> str | None:
    return {"taken": t(lang, "points taken"), "contract made": t(lang, "contract made"),
            "contract set": t(lang, "contract set"),
            "over the contract": t(lang, "points over the contract, counted double")
            }.get(why)


def end_reason(reason: str, lang: str) -> str | None:
    return {"set": t(lang, "the contract is set"),
            "made": t(lang, "the contract is made")}.get(reason)


def team_score_line(e: dict[str, Any], view: dict[str, Any], names: list[str], lang: str,
                    why: str) -> str:
    """A "score" event of a hand: the team of the seat scores (`why`: its reason in words)."""
    team = next((tm for tm in view.get("teams") or [] if e["seat"] in tm), [e["seat"]])
    if view.get("target_unit") == "marks":
        return tn(lang, "{who} score {n} mark: {why}.", "{who} score {n} marks: {why}.",
                  e["points"], who=" & ".join(seat_label(names, s, lang) for s in team),
                  why=why)
    return tn(lang, "{who} score {n} point: {why}.", "{who} score {n} points: {why}.",
              e["points"], who=" & ".join(seat_label(names, s, lang) for s in team),
              why=why)


def event_line(e: dict[str, Any], view: dict[str, Any], names: list[str], lang: str
               ) -> str | None:
    if e.get("type") == "trick":
        who = seat_name(names, e["seat"]) if "seat" in e else ""
        return t(lang, "{who} takes the trick.", who=who)
    if e.get("type") == "redeal" and "bids" in view:
        return t(lang, "Everyone passed: the tiles are dealt again, and {who} bids first.",
                 who=seat_name(names, e["seat"]))
    return None


def move_line(view: dict[str, Any], names: list[str], lang: str, mover: int, move: str
              ) -> str | None:
    """A pass in the bidding, a bid, trumps named, a hand laid down (None for a tile)."""
    words = move.split()
    who = seat_name(names, mover)
    if move == "pass" and "bids" in view:
        return t(lang, "{who} passes.", who=who)
    if move == "lay down":
        return t(lang, "{who} lays the hand down: its result is decided.", who=who)
    if words[:1] == ["bid"]:
        return t(lang, "{who} bids {bid}.", who=who, bid=bid_text(" ".join(words[1:]), lang))
    if words[:1] == ["trumps"] and len(words) == 2:
        return t(lang, "{who} names trumps: {suit}.", who=who, suit=trump_name(words[1], lang))
    return None


# -- the private hand ----------------------------------------------------------------------

def hand_lines(view: dict[str, Any], moving: bool, lang: str) -> list[str]:
    hand = view.get("hand") or []
    if not hand:
        return []
    lines = [t(lang, "Your tiles: {tiles}", tiles=", ".join(hand))]
    if view.get("trumps") is not None:
        lines.append(t(lang, "Trumps: {suit}", suit=trump_name(view["trumps"], lang)))
    return lines


def ask(view: dict[str, Any], prefix: str, lang: str) -> str:
    """A bid (and why there is no pass when the dealer must bid), trumps, a tile."""
    bid = t(lang, "Your bid?") if "pass" in (view.get("legal") or []) else t(
        lang, "Your bid? You must bid: the three others passed, and the dealer may not pass.")
    return {"bidding": bid, "trumps": t(lang, "Name trumps."),
            "playing": t(lang, "Play a tile.")}.get(view.get("phase") or "",
                                                    t(lang, "Your move."))


# -- the score sheet of a hand -----------------------------------------------------------------

def sheet_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The score sheet of a hand: the hands dealt, who bid what and trumps, made or set and
    by how much, the last trick complete (or that the hand was laid down), what each team
    took (tricks and count), then what each team scores (points or marks), one reason a
    line counted once, and the totals."""
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
    tricks = hand.get("tricks") or []
    if tricks:
        lines.append(trick_text(tricks[-1], names, lang))
    if len(tricks) < HAND_TRICKS:  # laid down: the result was decided, the rest not played
        lines.append(tn(lang, "The hand was laid down: {n} trick was not played.",
                        "The hand was laid down: {n} tricks were not played.",
                        HAND_TRICKS - len(tricks)))
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
        standing = t(lang, "total {total} of {target}", target=target,
                     total=unit_points(total, marks, lang))
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
    if trumps == "sevens" or (marks and contract["bid"] >= ALL_POINTS):
        lost = last["tricks_won"][1 - team]
        return t(lang, "Made: {who} took every trick.", who=bidders) if made else tn(
            lang, "Set: {who} lost {n} trick, and took {points} of the {bid} points needed.",
            "Set: {who} lost {n} tricks, and took {points} of the {bid} points needed.", lost,
            who=bidders, points=last["taken"][team], bid=ALL_POINTS)
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
