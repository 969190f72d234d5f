"""Property tests: random games of every variant, checked at every step.

Each test draws, for one variant of `variants.names()`, a player count, a few
option values read from `describe()["options"]`, a seed and a list of choice
indexes, then plays a whole match (every round) to its end, choosing each move
among `legal_moves()` with the next index, and checks one property of the
interface outside checks use (DESIGN.md): tiles are conserved, legal moves
are consistent, illegal moves change nothing, views hide what they must,
records replay, copies are independent.

The runs are derandomized, so CI sees the same games every time.  A failure
message carries the match record (variant, players, seed, options and moves):
``core.replay(record)`` rebuilds the failing position.  Set PROPERTY_EXAMPLES
for a longer run (e.g. ``PROPERTY_EXAMPLES=500 pytest tests/test_properties.py``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import IllegalMove, replay, variants
from core.line.engine import LineRound
from core.line.match import LineMatch
from core.moves import DRAW, LEAD, LEFT, PASS, PLAY, RIGHT, Move, move_for
from core.tiles import id_halves, iter_ids, tile_id

SLUGS = [s for s in variants.names() if variants.get(s).family == "line"]  # others: own files
EXAMPLES = int(os.environ.get("PROPERTY_EXAMPLES", "40"))
MAX_STEPS = 20_000  # a match longer than this is a bug (the engine loops)

PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# A number range as `Option.allowed()` writes it: "none or a whole number from 1 to 10000".
_RANGE_RE = re.compile(r"^(none or )?a whole number from (\d+) to (\d+)$")
# A whole tile string ("6-4", "12-10"), not part of a longer number ("16-4" is not "6-4").
_TILE_TOKEN_RE = re.compile(r"(?<!\d)(\d{1,2})-(\d{1,2})(?!\d)")

GARBAGE: tuple[Any, ...] = (
    "zz", "99-99 left", "", " ", "x" * 5000, "6-4 up", "left", "play", "7-", None, 42,
)


# -- drawing a game ---------------------------------------------------------------------


class Setup:
    """A drawn match: how to build it, and the indexes that choose its moves."""

    def __init__(self, slug: str, players: int, seed: int, options: dict[str, Any],
                 picks: list[int]) -> None:
        self.slug = slug
        self.players = players
        self.seed = seed
        self.options = options
        self.picks = picks

    def __repr__(self) -> str:  # one line in Hypothesis's report of a failing example
        return (f"Setup({self.slug!r}, players={self.players}, seed={self.seed}, "
                f"options={self.options!r}, picks={self.picks!r})")

    def new(self) -> LineMatch:
        game = variants.get(self.slug).new(players=self.players, seed=self.seed, **self.options)
        assert isinstance(game, LineMatch)
        return game

    def chooser(self) -> Chooser:
        return Chooser(self.picks)


class Chooser:
    """Turns the drawn indexes into choices, cycling through them."""

    def __init__(self, picks: list[int]) -> None:
        self.picks = picks or [0]
        self.i = 0

    def __call__(self, n: int) -> int:
        """An index in range(n) (n >= 1)."""
        value = self.picks[self.i % len(self.picks)] + self.i // len(self.picks)
        self.i += 1
        return value % n

    def chance(self, n: int) -> bool:
        """True about once in n calls."""
        return self(n) == 0


def set_size(max_pip: int) -> int:
    return (max_pip + 1) * (max_pip + 2) // 2


def _choices(default: Any, allowed: str) -> list[Any]:
    words = allowed.split(", ")
    if isinstance(default, int) and not isinstance(default, bool):
        return [int(w) for w in words]
    return words


def _ranged(name: str, optional: bool, lo: int, hi: int, chosen: dict[str, Any],
            players: int) -> st.SearchStrategy[int | None]:
    """Small values of a whole-number option: targets 20-60 (1-3 when a round
    scores one point), rounds 1-3, hands that fit the set."""
    if name == "target":
        small = (1, 3) if chosen.get("scoring") == "round" else (20, 60)
    elif name == "rounds":
        small = (1, 3)
    elif name == "hand":
        small = (1, set_size(chosen.get("set", 6)) // players)
    else:
        small = (lo, lo + 5)
    values: st.SearchStrategy[int | None] = st.integers(max(lo, small[0]), min(hi, small[1]))
    return st.none() | values if optional else values


@st.composite
def setups(draw: st.DrawFn, slug: str) -> Setup:
    """A player count, options, a seed and move choices for a match of `slug`."""
    v = variants.get(slug)
    described = v.describe()
    lo, hi = described["players"]
    players = draw(st.integers(lo, hi), label="players")
    options: dict[str, Any] = {}
    ranged: list[tuple[str, bool, int, int]] = []
    for opt in described["options"]:
        name, allowed = opt["name"], opt["allowed"]
        m = _RANGE_RE.match(allowed)
        if allowed == "true or false":
            options[name] = draw(st.booleans(), label=name)
        elif m:  # drawn last: their small values depend on other options
            ranged.append((name, bool(m.group(1)), int(m.group(2)), int(m.group(3))))
        else:
            options[name] = draw(st.sampled_from(_choices(opt["default"], allowed)), label=name)
    for name, optional, low, high in ranged:
        options[name] = draw(_ranged(name, optional, low, high, options, players), label=name)
    seed = draw(st.integers(0, 2**32), label="seed")
    picks = draw(st.lists(st.integers(0, 2**16), min_size=40, max_size=400), label="picks")
    return Setup(slug, players, seed, options, picks)


# -- helpers ------------------------------------------------------------------------------


def repro(game: LineMatch) -> str:
    """The record that rebuilds `game` (for failure messages)."""
    return json.dumps(game.record())


def seats(game: LineMatch) -> list[int | None]:
    """Every viewer: the public (None) and each seat."""
    return [None, *range(game.players)]


def snapshot(game: LineMatch) -> str:
    """Everything outside observers see: the record and every view, as JSON text."""
    return json.dumps(
        {"record": game.record(), "views": [game.view(s) for s in seats(game)]}, sort_keys=True
    )


def mask_of(ids: list[int]) -> int:
    mask = 0
    for t in ids:
        mask |= 1 << t
    return mask


def laid_ids(game: LineMatch) -> list[int]:
    """The tiles laid in the current round (the last one once the match is over)."""
    return [m.tid for _, m in game.played if m.kind == PLAY]


def board_ids(game: LineMatch) -> list[int]:
    """The tiles on the table: the laid ones, less any a variant took back off
    it (Canton's captures), which such a variant lists with `board_ids()`."""
    on_table = getattr(game, "board_ids", None)
    return on_table() if on_table is not None else laid_ids(game)


def tile_of(text: str) -> int:
    a, b = text.split("-")
    return tile_id(int(a), int(b))


def walk(setup: Setup) -> Iterator[LineMatch]:
    """Play a match to its end with the drawn choices, yielding it before every
    move and once more when it is over."""
    g = setup.new()
    pick = setup.chooser()
    for _ in range(MAX_STEPS):
        yield g
        if g.over:
            return
        moves = g.legal_moves()
        g.play(moves[pick(len(moves))])
    raise AssertionError(f"no end after {MAX_STEPS} moves: {repro(g)}")


def play_out(game: LineMatch, pick: Chooser) -> None:
    """Play `game` to its end with random legal moves."""
    for _ in range(MAX_STEPS):
        if game.over:
            return
        moves = game.legal_moves()
        game.play(moves[pick(len(moves))])
    raise AssertionError(f"no end after {MAX_STEPS} moves: {repro(game)}")


# -- 1. conservation ---------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
@PROPERTY
@given(data=st.data())
def test_tiles_are_conserved(slug: str, data: st.DataObject) -> None:
    """At every step the hands, the board (tiles laid this round), the stock and
    the sleeping tiles partition the whole set: no tile twice, none missing.
    From the views alone: sum(hand_sizes) + len(board) + stock + sleeping is the
    set's size, hand_sizes and hand match the hands, the board holds the laid
    tiles as a chain whose outer halves are the ends."""
    setup = data.draw(setups(slug), label="setup")
    for g in walk(setup):
        ts = g.ts
        board = board_ids(g)
        parts = {
            **{f"hand {s}": h for s, h in enumerate(g.hands)},
            "board": mask_of(board),
            "stock": mask_of(g.stock),
            "sleeping": g.sleeping,
        }
        union = 0
        for name, mask in parts.items():
            assert union & mask == 0, (
                f"{ts.mask_names(union & mask)} twice ({name}): {repro(g)}"
            )
            union |= mask
        assert union == ts.all_mask, f"missing {ts.mask_names(ts.all_mask & ~union)}: {repro(g)}"
        assert len(board) == len(set(board)), f"a tile laid twice: {repro(g)}"
        assert len(g.stock) == len(set(g.stock)), f"a tile twice in the stock: {repro(g)}"
        for s in seats(g):
            v = g.view(s)
            total = sum(v["hand_sizes"]) + len(v["board"]) + v["stock"] + v["sleeping"]
            assert total == ts.size == set_size(v["set"]), f"view {s}: {total}: {repro(g)}"
            assert v["hand_sizes"] == [h.bit_count() for h in g.hands], repro(g)
            assert sorted(tile_of(t) for t in v["board"]) == sorted(board), repro(g)
            if v["layout"]["kind"] == "cross":
                check_cross(v, repro(g))
                continue
            chain = [tuple(int(x) for x in t.split("-")) for t in v["board"]]
            for (_, b), (c, _) in pairwise(chain):
                assert own_join(g) or b == c, f"board {v['board']} is not a chain: {repro(g)}"
            assert v["ends"] == ([chain[0][0], chain[-1][1]] if chain else []), repro(g)
            if s is not None:
                assert sorted(tile_of(t) for t in v["hand"]) == list(iter_ids(g.hands[s]))


def check_cross(v: dict[str, Any], context: str) -> None:
    """A cross layout (render/spinner.py) holds the board's tiles, each chain
    touching its spinner or branching double with equal halves, and every
    open end shows the outer half of a chain's last tile or an empty chain's base."""
    layout = v["layout"]
    spinner = tuple(int(x) for x in layout["spinner"].split("-"))
    tiles = [spinner]
    tips = set()

    def walk_chain(chain: list[Any], base: int) -> None:
        at = base
        for entry in chain:
            text = entry["tile"] if isinstance(entry, dict) else entry
            a, b = (int(x) for x in text.split("-"))
            assert a == at, f"{text} does not touch {at} in {layout}: {context}"
            tiles.append((a, b))
            at = b
            if isinstance(entry, dict):
                for branch in entry["branches"]:
                    walk_chain(branch, b)
        tips.add(at)

    for arm in layout["arms"]:
        walk_chain(arm, spinner[0])
    assert sorted(tile_id(*t) for t in tiles) == sorted(tile_of(t) for t in v["board"]), context
    assert set(v["ends"]) <= tips, f"ends {v['ends']} of {layout}: {context}"
    assert len(v["end_names"]) == len(v["ends"]), context


def placements(game: LineMatch) -> set[Move]:
    """Every placement of a tile of the hand on an open end of a cross whose
    value is one of its halves."""
    hand = game.hands[game.to_move or 0]
    public = game.view(None)
    return {game.parse_move("{}-{} {}".format(*id_halves(t), name))
            for name, value in zip(public["end_names"], public["ends"], strict=True)
            for t in iter_ids(hand) if value in id_halves(t)}


# -- 2. legal moves and the end of the match ---------------------------------------------


def own_join(game: LineMatch) -> bool:
    """Whether the variant has its own join rule (`_lay`: Matador's halves totalling 7)."""
    return type(game)._lay is not LineRound._lay


def rules_moves(game: LineMatch) -> set[Move]:
    """The placements the rules allow mid-round: a tile of the hand on an end
    showing one of its halves (one placement listed when both ends are equal,
    unless the variant says `equal_ends_differ` and the table holds two tiles
    or more: in Canton what a tile captures depends on its neighbours)."""
    hand = game.hands[game.to_move or 0]
    public = game.view(None)
    left, right = public["ends"]
    if own_join(game):  # the variant's rule, on the engine's end codes
        fits = game._lay
        left, right = game.left, game.right
        return {move_for(PLAY, t, side) for t in iter_ids(hand)
                for side, end in ((LEFT, left), (RIGHT, right))
                if fits(*id_halves(t), end) is not None and (side == LEFT or right != left)}
    both = getattr(game, "equal_ends_differ", False) and len(public["board"]) > 1
    out = set()
    for t in iter_ids(hand):
        halves = id_halves(t)
        if left in halves:
            out.add(move_for(PLAY, t, LEFT))
        if right in halves and (right != left or both):
            out.add(move_for(PLAY, t, RIGHT))
    return out


@pytest.mark.parametrize("slug", SLUGS)
@PROPERTY
@given(data=st.data())
def test_legal_moves_are_consistent_until_the_end(slug: str, data: st.DataObject) -> None:
    """Until the match is over legal_moves() is non-empty, has no duplicate, is
    what the rules allow (mid-round) and what view(to_move)["legal"] lists (no
    other view lists moves); every listed move plays on a copy; to_move is None
    exactly when over.  Once over: no legal move, and a result whose winners
    are seats, scores one per seat, ranking a permutation of the seats with
    the winners first."""
    setup = data.draw(setups(slug), label="setup")
    for g in walk(setup):
        assert (g.to_move is None) == g.over, repro(g)
        public = g.view(None)
        assert public["to_move"] == g.to_move and public["over"] == g.over, repro(g)
        assert "legal" not in public, repro(g)
        if g.over:
            break
        moves = g.legal_moves()
        assert moves, f"no legal move for seat {g.to_move}: {repro(g)}"
        assert len(set(moves)) == len(moves), f"duplicates in {moves}: {repro(g)}"
        texts = [str(m) for m in moves]
        for s in range(g.players):
            v = g.view(s)
            if s == g.to_move:
                assert v["legal"] == texts, repro(g)
            else:
                assert "legal" not in v, f"seat {s} is not to move: {repro(g)}"
        hand = g.hands[g.to_move]
        tiles = {m for m in moves if m.kind == PLAY}  # and the variant's other moves
        if public["ends"] and not tiles:  # a decision before the turn passes (claim points)
            assert moves, f"{texts}: {repro(g)}"
        elif public["ends"] and public["layout"]["kind"] == "cross":
            assert tiles == placements(g), f"{texts}: {repro(g)}"
        elif public["ends"]:
            assert tiles == rules_moves(g), f"{texts}: {repro(g)}"
        else:  # the opening; before it, a variant's own moves (nombres: give a tile back)
            assert all(m.kind != PLAY or (m.end == LEAD and (hand >> m.tid) & 1) for m in moves)
            assert all(m.kind == PLAY for m in moves) or not tiles, f"{texts}: {repro(g)}"
        for m in moves:
            c = g.copy()
            c.play(m)
            assert c.turn == g.turn + 1, repro(g)
    assert g.over and g.to_move is None
    assert g.legal_moves() == [], repro(g)
    result = g.result
    assert result is not None and result == g.view(None)["result"], repro(g)
    winners, ranking = result["winners"], result["ranking"]
    assert winners and set(winners) <= set(range(g.players)), f"{result}: {repro(g)}"
    assert len(winners) == len(set(winners)), f"{result}: {repro(g)}"
    assert len(result["scores"]) == g.players, f"{result}: {repro(g)}"
    assert sorted(ranking) == list(range(g.players)), f"{result}: {repro(g)}"
    assert set(ranking[: len(winners)]) == set(winners), f"{result}: {repro(g)}"


# -- 3. illegal moves --------------------------------------------------------------------


def illegal_moves(game: LineMatch, pick: Chooser) -> list[Move]:
    """Moves the rules forbid now, as Move objects: a tile not in the hand (or
    not in the set), a tile of the hand on an end showing neither of its halves,
    a lead-form move mid-round, a tile that may not open the round, a pass or a
    draw that is not listed."""
    ts = game.ts
    hand = game.hands[game.to_move or 0]
    ends = game.view(None)["ends"]
    listed = game.legal_moves()
    out: list[Move] = [move_for(k) for k in (PASS, DRAW) if move_for(k) not in listed]
    absent = [t for t in ts.ids if not (hand >> t) & 1]
    for _ in range(min(2, len(absent))):
        t = absent[pick(len(absent))]
        out.append(move_for(PLAY, t, (LEAD, LEFT, RIGHT)[pick(3)]))
    out.append(move_for(PLAY, tile_id(ts.max_pip + 1, pick(ts.max_pip + 2)), LEFT))
    in_hand = list(iter_ids(hand))
    if ends:
        if in_hand:  # (Canton: a seat that laid its last tile may still choose a capture)
            out.append(move_for(PLAY, in_hand[pick(len(in_hand))], LEAD))
        codes = (game.left, game.right)  # the engine's ends, for a variant's own join rule
        wrong = [
            move_for(PLAY, t, end)
            for t in in_hand
            for end in (LEFT, RIGHT)[: len(ends)]
            if (game._lay(*id_halves(t), codes[end]) is None if own_join(game)
                else ends[end] not in id_halves(t))
        ]
        names = game.view(None).get("end_names")  # a cross: every open end by name
        if names:
            wrong += [game.parse_move("{}-{} {}".format(*id_halves(t), name))
                      for t in in_hand for name, value in zip(names, ends, strict=True)
                      if value not in id_halves(t)]
        for _ in range(min(3, len(wrong))):
            out.append(wrong[pick(len(wrong))])
    else:  # a forced opening: the other tiles of the hand may not lead
        opening = {m.tid for m in listed}
        out.extend(move_for(PLAY, t, LEAD) for t in in_hand if t not in opening)
    return out


def illegal_texts(game: LineMatch, moves: list[Move]) -> list[Any]:
    """Text (and non-text) the rules forbid now: garbage, the notation of the
    illegal moves that name their end, and a tile without an end when it is
    not exactly one listed move (none: not playable; two: ambiguous)."""
    listed = [m.tid for m in game.legal_moves()]
    listed_texts = {str(m) for m in game.legal_moves()}  # "6-4 up" may be legal on a cross
    texts: list[Any] = [t for t in GARBAGE if t not in listed_texts]
    texts.extend(str(m) for m in moves if m.kind != PLAY or m.end != LEAD)
    texts.extend(
        "{}-{}".format(*id_halves(m.tid))
        for m in moves
        if m.kind == PLAY and listed.count(m.tid) != 1
    )
    return texts


def assert_refused(game: LineMatch, attempt: Any, before: str) -> None:
    """play(attempt) raises IllegalMove and leaves the match as it was."""
    with pytest.raises(IllegalMove):
        game.play(attempt)
        raise AssertionError(f"{attempt!r} was accepted: {repro(game)}")
    after = snapshot(game)
    assert after == before, f"refusing {str(attempt)[:40]!r} changed the match: {repro(game)}"


def assert_parsed_refused(game: LineMatch, text: str, before: str) -> None:
    """g.parse_move(text) refuses the text, or gives a move play() refuses."""
    try:
        move = game.parse_move(text)
    except IllegalMove:
        assert snapshot(game) == before, f"parsing {text[:40]!r} changed the match"
        return
    assert move not in game.legal_moves(), f"{text!r}: {repro(game)}"
    assert_refused(game, move, before)


@pytest.mark.parametrize("slug", SLUGS)
@PROPERTY
@given(data=st.data())
def test_illegal_moves_raise_and_change_nothing(slug: str, data: st.DataObject) -> None:
    """At random points, moves the rules forbid (see `illegal_moves`), given as
    Move objects, as parsed text and as text, raise IllegalMove and leave the
    record and every view as they were; after the end every move is refused."""
    setup = data.draw(setups(slug), label="setup")
    pick = Chooser([p * 7 + 3 for p in setup.picks])
    for g in walk(setup):
        if g.over:
            break
        if not (g.turn == 0 or pick.chance(3)):
            continue
        before = snapshot(g)
        moves = illegal_moves(g, pick)
        listed = g.legal_moves()
        for m in moves:
            assert m not in listed, f"the rules forbid {m}, listed in {listed}: {repro(g)}"
            assert_refused(g, m, before)
        texts = illegal_texts(g, moves)
        for _ in range(4):
            text = texts[pick(len(texts))]
            assert_refused(g, text, before)
            if isinstance(text, str):
                assert_parsed_refused(g, text, before)
    before = snapshot(g)
    last = g.moves[-1] if g.moves else move_for(PASS)
    for attempt in [last, move_for(PASS), move_for(DRAW), str(last), "6-6", *GARBAGE]:
        assert_refused(g, attempt, before)


# -- 4. what views hide ------------------------------------------------------------------


def tiles_named(obj: Any) -> set[int]:
    """Every whole tile string ("a-b", either way round) in the JSON text of `obj`."""
    text = json.dumps(obj)
    return {tile_id(int(a), int(b)) for a, b in _TILE_TOKEN_RE.findall(text)}


def where(game: LineMatch, tiles: set[int], viewer: int | None) -> str:
    """Which hidden place holds each tile (for failure messages)."""
    out = []
    for t in sorted(tiles):
        if t in game.stock:
            place = "the stock"
        elif (game.sleeping >> t) & 1:
            place = "the sleeping tiles"
        else:
            place = next(
                (f"seat {s}'s hand" for s, h in enumerate(game.hands) if (h >> t) & 1), "nowhere"
            )
        out.append("{}-{} (in {})".format(*id_halves(t), place))
    return f"view({viewer}) names {', '.join(out)}: {repro(game)}"


def check_view_hides(game: LineMatch, viewer: int | None, v: dict[str, Any]) -> None:
    """`v` (a view minus last_round) names no tile of another hand, the stock or the
    sleeping tiles; the public view has no hand; draw events show tiles only to
    the drawer; the stock is a count."""
    assert isinstance(v["stock"], int), repro(game)
    assert ("hand" in v) == (viewer is not None), repro(game)
    own = game.hands[viewer] if viewer is not None else 0
    allowed = own | mask_of(laid_ids(game))
    leaked = {t for t in tiles_named(v) if not (allowed >> t) & 1}
    assert not leaked, where(game, leaked, viewer)
    for e in v["events"]:
        if e["type"] == "draw":
            assert ("tiles" in e) == (e["seat"] == viewer), f"{e}: {repro(game)}"
            drawn = {tile_of(t) for t in e.get("tiles", [])}
            assert len(drawn) in (0, e["count"]), f"{e}: {repro(game)}"
            assert all((own >> t) & 1 for t in drawn), f"{e} not in hand: {repro(game)}"


def without_previous_round(game: LineMatch, v: dict[str, Any]) -> dict[str, Any]:
    """View `v` without last_round and what a new round carries over from the
    previous one, each item checked to be exactly that: the previous round's
    last move (while nothing is laid in this round) and its closing draw events
    (before the "round" event), whose tiles stayed in the drawer's hand and are
    revealed in last_round."""
    v = dict(v)
    last_round = v.pop("last_round")
    if game.round_no > 1 and not game.played and not game.over:
        assert v["last_move"] is None, repro(game)  # nothing carried into a new round
    events = v["events"]
    starts = [i for i, e in enumerate(events) if e["type"] == "round"]
    if starts:
        assert game.round_no > 1 and last_round is not None, repro(game)
        for e in events[: starts[-1]]:
            if "tiles" in e:
                held = last_round["hands"][e["seat"]]
                assert set(e["tiles"]) <= set(held), f"{e}: {repro(game)}"
        v["events"] = events[starts[-1] :]
    return v


@pytest.mark.parametrize("slug", SLUGS)
@PROPERTY
@given(data=st.data())
def test_views_hide_other_hands_and_the_stock(slug: str, data: st.DataObject) -> None:
    """At every step, outside last_round (the previous round's hands, shown at its
    end) and the previous round's closing move and draws carried into a new
    round (see `without_previous_round`), view(s) names no tile but s's hand and
    the board: none of another hand, of the stock (its order included) or of
    the sleeping tiles; the public view has no hand and names board tiles only;
    drawn tiles are shown to the drawer only, and are then in its hand."""
    setup = data.draw(setups(slug), label="setup")
    for g in walk(setup):
        for s in seats(g):
            check_view_hides(g, s, without_previous_round(g, g.view(s)))


@pytest.mark.parametrize("slug", SLUGS)
@PROPERTY
@given(data=st.data())
def test_views_name_no_tile_of_the_previous_round(slug: str, data: st.DataObject) -> None:
    """The same as the test above with nothing exempted but last_round: also right
    after a new deal, view(s) names no tile but s's hand and the board.  The
    previous round's last move ("last_move") and closing draw events, if shown
    in the new round, may name tiles now in another hand or in the stock."""
    setup = data.draw(setups(slug), label="setup")
    for g in walk(setup):
        for s in seats(g):
            v = g.view(s)
            v.pop("last_round")
            check_view_hides(g, s, v)


# -- 5. records and notation -------------------------------------------------------------


def assert_same_match(game: LineMatch, other: LineMatch, context: str) -> None:
    for s in seats(game):
        assert other.view(s) == game.view(s), f"{context}: view({s}) differs: {repro(game)}"
    assert other.result == game.result, f"{context}: {repro(game)}"
    assert other.record() == game.record(), f"{context}: {repro(game)}"


def replayed(game: LineMatch) -> LineMatch:
    """The match rebuilt from its record, after a trip through JSON text."""
    record = game.record()
    text = json.dumps(record)
    assert json.loads(text) == record, f"the record does not survive JSON: {text[:200]}"
    other = replay(json.loads(text))
    assert isinstance(other, LineMatch)
    return other


@pytest.mark.parametrize("slug", SLUGS)
@PROPERTY
@given(data=st.data())
def test_records_replay_and_notation_round_trips(slug: str, data: st.DataObject) -> None:
    """parse_move(str(m)) == m for every legal move at every step; at random points
    and at the end, replay(record()) (after JSON) gives the same views, result and
    record; a match replayed mid-way and played on with the same moves ends
    the same as the original."""
    setup = data.draw(setups(slug), label="setup")
    pick = Chooser([p * 5 + 1 for p in setup.picks])
    twin: LineMatch | None = None
    for g in walk(setup):
        if twin is not None:  # made one move ago: it plays the move the original played
            twin.play(g.moves[-1])
            assert_same_match(g, twin, "replayed mid-way, played on")
        for m in g.legal_moves():
            assert g.parse_move(str(m)) == m, f"{m}: {repro(g)}"
        if not g.over and pick.chance(8):
            other = replayed(g)
            assert_same_match(g, other, "mid-game replay")
            if twin is None:
                twin = other
    assert_same_match(g, replayed(g), "final replay")


# -- 6. copies ---------------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
@PROPERTY
@given(data=st.data())
def test_copies_are_independent(slug: str, data: st.DataObject) -> None:
    """At random points a copy starts equal to the original; playing the copy to
    its end (through later deals) leaves the original's views and record as
    they were, playing on the original leaves a copy as it was, and the
    original still ends as its own record replays."""
    setup = data.draw(setups(slug), label="setup")
    pick = Chooser([p * 3 + 2 for p in setup.picks])
    kept: list[tuple[LineMatch, str]] = []
    for g in walk(setup):
        if g.over or len(kept) >= 3 or not (g.turn == 0 or pick.chance(6)):
            continue
        before = snapshot(g)
        c = g.copy()
        assert snapshot(c) == before, f"a fresh copy differs: {repro(g)}"
        play_out(c, pick)
        assert snapshot(g) == before, f"playing a copy changed the original: {repro(g)}"
        c2 = g.copy()
        kept.append((c2, snapshot(c2)))
    for c2, snap in kept:
        assert snapshot(c2) == snap, f"playing the original changed a copy: {repro(c2)}"
    assert_same_match(g, replayed(g), "the original after its copies")
