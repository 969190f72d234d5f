"""The rules core's errors in the player's language: each carries its English template and
values, `str(exc)` stays the English sentence, and the service shows a French player the
French one (illegal moves, bad options, player counts, unknown variants)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import end_words, error_text, source_strings
from bot.service.service import Service
from core import DominoError, IllegalMove, OptionError, UnknownVariant, variants
from core.line.cross import parse_end
from core.moves import parse_notation
from core.options import parse_pairs
from tests.service_helpers import ALICE, BOB, CHANNEL, SCOPE, errors, run, with_service

CLASSIC = variants.get("classic")


def refusal(call: object) -> DominoError:
    """The core error `call()` raises."""
    with pytest.raises(DominoError) as info:
        call()  # type: ignore[operator]
    return info.value


def test_str_is_the_english_sentence_and_the_template_fills_to_it() -> None:
    cases = {
        lambda: parse_notation("6-4 sideways"): "unknown end 'sideways': say 'left' or 'right'",
        lambda: parse_notation("hello there"):
            "not a move: 'hello there'; write a tile and an end like '6-4 left', "
            "or 'draw' / 'pass'",
        lambda: parse_end("north"):
            "unknown end 'north': say left, right, up or down (a branch: up-3-left, the left "
            "branch of the 3rd tile of the up arm)",
        lambda: variants.get("Nope"):
            "unknown variant 'Nope'; the variants are: " + ", ".join(variants.names()),
        lambda: CLASSIC.new(players=9):
            f"classic is played by {CLASSIC.min_players} to {CLASSIC.max_players} players "
            "(got 9)",
        lambda: variants.get("classic").new(players="many"):
            "classic: players must be a whole number (got 'many')",
        lambda: variants.get("classic").new(players=2, colour="red"):
            "classic has no option 'colour'; its options are: "
            + ", ".join(sorted(o.name for o in variants.get("classic").options)),
        lambda: parse_pairs(["draw"]): "option 'draw' must be written name=value, like draw=block",
    }
    for call, english in cases.items():
        exc = refusal(call)
        assert str(exc) == english
        assert exc.template and exc.template != english  # a template with fields
        assert error_text("en", exc) == english


def test_a_plain_core_error_is_shown_as_it_is() -> None:
    exc = IllegalMove("something odd")
    assert exc.template is None and error_text("fr", exc) == "something odd"


def test_a_list_of_moves_is_joined_with_or_in_each_language() -> None:
    game = variants.get("cross").new(players=2, seed=3)
    for _ in range(200):  # play the first legal move until a tile fits several ends
        seat = game.to_move
        assert seat is not None
        for name in game.view(seat)["hand"]:
            if sum(m.tile is not None and str(m.tile) == name for m in game.legal_moves()) > 2:
                exc = refusal(lambda n=name: game.parse_move(n))
                moves = exc.values["moves"]
                assert isinstance(moves, tuple) and len(moves) > 2
                assert str(exc) == f"{name} fits several ends: say " + " or ".join(moves)
                assert error_text("fr", exc) == f"{name} va sur plusieurs bouts : dites " + \
                    " ou ".join(end_words(m, "fr") for m in moves)  # "6-4 haut", "6-4 gauche"
                return
        game.play(game.legal_moves()[0])
    pytest.fail("no tile fitted three ends")


def test_matador_says_what_an_end_takes_in_french() -> None:
    game = variants.get("matador").new(players=2, seed=5)
    game.play(game.legal_moves()[0])  # the lead: from now on tiles go on an end
    seat = game.to_move
    assert seat is not None
    seen = set()
    for name in game.view(seat)["hand"]:
        for end in ("left", "right"):
            try:
                game.check(game.parse_move(f"{name} {end}"))
            except IllegalMove as exc:
                assert str(exc).startswith(f"{name} does not fit the {end} end, which takes ")
                french = error_text("fr", exc)
                word = {"left": "gauche", "right": "droite"}[end]  # the notation's words
                assert french.startswith(f"{name} ne va pas sur le bout « {word} », qui prend un")
                assert "takes" not in french and " or " not in french
                seen.add(exc.template)
    assert seen, "no tile was refused on an end"


def test_every_core_template_is_extracted() -> None:
    found = {m if isinstance(m, str) else m[0] for _, m in source_strings()}
    assert {"{tile} is not in your hand", "unknown variant {name!r}; the variants are: {variants}",
            "{variant} is played by {lo} to {hi} players (got {got})",
            "{tile} does not fit the {side} end, which takes a matador",
            "Not allowed: {why}. You can play: {legal}"} <= found


def test_a_french_player_reads_core_errors_in_french(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        async def opening(variant: str, **kw: object) -> str:
            return errors(await service.open_table(BOB, CHANNEL, SCOPE, variant, **kw))[0]

        assert await opening("nope") == (
            "Impossible d'ouvrir la table : variante inconnue 'nope' ; les variantes sont : "
            + ", ".join(variants.names()))
        lo, hi = CLASSIC.min_players, CLASSIC.max_players
        assert await opening("classic", options="players=9") == (
            f"Impossible d'ouvrir la table : classic se joue de {lo} à {hi} joueurs (demandé : 9)")
        assert await opening("classic", options="draw=sometimes") == (
            "Impossible d'ouvrir la table : classic : l'option 'draw' doit valoir "
            + ", ".join(str(c) for c in _option("classic", "draw").choices)
            + " (reçu 'sometimes')")
        assert await opening("classic", options="ai=7") == (
            "Impossible d'ouvrir la table : ai doit être un nombre entier de 0 à 1")
        assert errors(await service.rules(BOB, "nope"))[0].startswith(
            "Pas de règles pour cela : variante inconnue 'nope' ; les variantes sont : ")
        # an English player meets the same refusal in English
        english = errors(await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                  options="players=9"))[0]
        assert english == (f"Cannot open the table: classic is played by {lo} to {hi} players "
                           "(got 9)")

        replies = await service.open_table(BOB, CHANNEL, SCOPE, "classic",
                                           options="players=2")
        tid = next(m.table for m in replies if m.table is not None)
        await service.join(ALICE, tid)
        await service.begin(BOB, tid)
        game = service.tables[tid].game
        if game.to_move != 0:  # alice leads: bob waits his turn, refused in French
            assert errors(await service.play(BOB, tid, "6-6"))[0] == \
                "C'est au tour de alice, pas au vôtre."
            await service.play(ALICE, tid, str(game.legal_moves()[0]))
        assert game.to_move == 0
        mine = set(game.view(0)["hand"])
        other = next(n for n in game.ts.names if n not in mine)
        refused = errors(await service.play(BOB, tid, f"{other} left"))[0]
        legal = ", ".join(end_words(str(m), "fr") for m in game.legal_moves())
        assert refused == (f"Coup refusé : {other} n'est pas dans votre main. "
                           f"Vous pouvez jouer : {legal}")
        refused = errors(await service.play(BOB, tid, "6-4 sideways"))[0]
        assert refused.startswith("Coup refusé : bout inconnu 'sideways' : dites 'gauche' ou "
                                  "'droite'. Vous pouvez jouer : ")
        assert not re.search(r"\b(left|right)\b", refused)

    run(with_service(tmp_path / "db.sqlite", body))


def _option(slug: str, name: str):  # type: ignore[no-untyped-def]
    return next(o for o in variants.get(slug).options if o.name == name)


def test_option_and_variant_errors_keep_their_classes() -> None:
    assert isinstance(refusal(lambda: variants.get("x")), UnknownVariant)
    assert isinstance(refusal(lambda: parse_pairs(["=1"])), OptionError)
    assert isinstance(refusal(lambda: parse_notation("zz")), IllegalMove)
