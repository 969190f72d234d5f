"""Property tests of the trick games: random matches of forty-two and texas-42, checked at
every step (tiles conserved, illegal moves change nothing, views hide the other hands,
records replay, copies are independent), over the tables' options (texas-42's specials,
nello's doubles, the reshake, laying down, the presets; forty-two's doubles).  Derandomized
like tests/test_properties.py."""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_properties import GARBAGE, PROPERTY

from core import DominoError, IllegalMove, replay, variants
from core.tiles import Tile
from core.variants.forty_two import SPECIALS

SLUGS = ["forty-two", "texas-42"]
ALL_TILES = {str(Tile(a, b)) for a in range(7) for b in range(a + 1)}
_TILE_RE = re.compile(r"(?<!\d)(\d)-(\d)(?!\d)")


@st.composite
def matches(draw: st.DrawFn, slug: str) -> tuple[Any, list[int]]:
    options: dict[str, Any] = {"target": draw(st.sampled_from([1, 40, 100]))}
    if slug == "texas-42":
        options["target"] = draw(st.sampled_from([1, 2]))
        options.update(texas_options(draw))
    else:
        options["partner_master"] = draw(st.booleans())
        options["doubles"] = draw(st.sampled_from(["book", "high"]))
    seed = draw(st.integers(0, 2**32))
    picks = draw(st.lists(st.integers(0, 50), min_size=10, max_size=10))
    return variants.get(slug).new(seed=seed, **options), picks


def texas_options(draw: st.DrawFn) -> dict[str, Any]:
    """A texas-42 table's options: any specials, nello's doubles, all-pass, lay down and a
    preset that agrees with them."""
    out: dict[str, Any] = {name: draw(st.booleans()) for name in SPECIALS}
    out["nello_doubles"] = draw(st.sampled_from(["high", "low", "suit", "any"]))
    out["all_pass"] = draw(st.sampled_from(["forced", "reshake"]))
    out["lay_down"] = draw(st.booleans())
    preset = draw(st.sampled_from(["custom", "straight", "specials"]))
    if preset == "straight":
        out.update(dict.fromkeys(SPECIALS, False))
    if preset == "specials":
        for name in SPECIALS:
            out.pop(name)
    out["preset"] = preset
    return out


def steps(game: Any, picks: list[int], limit: int = 400):
    """Play `game` to its end (or `limit` moves), yielding before each move."""
    i = 0
    while not game.over and i < limit:
        yield i
        moves = game.legal_moves()
        assert moves, "no legal move while the game is not over"
        game.play(moves[picks[i % len(picks)] * (i + 1) % len(moves)])
        i += 1


def tiles_named(obj: Any) -> set[str]:
    return {str(Tile(int(a), int(b))) for a, b in _TILE_RE.findall(json.dumps(obj))}


@pytest.mark.parametrize("slug", SLUGS)
@PROPERTY
@given(data=st.data())
def test_tiles_are_conserved_and_views_hide_the_hands(slug: str, data: st.DataObject) -> None:
    game, picks = data.draw(matches(slug))
    for i in steps(game, picks):
        if i % 3:  # every third position: the views are the slow part
            continue
        hands = [game.view(s)["hand"] for s in range(4)]
        board = game.view(None)["board"]
        everything = [t for h in hands for t in h] + board
        assert sorted(everything) == sorted(ALL_TILES)
        public = game.view(None)
        public.pop("last_round")
        assert "hand" not in public and not tiles_named(public) - set(board)
        for s in range(4):
            v = game.view(s)
            v.pop("last_round")
            assert not tiles_named(v) - set(board) - set(hands[s])
            assert ("legal" in v) == (s == game.to_move)
    assert game.over or game.turn == 400


