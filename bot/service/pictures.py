"""Pictures for messages: the public table and a private hand, as PNG bytes.

The service asks this object, never `render` directly, so that a picture for a channel can
only be made from a public view (checked here) and tests or benchmarks can run without
drawing (`NoPictures`).  A picture that cannot be drawn (a view render does not know yet, a
drawing error) is logged and left out: the message goes without it and the game goes on.

The words drawn (stock, round, "Your hand: 3 tiles"...) are in the object's language:
``pictures.for_lang("fr")`` gives the same pictures in French (the table's language for the
public picture, the player's for a hand), through the catalogue of `bot.i18n`.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import itertools
import logging
import multiprocessing
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from bot.i18n import translator

if TYPE_CHECKING:
    from .messages import Message

log = logging.getLogger("domino.pictures")


def check_public(view: dict[str, Any]) -> None:
    """Refuse a view that is not the public one: it has a seat, a hand or legal moves (the
    core gives `legal` to the seat to move only, never to the public view)."""
    if view.get("seat") is not None or view.get("hand") or "legal" in view:
        raise ValueError("a picture for the channel must be made from the public view")


class Pictures:
    """Draws with `render` (Pillow), its words in ``lang`` ("en" or "fr")."""

    lang = "en"  # also for subclasses that do not call __init__ (dataclasses)

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang

    def for_lang(self, lang: str) -> Pictures:
        """These pictures with their words in ``lang``."""
        if lang == self.lang:
            return self
        other = copy.copy(self)
        other.lang = lang
        return other

    def public(self, view: dict[str, Any], names: list[str] | None = None) -> bytes | None:
        check_public(view)
        return self._draw("position_png", view, names, tr=self._translator())

    def hand(self, view: dict[str, Any]) -> bytes | None:
        return self._draw("hand_png", view, tr=self._translator())

    def scoresheet(self, view: dict[str, Any], names: list[str], lines: list[str]
                   ) -> bytes | None:
        """The round that just ended: its final board, the hands, the sheet's `lines`."""
        check_public(view)
        return self._draw("scoresheet_png", view, names, lines, tr=self._translator())

    def last_trick(self, view: dict[str, Any], names: list[str] | None = None
                   ) -> bytes | None:
        """The last trick taken (a trick game's public view), its seats by `names`, or None."""
        check_public(view)
        try:
            from render.tricks import last_trick_png
        except ImportError:
            return None
        try:
            return last_trick_png(view, tr=self._translator(), names=names)
        except Exception:
            log.exception("render.tricks.last_trick_png failed")
            return None

    def standings(self, tid: int, rows: list[dict[str, Any]], tie_breaks: list[str],
                  round_no: int, final: bool) -> bytes | None:
        """A tournament's standings table (`render.standings`): plain rows (rank, name,
        points, tie_breaks, dropped), the format's tie-break keys in order."""
        try:
            from render.standings import standings_png
        except ImportError:
            return None
        try:
            return standings_png(tid, rows, tie_breaks, round_no, final, tr=self._translator())
        except Exception:
            log.exception("render.standings.standings_png failed")
            return None

    def _translator(self) -> Any:
        """None for English (render's own words, and a variant's English strip line)."""
        return None if self.lang == "en" else translator(self.lang)

    @staticmethod
    def _draw(name: str, *args: Any, **kwargs: Any) -> bytes | None:
        import render

        draw: Callable[..., bytes] | None = getattr(render, name, None)
        if draw is None:
            return None
        try:
            return draw(*args, **kwargs)
        except Exception:
            log.exception("render.%s failed", name)
            return None


class NoPictures(Pictures):
    """No drawing at all (benchmarks, text-only consoles); still checks public views."""

    def for_lang(self, lang: str) -> Pictures:
        return self  # nothing is drawn: the language changes nothing

    def public(self, view: dict[str, Any], names: list[str] | None = None) -> bytes | None:
        check_public(view)
        return None

    def hand(self, view: dict[str, Any]) -> bytes | None:
        return None

    def scoresheet(self, view: dict[str, Any], names: list[str], lines: list[str]
                   ) -> bytes | None:
        check_public(view)
        return None

    def last_trick(self, view: dict[str, Any], names: list[str] | None = None
                   ) -> bytes | None:
        check_public(view)
        return None

    def standings(self, tid: int, rows: list[dict[str, Any]], tie_breaks: list[str],
                  round_no: int, final: bool) -> bytes | None:
        return None


