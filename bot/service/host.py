"""What the service's helper modules see of the service (issue 38): a protocol, not the class.

The door (guard.py), the shared-database helpers (shared.py, notify.py), the web table's
feed (live.py), the stop question (stopping.py), the outbox (outbox.py) and, outside the
service, bot/health.py and bot/metrics.py are handed the service and use a few of its
names.  They type it with `Host` rather than import the service's classes (an import of the
class, even for types only, would point up and close a circle: tests/test_import_cycles.py).
The service (state.State and the parts on it) is a `Host`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..storage import Store, TableRow
    from .events import EventBus
    from .limits import Limits
    from .messages import Message
    from .tables import Table


class Host(Protocol):
    """The names of the service its helper modules use."""

    store: Store
    tables: dict[int, Table]
    clock: Callable[[], float]
    ai_delay: float
    default_lang: str
    limits: Limits
    events: EventBus
    _langs: Any
    _invited: dict[int, frozenset[str]]

    def _lock(self, table_id: int) -> Any: ...

    async def _recheck_pings(self, table_id: int) -> None: ...

    def _seen_in(self, channel: str) -> None: ...

    async def _reload(self, table_id: int) -> None: ...

    async def _drawn(self, messages: list[Message]) -> list[Message]: ...

    async def _table_row(self, table_id: int) -> TableRow | None: ...

    def _lang_at(self, user: Any, table: Table) -> str: ...

    async def stop(self, user: Any, table_id: int, *, where: Any = None) -> list[Message]: ...

    async def tick(self, wait: float | None = None) -> list[Message]: ...
