"""The line engine's fast paths (issue 18) give what the slow ones gave: a copy's generator
kept as a snapshot of the original's state, the tables a move carries (`Move.after`,
`Move.bit`, `Move.by_seat`), leads listed a byte of the hand at a time, and the copier of a
class's slots."""

from __future__ import annotations

import random

import pytest

from core import IllegalMove, variants
from core.copying import all_slots
from core.line.match import LineMatch
from core.line.variant import LineVariant
from core.moves import LEAD, LEFT, MAX_SEATS, MAX_VALUE, PASS, PLAY, RIGHT, move_for
from core.tiles import id_halves, iter_ids, tile_set


def played_match(slug: str, players: int, seed: int, moves: int) -> LineMatch:
    """A match dealt from its seed (so its generator exists), `moves` random moves in."""
    game = variants.get(slug).new(players=players, seed=seed)
    assert isinstance(game, LineMatch)
    rng = random.Random(seed)
    for _ in range(moves):
        game.play(rng.choice(game.legal_moves()))
    return game


def to_the_end(game: LineMatch, seed: int) -> list[str]:
    """Play `game` to the end of the match at random; the moves and final scores."""
    rng = random.Random(seed)
    while not game.over:
        game.play(rng.choice(game.legal_moves()))
    return [m.text for m in game.moves] + [str(game.result)]


@pytest.mark.parametrize("slug,players", [("classic", 2), ("partnership", 4), ("muggins", 3)])
def test_copies_of_copies_deal_the_rounds_the_original_deals(slug: str, players: int) -> None:
    reference = to_the_end(played_match(slug, players, 7, 3), 11)
    game = played_match(slug, players, 7, 3)
    first = game.copy()
    second = first.copy()
    # the original uses its generator first, then the copies, in another order
    assert to_the_end(game, 11) == reference
    assert to_the_end(second, 11) == reference
    assert to_the_end(first, 11) == reference


def test_a_copy_taken_after_the_original_dealt_again_goes_on_from_there() -> None:
    game = played_match("partnership", 4, 3, 0)
    early = game.copy()
    assert to_the_end(game.copy(), 5) == to_the_end(early, 5)
    while game.round_no == 1:
        game.play(game.legal_moves()[0])
    assert not game.over and game.legal_moves()  # round 2 dealt from the generator
    late = game.copy()
    assert to_the_end(late, 9) == to_the_end(game, 9)


def test_determinized_copies_make_their_own_generator_from_the_seat_rng() -> None:
    game = played_match("partnership", 4, 2, 5)
    seat = game.to_move
    assert seat is not None
    a = game.determinized(seat, random.Random(4))
    b = game.determinized(seat, random.Random(4))
    assert a.hands == b.hands
    assert to_the_end(a, 8) == to_the_end(b, 8)


@pytest.mark.parametrize("tid", range(len(tile_set(9).hi)))
def test_a_move_carries_its_bit_and_the_plain_join(tid: int) -> None:
    a, b = id_halves(tid)
    for end in (LEFT, RIGHT):
        move = move_for(PLAY, tid, end)
        assert move.bit == 1 << tid and move.side == end
        assert move.by_seat == tuple((seat, move) for seat in range(MAX_SEATS))
        for value in range(MAX_VALUE + 1):
            other = b if value == a else a if value == b else -1
            assert move.after[value] == other
        assert move.after[-1] == -1  # an empty line's end fits nothing
    lead = move_for(PLAY, tid, LEAD)
    assert lead.side == -1 and lead.bit == 1 << tid
    assert move_for(PASS).side == -1 and move_for(PASS).bit == 0


@pytest.mark.parametrize("max_pip", [6, 9, 12])
def test_leads_come_lowest_tile_first_as_the_hand_bits_say(max_pip: int) -> None:
    ts = tile_set(max_pip)
    rng = random.Random(max_pip)
    game = variants.get("classic").new(players=2, seed=1, set=max_pip, opening="any")
    assert isinstance(game, LineMatch) and game.ts is ts and game.lead_tid < 0
    for _ in range(50):
        hand = 0
        for t in rng.sample(ts.ids, rng.randint(1, 20)):
            hand |= 1 << t
        game._hands[game.to_move] = hand  # type: ignore[index]
        assert [m.tid for m in game.legal_moves()] == list(iter_ids(hand))


def test_a_copy_has_every_slot_of_the_original() -> None:
    game = played_match("partnership", 4, 4, 6)
    twin = game.copy()
    for name in all_slots(type(game)):
        mine, theirs = getattr(game, name), getattr(twin, name)
        if name in ("_rng", "_rng_state"):
            continue
        assert mine == theirs or mine is theirs, name


def test_a_line_game_seats_at_most_max_seats() -> None:
    with pytest.raises(TypeError, match="at most"):
        type("Crowded", (LineVariant,), {"slug": "crowded", "max_players": MAX_SEATS + 1})


@pytest.mark.parametrize("slug", ["partnership", "classic", "muggins", "school"])
def test_the_short_and_the_general_way_play_alike(slug: str) -> None:
    # `play` takes a plain round's common move on its short path and everything else the
    # general way (`_play`): the same seeded game played through each gives the same
    # record, views and totals; a move given as text, or refused, takes the general way
    # (the refusal carries no trace of the short path)
    options = {"chain_turns": True} if slug == "school" else {}
    short = variants.get(slug).new(players=4, seed=11, **options)
    general = variants.get(slug).new(players=4, seed=11, **options)
    rng = random.Random(11)
    for _ in range(60):
        if short.over:
            break
        move = rng.choice(short.legal_moves())
        short.play(move)
        general._play(move.text)
        assert short.view(None) == general.view(None)
        assert short.totals == general.totals and short.hands == general.hands
    assert short.record() == general.record()
    if not short.over:
        with pytest.raises(IllegalMove) as refused:
            short.play("9-9")
        assert refused.value.__context__ is None
