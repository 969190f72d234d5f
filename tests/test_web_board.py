"""The web table's state payload (`bot.web.board.state_payload`): the contract's shape, every
legal move offered exactly once by its own text, words in the player's language, and
privacy: a seat's payload, of every slug, holds no tile of another seat's hand."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.web.board import page_strings, state_payload
from core import variants

GOLDEN = Path(__file__).resolve().parent / "golden"
NAMES = ["Ann", "Bob", "Cyd", "Dee"]
TILE = re.compile(r"(?<![\d-])(\d{1,2})-(\d{1,2})(?![\d-])")
KEYS = {"seat", "board_svg", "hand", "moves", "buttons", "lines", "names", "to_move", "over"}


@cache
def steps(slug: str) -> list[dict[str, Any]]:
    lines = (GOLDEN / f"{slug}.jsonl").read_text(encoding="utf-8").splitlines()[1:]
    return [json.loads(line) for line in lines]


def tiles_in(payload: dict[str, Any]) -> set[tuple[int, int]]:
    """Every tile written anywhere in the payload, either way round."""
    text = json.dumps(payload, ensure_ascii=False)
    return {tuple(sorted((int(a), int(b)))) for a, b in TILE.findall(text)}


def tile_set(tiles: list[str]) -> set[tuple[int, int]]:
    return {tuple(sorted(int(v) for v in str(x).split("-"))) for x in tiles}


@pytest.mark.parametrize("slug", variants.names())
def test_a_seat_payload_holds_no_tile_of_another_hand(slug: str) -> None:
    for step in steps(slug)[::4] + steps(slug)[-1:]:
        views = step["views"]
        seats = [k for k in views if k != "public"]
        for seat in seats:
            payload = state_payload(views[seat], names=NAMES, lang="en")
            others = set().union(*(tile_set(views[s].get("hand") or [])
                                   for s in seats if s != seat))
            mine = tile_set(views[seat].get("hand") or [])
            leaked = (tiles_in(payload) & others) - mine
            assert not leaked, (slug, step["step"], seat, leaked)
        public = state_payload(views["public"], names=NAMES, lang="en")
        hands = set().union(*(tile_set(views[s].get("hand") or []) for s in seats))
        if slug not in ("patience",) and variants.get(slug).family != "puzzle":
            assert not tiles_in(public) & hands, (slug, step["step"])
        assert public["hand"] == [] and public["moves"] == [] and public["buttons"] == []


@pytest.mark.parametrize("slug", variants.names())
def test_every_legal_move_is_offered_once_by_its_text(slug: str) -> None:
    for step in steps(slug)[::5]:
        seat = step["to_move"]
        if seat is None or step.get("over"):
            continue
        view = step["views"][str(seat)]
        payload = state_payload(view, names=NAMES, lang="fr")
        assert set(payload) == KEYS
        offered = [m["move"] for m in payload["moves"]] + [b["move"] for b in payload["buttons"]]
        assert set(offered) == set(view["legal"]), (slug, step["step"])
        assert len({b["move"] for b in payload["buttons"]}) == len(payload["buttons"])
        hand = {h["tile"] for h in payload["hand"]}
        for m in payload["moves"]:
            assert m["tile"] is None or m["tile"] in hand, (slug, m)
            assert m["label"]
        playable = {h["tile"] for h in payload["hand"] if h["playable"]}
        assert playable == {m["tile"] for m in payload["moves"] if m["tile"]}
        assert payload["seat"] == seat and payload["names"] == NAMES
        assert payload["board_svg"].startswith("<svg")


def test_words_follow_the_language() -> None:
    step = next(s for s in steps("classic") if any(" " in m for m in s.get("legal", [])))
    view = step["views"][str(step["to_move"])]
    fr = state_payload(view, names=NAMES, lang="fr")
    en = state_payload(view, names=NAMES, lang="en")
    assert any("gauche" in m["label"] or "droite" in m["label"] for m in fr["moves"])
    assert any("left" in m["label"] or "right" in m["label"] for m in en["moves"])
    assert fr["lines"][0].startswith("Manche") and en["lines"][0].startswith("Round")
    assert page_strings("fr")["cancel"] == "Annuler"
    assert "La table" in fr["board_svg"]


def test_patience_pairs_go_either_way() -> None:
    step = next(s for s in steps("patience") if s.get("legal"))
    payload = state_payload(step["views"]["0"], names=NAMES, lang="en")
    move = payload["moves"][0]["move"]
    a, b = move.split()
    targets = {m["target"] for m in payload["moves"] if m["move"] == move}
    assert targets == {f"{a} {b}", f"{b} {a}"}


def test_the_status_says_the_result_and_a_solitaire_has_no_round() -> None:
    last = steps("classic")[-1]
    assert last["over"]
    lines = state_payload(last["views"]["0"], names=NAMES, lang="en")["lines"]
    assert any(line.startswith("Game over.") for line in lines)
    step = steps("patience")[1]
    lines = state_payload(step["views"]["0"], names=NAMES, lang="en")["lines"]
    assert lines and not any(line.startswith("Round") for line in lines)


def test_a_hand_comes_sorted_as_a_player_sorts_it() -> None:
    from bot.web.board import sorted_hand

    hand = ["1-0", "6-6", "5-3", "3-3", "6-3", "2-0", "4-3"]
    # threes are trumps: their double, then the rest highest first; then each suit
    assert sorted_hand(hand, {"trumps": 3}, "tricks") == [
        "3-3", "6-3", "5-3", "4-3", "6-6", "2-0", "1-0"]
    assert sorted_hand(hand, {"trumps": "doubles"}, "tricks")[:2] == ["6-6", "3-3"]
    assert sorted_hand(hand, {"trumps": None}, "tricks") == sorted_hand(hand, {}, "line") == [
        "6-6", "6-3", "5-3", "4-3", "3-3", "2-0", "1-0"]