@pytest.mark.parametrize("slug", SLUGS)
@PROPERTY
@given(data=st.data())
def test_illegal_moves_raise_and_change_nothing(slug: str, data: st.DataObject) -> None:
    game, picks = data.draw(matches(slug))
    for i in steps(game, picks, 120):
        if i % 7:
            continue
        before = json.dumps(game.view(None), sort_keys=True)
        legal = {m.text for m in game.legal_moves()}
        tries = [*GARBAGE, "bid 24", "bid 43", "trumps 3", "pass", "6-6", "3-1", "bid 3 marks"]
        for text in tries:
            if isinstance(text, str) and text in legal:
                continue
            with pytest.raises(DominoError):
                game.play(text)
            assert json.dumps(game.view(None), sort_keys=True) == before
        for m in game.legal_moves():
            assert game.parse_move(m.text) == m


@pytest.mark.parametrize("slug", SLUGS)
@PROPERTY
@given(data=st.data())
def test_records_replay_and_copies_are_independent(slug: str, data: st.DataObject) -> None:
    game, picks = data.draw(matches(slug))
    copy = None
    for i in steps(game, picks):
        if i == 30:
            copy = game.copy()
            frozen = json.dumps(copy.view(None), sort_keys=True)
    again = replay(json.loads(json.dumps(game.record())))
    assert again.view(None) == game.view(None) and again.result == game.result
    assert all(again.view(s) == game.view(s) for s in range(4))
    if copy is not None:
        assert json.dumps(copy.view(None), sort_keys=True) == frozen
        copy.play(copy.legal_moves()[0]) if not copy.over else None
        if game.over:
            with pytest.raises(IllegalMove):
                game.play("pass")


@pytest.mark.parametrize("specials", list(itertools.product([False, True], repeat=len(SPECIALS))),
                         ids=lambda f: "".join("x" if on else "-" for on in f))
def test_every_combination_of_texas_specials_plays_a_round(specials: tuple[bool, ...]) -> None:
    """Each of the 64 sets of specials (nello's doubles, all-pass and lay down turning with
    them): a round of random legal moves where every legal move's text parses back to it,
    the view of the seat to move lists exactly them, no view shows another seat's hand, and
    the record replays to the same views."""
    i = sum(on << k for k, on in enumerate(specials))
    options = dict(zip(SPECIALS, specials, strict=True))
    options.update(nello_doubles=["high", "low", "suit", "any"][i % 4],
                   all_pass=["forced", "reshake"][i % 2], lay_down=bool(i % 3), target=1)
    game = variants.get("texas-42").new(seed=i, **options)
    pick = random.Random(i)
    calls = set()
    while not game.over:
        moves = game.legal_moves()
        assert moves and [m.text for m in moves] == game.view(game.to_move)["legal"]
        for m in moves:
            assert game.parse_move(m.text) == m and str(m) == m.text
        hands = [set(game.view(s)["hand"]) for s in range(4)]
        board = set(game.view(None)["board"])
        public = game.view(None)
        public.pop("last_round")
        assert "hand" not in public and not tiles_named(public) - board
        for s in range(4):
            v = game.view(s)
            v.pop("last_round")
            assert not tiles_named(v) - board - hands[s]
        specials_now = [m for m in moves if not m.text[:1].isdigit() and m.text != "pass"
                        and not m.text.startswith("bid 3") and len(m.text) > 9]
        move = pick.choice(specials_now) if specials_now and pick.random() < 0.5 else \
            pick.choice(moves)
        calls.add(move.text)
        game.play(move)
    again = replay(json.loads(json.dumps(game.record())))
    assert again.result == game.result and again.view(None) == game.view(None)
    needs = {"bid plunge": "plunge", "bid splash": "splash", "trumps doubles": "doubles_trumps",
             "trumps follow-me": "follow_me", "trumps nello": "nello", "trumps sevens": "sevens",
             "lay down": "lay_down"}
    for call in calls:
        name = next((n for c, n in needs.items() if call.startswith(c)), None)
        assert name is None or options[name], (call, options)
