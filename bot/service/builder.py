"""Buttons that build a move a word at a time, for games with more legal moves than buttons.

A move is written as words ("bid 30", "5-3 4-4 2-2 C4 right", "6-4 B1 C1", "B3").  When a
seat's legal moves fit on one page, each gets its own button.  Otherwise the buttons offer
the distinct first words; pressing one (verb "e", the words chosen so far as its argument)
offers the next words of the moves that start that way, and so on until the words make a
whole move, which the last button plays (verb "p").  A long list of words is shown a page at
a time ("e" with ``PREFIX|PAGE``).  Everything is read again from the legal moves at each
press, so a stale or forged prefix offers nothing that is not legal now.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..i18n import t
from .messages import MAX_DATA, Action, action_data

PER_ROW = 5
PER_PAGE = 20  # buttons of choices per page (Discord shows 25 a message; 5 stay for paging)
PAGE_MARK = "|"

Label = Callable[[str], str]


def split_arg(arg: str) -> tuple[str, int]:
    """The words chosen so far and the page asked for, from an "e" button's argument."""
    prefix, _, page = arg.partition(PAGE_MARK)
    return prefix.strip(), int(page) if page.isdigit() and len(page) < 4 else 0


def choices(legal: Sequence[str], prefix: str) -> list[tuple[str, str | None]]:
    """The distinct next words after `prefix` among `legal`, in the order of the moves, each
    with the whole move when that word ends the only move it leads to (else None)."""
    head = prefix.split()
    n = len(head)
    found: dict[str, list[str]] = {}
    for move in legal:
        words = move.split()
        if len(words) > n and words[:n] == head:
            found.setdefault(words[n], []).append(move)
    out: list[tuple[str, str | None]] = []
    for word, moves in found.items():
        whole = " ".join([*head, word])
        out.append((word, whole if moves == [whole] else None))
    return out


def _data(table: int, turn: int, verb: str, arg: str) -> str | None:
    data = action_data(table, turn, verb, arg)
    return data if len(data.encode()) <= MAX_DATA else None


def step_actions(table: int, turn: int, legal: Sequence[str], prefix: str, lang: str,
                 label: Label | None = None, page: int = 0) -> list[Action]:
    """The buttons of one step: every legal move when they fit on a page and nothing is
    chosen yet, else the next words after `prefix` (a page of them), then "back" and the
    pages.  `label` names a whole move or a word for the player (default: as written)."""
    name = label or (lambda text: text)
    actions: list[Action] = []
    if not prefix and len(legal) <= PER_PAGE:
        for move in legal:
            data = _data(table, turn, "p", move)
            if data is not None:
                actions.append(Action(name(move), data, style="primary",
                                      row=len(actions) // PER_ROW))
        return actions
    if prefix and prefix in legal:  # the words so far are a move, and longer ones exist too
        data = _data(table, turn, "p", prefix)
        if data is not None:
            actions.append(Action(t(lang, "Play {move}", move=name(prefix)), data,
                                  style="success"))
    options = choices(legal, prefix)
    pages = max(1, -(-len(options) // PER_PAGE))
    page = min(max(page, 0), pages - 1)
    for word, whole in options[page * PER_PAGE:(page + 1) * PER_PAGE]:
        if whole is not None:
            data, text = _data(table, turn, "p", whole), name(whole) if not prefix else name(word)
        else:
            data, text = _data(table, turn, "e", f"{prefix} {word}".strip()), name(word)
        if data is not None:
            actions.append(Action(text, data, style="primary", row=len(actions) // PER_ROW))
    last = -(-len(actions) // PER_ROW)
    nav: list[Action] = []
    if prefix:
        back = " ".join(prefix.split()[:-1])
        data = _data(table, turn, "e", back) if back else _data(table, turn, "e", PAGE_MARK + "0")
        if data is not None:
            nav.append(Action(t(lang, "Back"), data, row=last))
    if page > 0:
        data = _data(table, turn, "e", f"{prefix}{PAGE_MARK}{page - 1}")
        if data is not None:
            nav.append(Action(t(lang, "Previous"), data, row=last))
    if page + 1 < pages:
        data = _data(table, turn, "e", f"{prefix}{PAGE_MARK}{page + 1}")
        if data is not None:
            nav.append(Action(t(lang, "Next"), data, row=last))
    return actions + nav
