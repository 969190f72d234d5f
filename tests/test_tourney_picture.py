"""A tournament's standings come with their picture (issue 31): after each round on the
standings message, at the end on the podium message, and to whoever asks for the standings;
drawn when pictures are on."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image

from bot.service.pictures import NoPictures, Pictures
from bot.service.service import Service
from tests.service_helpers import button, errors, run, with_service
from tests.test_service_tournaments import HERE, ORGANISER, PLAYERS, open_swiss, play_round


class StandingsOnly(NoPictures):
    """No table pictures (fast), but the standings drawn for real, in the asked language."""

    def __init__(self, lang: str = "en") -> None:
        super().__init__(lang)
        self.asked: list[tuple[str, list[dict[str, Any]]]] = []

    def for_lang(self, lang: str) -> Pictures:
        other = StandingsOnly(lang)
        other.asked = self.asked
        return other

    def standings(self, tid: int, rows: list[dict[str, Any]], tie_breaks: list[str],
                  round_no: int, final: bool) -> bytes | None:
        self.asked.append((self.lang, rows))
        return Pictures(self.lang).standings(tid, rows, tie_breaks, round_no, final)


def opens(png: bytes | None) -> bool:
    assert png is not None
    with Image.open(io.BytesIO(png)) as im:
        im.load()
        return im.format == "PNG" and im.width <= 800


def test_each_rounds_standings_and_the_podium_carry_a_picture(tmp_path: Path) -> None:
    pictures = StandingsOnly()
    players = PLAYERS[:4]

    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss rounds=2 seats=2 classic fill=on")
        for u in players:
            assert not errors(await service.press(u, button(ann, "Register"), where=HERE))
        assert not errors(await service.press(ORGANISER, button(ann, "Start"), where=HERE))
        await play_round(service, tid)
        said = await service.tick()
        after = next(m for m in said if "standings after round 1" in m.text)
        assert opens(after.image)
        asked = await service.tournament_standings(PLAYERS[1], tid, where=HERE)
        assert asked[0].to == PLAYERS[1].id and opens(asked[0].image)  # asked privately too
        await play_round(service, tid)
        said = await service.tick()
        table = next(m for m in said if "final standings" in m.text)
        podium = next(m for m in said if "Podium" in m.text)
        assert table.image is None and opens(podium.image)  # the final picture posted once
        assert [lang for lang, _ in pictures.asked] == ["en", "en", "en"]
        names = {r["name"] for r in pictures.asked[-1][1]}
        assert names == {u.name for u in players}  # names, never the entrants' ids

    run(with_service(tmp_path / "db.sqlite", body, pictures=pictures, default_timer=None))


def test_no_pictures_no_image(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss rounds=1 seats=2 classic fill=on")
        for u in PLAYERS[:2]:
            assert not errors(await service.press(u, button(ann, "Register"), where=HERE))
        assert not errors(await service.press(ORGANISER, button(ann, "Start"), where=HERE))
        await play_round(service, tid)
        said = await service.tick()
        assert any("Podium" in m.text for m in said)
        assert all(m.image is None for m in said)

    run(with_service(tmp_path / "db.sqlite", body, pictures=NoPictures(),
                     default_timer=None))


def test_standings_text_says_points_in_each_language_with_its_plural_and_decimals() -> None:
    from bot.tournament import Standing, words

    rows = [Standing(1, "a", 1.5, {"buchholz": 2.5}, 2, False),
            Standing(2, "b", 1.0, {"buchholz": 1.0}, 2, False)]
    names = {"a": "Ann", "b": "Bob"}
    en = words.standings(1, "en", rows, names, 1, False).splitlines()
    fr = words.standings(1, "fr", rows, names, 1, False).splitlines()
    assert en[1].startswith("1. Ann: 1.5 points (") and en[2].startswith("2. Bob: 1 point (")
    assert fr[1].startswith("1. Ann: 1,5 points (") and "2,5" in fr[1]
    assert fr[2].startswith("2. Bob: 1 point (")
