"""What happened and where the game stands, in words (French or English), from a view.

Every sentence is built from view data (``view["events"]``, the running totals, chips, pots,
captured piles...): from the public view for the channel, so nothing hidden can be named.
A tile given back (Nombres) is never named: the public view does not know it.
"""

from __future__ import annotations

from typing import Any

from render import words

from ..i18n import end_words, t, tn, translator
from . import family_words


def seat_label(names: list[str], seat: int, lang: str = "en") -> str:
    """A seat's name, else "Seat 2" (counted from 1, as in the pictures)."""
    return words.seat_label(names, seat, translator(lang))


def who_list(names: list[str], seats: list[int], lang: str = "en") -> str:
    return ", ".join(seat_label(names, s, lang) for s in seats)


def score_reason(why: str, lang: str) -> str:
    """The reason of a "score" event ("ends 15", "capture 5-0+5-5", "lead"...) in words."""
    word, _, rest = why.partition(" ")
    if word == "ends":
        if rest:
            return t(lang, "the ends count {n}", n=rest)
        return t(lang, "the count of the ends")
    if word == "pips":
        return t(lang, "{n} pips left in the other hands", n=rest)
    if word == "capture":
        return t(lang, "capture of {tiles}", tiles=", ".join(rest.split("+")))
    fixed = {
        "lead": t(lang, "the opening tile"),
        "double cap": t(lang, "a double at one end, the same value at the other"),
        "triple cap": t(lang, "doubles at both ends of the same value"),
        "out": t(lang, "domino"),
        "blocked": t(lang, "winning the blocked game"),
        "laid": t(lang, "the pips of the tile laid"),
        "muggins": t(lang, "Muggins!"),
    }
    return fixed.get(why) or family_words.score_reason(why, lang) or why


def end_reason(reason: str, lang: str) -> str:
    """Why a round ended, in words."""
    return {
        "out": t(lang, "domino"),
        "blocked": t(lang, "the game is blocked"),
        "last": t(lang, "last player standing"),
        "target": t(lang, "the target is reached"),
        "stock": t(lang, "the stock is empty"),
        "over": t(lang, "a tile went past the goal"),
        "turns": t(lang, "everyone had their turn"),
    }.get(reason) or family_words.end_reason(reason, lang) or reason


def event_line(e: dict[str, Any], view: dict[str, Any], names: list[str], lang: str
               ) -> str | None:
    """One event of ``view["events"]`` as a sentence (None for an unknown kind)."""
    kind = e["type"]
    who = seat_label(names, e["seat"], lang) if "seat" in e else ""
    if kind == "draw":
        line = tn(lang, "{who} drew {n} tile.", "{who} drew {n} tiles.", e["count"], who=who)
        return line + (" (" + ", ".join(e["tiles"]) + ")" if "tiles" in e else "")
    if kind == "score" and family_words.family_of(view) == "tricks":  # a team's hand
        team = next((tm for tm in view.get("teams") or [] if e["seat"] in tm), [e["seat"]])
        if view.get("target_unit") == "marks":
            return tn(lang, "{who} score {n} mark: {why}.", "{who} score {n} marks: {why}.",
                      e["points"], who=" & ".join(seat_label(names, s, lang) for s in team),
                      why=score_reason(e["why"], lang))
        return tn(lang, "{who} score {n} point: {why}.", "{who} score {n} points: {why}.",
                  e["points"], who=" & ".join(seat_label(names, s, lang) for s in team),
                  why=score_reason(e["why"], lang))
    if kind == "score":
        return tn(lang, "{who} scores {n} point: {why}.", "{who} scores {n} points: {why}.",
                  e["points"], who=who, why=score_reason(e["why"], lang))
    if kind == "end":
        return t(lang, "Round over ({reason}): {winners}.", reason=end_reason(e["reason"], lang),
                 winners=who_list(names, e["winners"], lang) or t(lang, "no winner"))
    if kind == "round":
        return t(lang, "Round {round} begins; {who} leads.", round=e["round"],
                 who=seat_label(names, e["leader"], lang))
    if kind == "chip":
        return t(lang, "{who} pays a chip into the pot (pot: {pot}).", who=who,
                 pot=view.get("pot", "?"))
    if kind == "over":
        return t(lang, "{who} goes past {target}: that tile scores nothing.", who=who,
                 target=view.get("target"))
    simple = {
        "pass": t(lang, "{who} cannot play and passes.", who=who),
        "out": t(lang, "{who} played their last tile!", who=who),
        "eliminated": t(lang, "{who} cannot play and is eliminated.", who=who),
        "give": t(lang, "{who} gives a tile back to the stock.", who=who),
        "claim": t(lang, "{who} claims the points.", who=who),
        "muggins": t(lang, "{who} cries Muggins!", who=who),
        "decline": t(lang, "{who} leaves the capture on the table.", who=who),
    }
    return simple.get(kind) or family_words.event_line(e, names, lang)


def events_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """What happened since the last decision, one sentence each; then the seats that left
    the match in the round that just ended."""
    events = view.get("events", [])
    last = view.get("last_round")
    kinds = {e["type"] for e in events}
    out = []
    if last and "round" in kinds and "end" not in kinds:  # how the last round ended
        out.append(event_line({"type": "end", "reason": last["reason"],
                               "winners": last["winners"]}, view, names, lang) or "")
    out += [line for e in events if (line := event_line(e, view, names, lang)) is not None]
    if last and last.get("gone") and ("round" in kinds or "end" in kinds or view.get("over")):
        out.append(tn(lang, "{who} reached {target} and leaves the match.",
                      "{who} reached {target} and leave the match.", len(last["gone"]),
                      who=who_list(names, last["gone"], lang), target=view.get("target")))
    return out


def move_line(view: dict[str, Any], names: list[str], lang: str, mover: int, move: str
              ) -> str | None:
    """The sentence for a move just made, or None when its events say it all.  A tile
    given back is not named (the public view's last move is only "give")."""
    who = seat_label(names, mover, lang)
    said = family_words.move_line(move, view, names, lang, mover)
    if said is not None:
        return said or None
    word = move.split()[0] if move.split() else ""
    if word == "give":
        return None  # the "give" event says it, without the tile
    if word == "claim":
        return None  # the "score" event says how many
    if word == "muggins":
        return t(lang, "{who} cries Muggins!", who=who)
    if word == "buy":
        return t(lang, "{who} buys a tile from the stock.", who=who)
    if word == "pass":
        unclaimed = view.get("unclaimed") or {}
        if unclaimed.get("seat") == mover:
            return tn(lang, "{who} leaves {n} point unclaimed.",
                      "{who} leaves {n} points unclaimed.", unclaimed["points"], who=who)
        return None  # the "pass" event says it
    if word == "draw":
        return None
    return t(lang, "{who} plays {move}.", who=who, move=end_words(move, lang))


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
    return words.status_lines(view, names, translator(lang))


def seat_line(view: dict[str, Any], names: list[str], lang: str, seat: int) -> str:
    """One seat of the table: its tiles (in hand, or the game's own count: kept, left),
    score, and what the variant adds."""
    line = t(lang, "{who}: {tiles}, {points}", who=seat_label(names, seat, lang),
             tiles=words.seat_tiles(view, seat, translator(lang)),
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
