"""The words of the service's messages, built from views, in French or English.

Everything here reads views (public ones for the channel); nothing reads a game.
"""

from __future__ import annotations

from typing import Any

from core import variants

from .i18n import t, tn


def variant_name(slug: str, lang: str) -> str:
    names = variants.get(slug).names
    return names.get(lang, names["en"])


def seat_label(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat}"


def events_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """What happened since the last decision, one sentence each."""
    out: list[str] = []
    for e in view.get("events", []):
        kind = e["type"]
        who = seat_label(names, e["seat"]) if "seat" in e else ""
        if kind == "draw":
            line = tn(lang, "{who} drew {n} tile.", "{who} drew {n} tiles.", e["count"], who=who)
            if "tiles" in e:
                line += " (" + ", ".join(e["tiles"]) + ")"
            out.append(line)
        elif kind == "pass":
            out.append(t(lang, "{who} cannot play and passes.", who=who))
        elif kind == "out":
            out.append(t(lang, "{who} played their last tile!", who=who))
        elif kind == "eliminated":
            out.append(t(lang, "{who} cannot play and is eliminated.", who=who))
        elif kind == "end":
            winners = ", ".join(seat_label(names, s) for s in e["winners"])
            reason = {
                "out": t(lang, "domino"),
                "blocked": t(lang, "the game is blocked"),
                "last": t(lang, "last player standing"),
            }.get(e["reason"], e["reason"])
            out.append(t(lang, "Round over ({reason}): {winners}.", reason=reason,
                         winners=winners))
        elif kind == "round":
            out.append(t(lang, "Round {round} begins; {who} leads.", round=e["round"],
                         who=seat_label(names, e["leader"])))
    return out


def table_summary(view: dict[str, Any], names: list[str], lang: str) -> str:
    """Scores and hand sizes, one line per seat, with whose turn it is."""
    lines = []
    head = t(lang, "Round {round}", round=view["round"])
    if view.get("target"):
        head += " · " + t(lang, "match to {target}", target=view["target"])
    head += " · " + t(lang, "stock: {n}", n=view.get("stock", 0))
    lines.append(head)
    for seat, size in enumerate(view.get("hand_sizes", [])):
        arrow = "▶ " if seat == view.get("to_move") else "  "
        lines.append(arrow + t(lang, "{who}: {n} tiles, {score} points",
                               who=seat_label(names, seat), n=size,
                               score=view["scores"][seat]))
    return "\n".join(lines)


def result_lines(result: dict[str, Any], names: list[str], lang: str) -> list[str]:
    winners = ", ".join(seat_label(names, s) for s in result["winners"])
    ranking = " > ".join(
        f"{seat_label(names, s)} ({result['scores'][s]})" for s in result["ranking"]
    )
    return [t(lang, "Game over. Winner: {winners}.", winners=winners),
            t(lang, "Ranking: {ranking}", ranking=ranking)]
