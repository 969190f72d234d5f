"""Golden playthroughs: one seeded game per variant, every view at every step.

As OpenSpiel keeps a playthrough per game, each slug of `variants.names()`
has a file ``tests/golden/SLUG.jsonl``: a header line (variant, players,
seed, options), then one line per step with the seat to move, the legal
moves, the public view and every seat's view, and the move chosen (by a
generator seeded from the slug, among the legal moves in their own order).
`tests/test_golden.py` replays each file and compares every line, so a
package move or a refactor that changes what any seat sees shows up as a
diff.  Regenerate deliberately, and read the diff before committing:

    python tests/golden.py                 # every slug
    python tests/golden.py matador cross   # some
"""

from __future__ import annotations

import json
import random
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
MAX_STEPS = 80  # a playthrough stops here (or at the match's end): files stay small
SEED = 20261124


def golden_path(slug: str) -> Path:
    return GOLDEN / f"{slug}.jsonl"


def _line(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def playthrough(slug: str) -> Iterator[str]:
    """The lines of `slug`'s golden playthrough, computed now."""
    from core import variants

    variant = variants.get(slug)
    game = variant.new(seed=SEED)
    chooser = random.Random(zlib.crc32(slug.encode()))
    yield _line({"variant": slug, "players": game.players, "seed": SEED,
                 "options": game.record()["options"]})
    for step in range(MAX_STEPS + 1):
        views = {"public": game.view(None)}
        views.update({str(s): game.view(s) for s in range(game.players)})
        entry: dict[str, Any] = {"step": step, "to_move": game.to_move, "over": game.over,
                                 "views": views}
        if game.over or step == MAX_STEPS:
            if game.over:
                entry["result"] = game.result
            yield _line(entry)
            return
        legal = game.legal_moves()
        move = legal[chooser.randrange(len(legal))]
        entry["legal"] = [str(m) for m in legal]
        entry["move"] = str(move)
        yield _line(entry)
        game.play(game.parse_move(str(move)))


def write(slug: str) -> Path:
    GOLDEN.mkdir(exist_ok=True)
    path = golden_path(slug)
    path.write_text("\n".join(playthrough(slug)) + "\n", encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(HERE.parent))
    from core import variants

    for slug in argv or variants.names():
        path = write(slug)
        print(f"{slug}: {path.relative_to(HERE.parent)} ({path.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
