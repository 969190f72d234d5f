"""The words of each family in one place (issue 29): bot/service/words has a module for every
family of core/, each with the same functions, and they hold words only (no message, no
table, no store)."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.service import words
from core import variants
from tests.test_import_cycles import _imports

WORDS = Path(words.__file__).resolve().parent
HOOKS = ("move_label", "word_label", "summary_lines", "event_line", "move_line",
         "score_reason", "end_reason")
BUILT = ("hand_lines", "ask")  # the families whose moves are built a word at a time


def test_every_family_of_core_has_its_words() -> None:
    families = {variants.get(slug).family for slug in variants.names()}
    assert families <= set(words.FAMILIES), families - set(words.FAMILIES)


def test_each_family_module_has_the_same_functions() -> None:
    for family, module in words.FAMILIES.items():
        wanted = HOOKS if family == "line" else HOOKS + BUILT
        missing = [name for name in wanted if not callable(getattr(module, name, None))]
        assert not missing, (family, missing)
    assert set(words.ASKED) == set(words.FAMILIES.values())


def test_the_words_modules_build_no_message() -> None:
    """Words only: no module of the package imports the messages, the tables, the store or
    another part of the service that acts (the builder's page size and the names of
    variants and ends are words' helpers)."""
    allowed = {"i18n", "builder", "naming"}
    for path in sorted(WORDS.glob("*.py")):
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level >= 2 and node.module:
                assert node.module.split(".")[0] in allowed, (path.name, node.module)
    assert "Message" not in vars(words) and "Action" not in vars(words)


def test_a_move_of_each_family_in_words() -> None:
    view = variants.get("texas-42").new(seed=1).view(None)
    assert words.move_label("tricks", "bid 30", view, "en") == "Bid 30"
    assert words.move_label("stack", "6-2 on 4 east", {}, "fr") == "6-2 sur 4 est"
    assert words.move_label("solitaire", "6-0 3-3", {}, "en") == "6-0 + 3-3"
    assert words.move_label("line", "6-4 left", {}, "en") == "6-4 left"
    assert words.move_line(view, ["Ana", "Zoë", "Ben", "Léa"], "en", 1, "bid 31") == \
        "Zoë bids 31."
