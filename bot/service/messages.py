"""What the service returns to adapters: messages to send, with their actions (buttons).

THE CONTRACT (shared with the adapters; extend it only additively):

* ``Message(channel, text, to=None, kind, table, image, actions, mention, file, named, said)``:
  public in `channel` when `to` is None, else private to the user id `to` (`channel` then
  only says where it came from, and may be ""). `image` is PNG bytes or None; `file` is a
  (name, bytes) attachment (an exported record); `mention` lists user ids to notify; `said`
  (a table message after a move) the sentences of that move, also in `text`, for an adapter
  that shows the moves elsewhere (Telegram, in each player's private chat); `quiet` the
  users of `mention` (or `to`) who turned turn pings off: shown, not notified.
* Kinds: "table" (the one message of a table: lobby, board picture, whose turn, scores;
  adapters keep one per table and edit it), "turn" (a turn change that must notify the
  player: a mention, no picture, the table message before it has the board), "hand"
  (private: the hand picture and one action per tile; adapters edit the user's hand
  message of that table when they can), "info", "error" (private to the user who caused
  it), "result", "rules", "board" (a round's score sheet).  A move's batch has a "turn"
  message when a human must act next: a table message with `said` and no "turn" or
  "board" of its table in its batch is a state that a computer's move replaces at once
  (`fleeting`), which an adapter short of writes may skip (Telegram's groups).
* ``Action(label, data, style, enabled, row)``: a button. `label` is already translated;
  `row` groups buttons (0 first); a disabled one is shown greyed out.  Its `data` carries
  the table id and the turn number it was offered for, and fits Telegram's 64-byte
  callback data:

      "<table>:<turn>:<verb>[:<arg>]"     e.g. "12:7:p:6-4 left", "12:0:j"

  Verbs: j join, l leave, a add a computer seat, r remove one, s start, h show my hand,
  p play (arg: the move as written, "6-4 left", "6-4"), e choose the end of a tile that
  fits several (arg: the tile), d draw, x pass, m rematch, q stop (a
  press that would end a game under way asks first; "q:yes" confirms it).  An adapter passes the
  data back untouched to `Service.press`.

Public messages are built from the public view only; nothing private goes to a channel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from .numbers import number

Kind = Literal["table", "turn", "hand", "info", "error", "result", "rules", "board"]
Style = Literal["primary", "secondary", "success", "danger"]

MAX_DATA = 64


@dataclass(frozen=True, slots=True)
class Action:
    """A button: its (translated) label and the data it sends back."""

    label: str
    data: str
    style: Style = "secondary"
    enabled: bool = True
    row: int = 0

    def __post_init__(self) -> None:
        if len(self.data.encode()) > MAX_DATA:
            raise ValueError(f"action data over {MAX_DATA} bytes: {self.data!r}")


@dataclass(frozen=True, slots=True)
class Message:
    """One thing to show: public in `channel` when `to` is None, else private to `to`."""

    channel: str
    text: str
    to: str | None = None
    kind: Kind = "info"
    table: int | None = None
    image: bytes | None = field(default=None, repr=False)
    actions: tuple[Action, ...] = ()
    mention: tuple[str, ...] = ()  # user ids to notify (the player whose turn it is)
    named: str = ""  # the mentioned player's name that begins `text` (a platform whose
    # mention shows the name puts the mention in its place: the name is not said twice)
    file: tuple[str, bytes] | None = field(default=None, repr=False)  # (name, content)
    said: tuple[str, ...] = ()  # a table message: the sentences of the move just made
    quiet: tuple[str, ...] = ()  # users of `mention` (or `to`) who turned turn pings off:
    # the message names them as usual, without notifying them
    alt: str = ""  # the picture's text alternative (the board and the last move in words;
    # empty: the message's text says what the picture shows)

    @property
    def private(self) -> bool:
        return self.to is not None


def fleeting(m: Message, batch: Sequence[Message]) -> bool:
    """Whether `m` is a state that a computer's move replaces at once: a public table
    message that says a move, with no turn prompt, score sheet or result of its table in
    its `batch` (nobody must act on it, no round ended with it)."""
    if m.to is not None or m.kind != "table" or m.table is None or not m.said:
        return False
    return not any(o.table == m.table and o.kind in ("turn", "board", "result") for o in batch)


def acting(batch: Sequence[Message]) -> set[tuple[int | None, str]]:
    """(table, user) of every human who must act now, by the turn prompts of `batch`."""
    return {(m.table, who) for m in batch if m.kind == "turn" and m.to is None
            for who in m.mention}


def action_data(table: int, turn: int, verb: str, arg: str = "") -> str:
    return f"{table}:{turn}:{verb}:{arg}" if arg else f"{table}:{turn}:{verb}"


def parse_action(data: str) -> tuple[int, int, str, str]:
    """(table, turn, verb, arg) of action data; ValueError when malformed.  The table and the
    turn are read as every number from a user is (`numbers.number`): "١:0:j" and
    "00000000000000000001:0:j" are malformed, not table 1."""
    if not isinstance(data, str) or len(data) > MAX_DATA:
        raise ValueError("malformed button data")
    parts = data.split(":", 3)
    table = number(parts[0]) if len(parts) >= 3 else None
    turn = number(parts[1]) if len(parts) >= 3 else None
    if table is None or turn is None or not parts[2]:
        raise ValueError("malformed button data")
    return table, turn, parts[2], parts[3] if len(parts) == 4 else ""