PENDING = b"\0domino-picture-pending:"  # a placeholder's prefix (never a PNG's first bytes)
MAX_PENDING = 10_000  # placeholders kept; a message dropped unsent leaves at most this many


class PicturePool:
    """Draws pictures in worker threads, off the event loop.

    `deferred(...)` is a `Pictures` whose `public` and `hand` return a placeholder at once
    (after the public-view check); `await draw(messages)` draws every placeholder of the
    messages in the pool and puts the PNGs in their place.  With no worker, or pictures that
    draw nothing (`NoPictures`), pictures are drawn where they are asked for, as before.
    """

    def __init__(self, pictures: Pictures, workers: int = 2, processes: bool = False) -> None:
        self.pictures = pictures
        self.workers = workers if not isinstance(pictures, NoPictures) else 0
        self.processes = processes  # worker processes: no GIL shared with the event loop
        self._executors: dict[bool, Executor] = {}  # background? -> its workers
        self._jobs: OrderedDict[bytes, tuple[Any, ...]] = OrderedDict()
        self._numbers = itertools.count()

    def deferred(self) -> Pictures:
        """The pictures to hand to the message makers."""
        return self.pictures if not self.workers else _Deferred(self, self.pictures)

    def _add(self, job: tuple[Any, ...]) -> bytes:
        token = PENDING + str(next(self._numbers)).encode()
        self._jobs[token] = job
        while len(self._jobs) > MAX_PENDING:
            self._jobs.popitem(last=False)
        return token

    async def draw(self, messages: list[Message], background: bool = False) -> list[Message]:
        """The messages with their pictures drawn (a picture that fails is left out).

        `background` (the tick loop's computer moves): drawn by workers of their own, so a
        player's pictures never wait behind a queue of computer tables' pictures."""
        tokens = list(dict.fromkeys(m.image for m in messages
                                    if m.image is not None and m.image.startswith(PENDING)))
        if not tokens:
            return messages
        executor = self._executors.get(background)
        if executor is None:
            executor = self._executors[background] = (
                ProcessPoolExecutor(self.workers, mp_context=multiprocessing
                                    .get_context("forkserver"))
                if self.processes else
                ThreadPoolExecutor(self.workers, thread_name_prefix="pictures"))
        loop = asyncio.get_running_loop()
        jobs = [self._jobs.pop(t, None) for t in tokens]
        drawn = await asyncio.gather(*(loop.run_in_executor(executor, _run, *job)
                                       for job in jobs if job is not None))
        it = iter(drawn)
        images = {t: next(it) if job is not None else None for t, job in zip(tokens, jobs,
                                                                              strict=True)}
        return [dataclasses.replace(m, image=images[m.image]) if m.image in images else m
                for m in messages]

    def close(self) -> None:
        for executor in self._executors.values():
            executor.shutdown(wait=False, cancel_futures=True)
        self._executors.clear()


class _Deferred(Pictures):
    """Placeholders now, pictures later (`PicturePool.draw`)."""

    def __init__(self, pool: PicturePool, real: Pictures) -> None:
        super().__init__(real.lang)
        self.pool, self.real = pool, real

    def for_lang(self, lang: str) -> Pictures:
        return self if lang == self.lang else _Deferred(self.pool, self.real.for_lang(lang))

    def public(self, view: dict[str, Any], names: list[str] | None = None) -> bytes | None:
        check_public(view)
        return self.pool._add((self.real, "public", view, names))

    def hand(self, view: dict[str, Any]) -> bytes | None:
        return self.pool._add((self.real, "hand", view))

    def scoresheet(self, view: dict[str, Any], names: list[str], lines: list[str]
                   ) -> bytes | None:
        check_public(view)
        return self.pool._add((self.real, "scoresheet", view, names, lines))

    def standings(self, tid: int, rows: list[dict[str, Any]], tie_breaks: list[str],
                  round_no: int, final: bool) -> bytes | None:
        return self.pool._add((self.real, "standings", tid, rows, tie_breaks, round_no, final))


def _run(pictures: Pictures, method: str, *args: Any) -> bytes | None:
    """A drawing job, in a worker thread or process."""
    return getattr(pictures, method)(*args)  # type: ignore[no-any-return]
