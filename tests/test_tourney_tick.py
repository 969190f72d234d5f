"""Issue 37, item 5: one part of a tick that fails (a read of the open tournaments, the
search for idle lobbies, the adoption of other processes' games) loses no other part's
messages: the computers' moves stored by that tick are still said."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot.service.service import Service
from bot.storage import open_store
from tests.service_helpers import (
    ALICE,
    CHANNEL,
    SCOPE,
    Clock,
    RecordingPictures,
    press_a_legal_tile,
    run,
    table_id,
)


class FailingStore:
    """The real store, except that the calls named in `failing` raise (each once) after
    they are armed: an injected failure of one read."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.failing: set[str] = set()
        self.failed: list[str] = []

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._store, name)
        if name not in self.failing:
            return real

        async def broken(*args: Any, **kw: Any) -> Any:
            self.failing.discard(name)
            self.failed.append(name)
            raise OSError(f"injected: {name} failed")
        return broken


@pytest.mark.parametrize("failing", [("tournaments",), ("unplaced_tournaments",),
                                     ("tournaments", "unplaced_tournaments")])
def test_a_failing_part_of_a_tick_keeps_the_computers_moves(tmp_path: Path, caplog: Any,
                                                             failing: tuple[str, ...]) -> None:
    async def body() -> None:
        real = await open_store(tmp_path / "db.sqlite")
        store = FailingStore(real)
        try:
            clock = Clock()
            service = Service(store, pictures=RecordingPictures(),  # type: ignore[arg-type]
                              ai_delay=1, seed=3, default_timer=None, clock=clock)
            await service.start()
            await service.tick()
            tid = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                    options="players=2 ai=1"))
            table = service.tables[tid]
            said = []
            for _ in range(6):  # a computer's turn, then a tick that fails in one part
                if not table.is_ai(table.game.to_move):
                    await press_a_legal_tile(service, tid, ALICE)
                    if tid not in service.tables:
                        break
                if table.is_ai(table.game.to_move):
                    clock.now += 2
                    store.failing = set(failing)
                    service.tournaments._tourney_due = True  # the tournaments' part runs this tick
                    service.tournaments._places_looked = float("-inf")
                    with caplog.at_level(logging.ERROR):
                        out = await service.tick()
                    said += [m.text for m in out if m.table == tid]
                    assert any(" plays " in m.text or "Your turn" in m.text or m.kind == "turn"
                               for m in out), [m.text for m in out]
            assert store.failed, "the failure was not injected"
            assert said
        finally:
            await real.close()

    run(body())
