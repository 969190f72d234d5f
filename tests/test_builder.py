"""The move builder: a move too many to list is built a word at a time with buttons."""

from __future__ import annotations

from bot.service.builder import PER_PAGE, choices, split_arg, step_actions
from bot.service.messages import MAX_DATA, parse_action

VINGT = [f"{a} {b} {cell} {way}" for a in ("5-3", "4-4") for b in ("2-2", "6-1")
         for cell in (f"C{i}" for i in range(1, 13)) for way in ("right", "down")]


def presses(actions: list) -> list[tuple[str, str]]:
    return [(parse_action(a.data)[2], parse_action(a.data)[3]) for a in actions]


def test_few_moves_get_one_button_each() -> None:
    legal = ["bid 30", "bid 31", "pass"]
    acts = step_actions(7, 3, legal, "", "en")
    assert presses(acts) == [("p", "bid 30"), ("p", "bid 31"), ("p", "pass")]
    assert all(parse_action(a.data)[:2] == (7, 3) for a in acts)


def test_many_moves_are_built_word_by_word_to_a_legal_move() -> None:
    assert len(VINGT) > PER_PAGE
    prefix, path = "", []
    while True:
        acts = step_actions(1, 9, VINGT, prefix, "en")
        verb, arg = next((v, a) for v, a in presses(acts) if v in "pe" and a and "|" not in a)
        path.append(arg)
        if verb == "p":
            break
        prefix = arg
    assert path[-1] in VINGT
    assert path[:2] == ["5-3", "5-3 2-2"]


def test_first_step_offers_distinct_first_words() -> None:
    acts = step_actions(1, 0, VINGT, "", "en")
    assert presses(acts) == [("e", "5-3"), ("e", "4-4")]


def test_pages_when_the_next_words_are_many() -> None:
    legal = [f"{tile} X{i}" for tile in ("6-4",) for i in range(45)]
    first = step_actions(1, 0, legal, "6-4", "en")
    words = [a for v, a in presses(first) if v == "p"]
    assert len(words) == PER_PAGE
    nxt = [a for v, a in presses(first) if v == "e" and a.endswith("|1")]
    assert nxt == ["6-4|1"]
    prefix, page = split_arg(nxt[0])
    second = step_actions(1, 0, legal, prefix, "en", page=page)
    assert next(a for v, a in presses(second) if v == "p") == f"6-4 X{PER_PAGE}"
    assert any(a.endswith("|0") for v, a in presses(second) if v == "e")


def test_a_prefix_that_is_a_move_itself_can_be_played() -> None:
    legal = ["remove B1", "remove B1 C1", "remove B1 C2"] + [f"6-4 A{i}" for i in range(30)]
    acts = step_actions(1, 0, legal, "remove B1", "en")
    assert ("p", "remove B1") in presses(acts)
    assert ("p", "remove B1 C1") in presses(acts)


def test_a_forged_prefix_offers_nothing_illegal() -> None:
    acts = step_actions(1, 0, VINGT, "9-9 9-9", "en")
    assert all(v != "p" for v, _ in presses(acts))
    assert choices(VINGT, "nonsense") == []


def test_every_button_fits_telegram_callback_data() -> None:
    long_legal = [f"{'x' * 20} {'y' * 20} {i}" for i in range(40)]
    acts = step_actions(123456, 98765, long_legal, "", "en")
    assert all(len(a.data.encode()) <= MAX_DATA for a in acts)
    assert split_arg("a b|x") == ("a b", 0) and split_arg("a|99999") == ("a", 0)
