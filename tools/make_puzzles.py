"""Write core/solitaire/puzzles/shipped.json: every shipped puzzle with a solution found by
CP-SAT and checked by the rules (run once; needs ortools).

    PYTHONPATH=$PWD python tools/make_puzzles.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.solitaire.puzzles import catalogue, generate, solver  # noqa: E402

Q1 = ["6 6 4 4 1 1 3 3", "6 6 4 4 1 1 3 3", ". 2 2 0 0 6 6 .", ". 2 2 0 0 6 6 .",
      ". 4 4 0 0 5 5 .", ". 4 4 0 0 5 5 .", "5 5 3 3 2 2 1 1", "5 5 3 3 2 2 1 1"]
Q2 = ["6 6 . . 2 2 . .", "6 6 1 1 2 2 5 5", "0 0 1 1 4 4 5 5", "0 0 3 3 4 4 0 0",
      "2 2 3 3 5 5 0 0", "2 2 6 6 5 5 1 1", "4 4 6 6 3 3 1 1", "4 4 . . 3 3 . ."]
Q3 = [" ".join(r) for r in ["66..22", "661122", "001100", "004400", "334455", "333355",
                            "113322", "116622", "556644", "55..44"]]
CORNER = ["3-0 A2 A1", "4-0 C1 B1"]  # Dudeney's frame: the two tiles of the top-left corner
BAR_CORNER = ["4-2 A2 A1", "2-2 B1 C1"]  # the bar's: those of the solution first computed
STAR_CENTRE = {"I8": 3, "J8": 6, "J9": 5, "J10": 1, "I10": 0, "H10": 2, "H9": 0, "H8": 4}


def name(en: str, fr: str) -> dict[str, str]:
    return {"en": en, "fr": fr}


def entries() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {"id": "frame", "kind": "reussite", "level": "easy",
         "name": name("Dudeney's frame", "Le cadre de Dudeney"),
         "shape": ["ring", {"width": 15, "height": 15, "fixed": CORNER}]},
        {"id": "bar", "kind": "reussite", "level": "medium",
         "name": name("The frame with a bar", "Le cadre à barre"),
         "shape": ["ring", {"width": 10, "height": 16, "bars": [8], "fixed": BAR_CORNER}]},
        {"id": "frame-44", "kind": "reussite", "level": "hard",
         "name": name("Dudeney's frame, sides of 44", "Le cadre de Dudeney, côtés de 44"),
         "shape": ["ring", {"width": 15, "height": 15, "side_total": 44, "fixed": CORNER}]},
        {"id": "q1", "kind": "quadrille", "level": "easy",
         "name": name("The classic quadrille", "Le quadrille classique"),
         "shape": ["quadrille", {"rows": Q1}]},
        {"id": "q3", "kind": "quadrille", "level": "medium",
         "name": name("The tall quadrille", "Le grand quadrille"),
         "shape": ["quadrille", {"rows": Q3}]},
        {"id": "q2", "kind": "quadrille", "level": "hard",
         "name": name("The brick quadrille", "Le quadrille en briques"),
         "shape": ["quadrille", {"rows": Q2}]},
    ]
    for total in range(13, 24):
        level = "hard" if total in (13, 23) else "medium" if total in (14, 15, 21, 22) \
            else "easy"
        out.append({"id": f"total-{total}", "kind": "magic-square", "level": level,
                    "name": name(f"Total {total}", f"Total {total}"),
                    "shape": ["magic_square", {"total": total}]})
    out += [
        {"id": "totals", "kind": "magic-squares", "level": "easy",
         "name": name("The totals given", "Les totaux donnés"),
         "shape": ["hollow_squares", {"totals": [3, 7, 8, 9, 9, 10, 16]}]},
        {"id": "booklet", "kind": "magic-squares", "level": "hard",
         "name": name("The booklet's squares", "Les carrés du livret"),
         "shape": ["hollow_squares", {}]},
        {"id": "centre", "kind": "magic-star", "level": "easy",
         "name": name("The star, centre given", "L'étoile, centre donné"),
         "shape": ["star", {"givens": STAR_CENTRE}]},
        {"id": "star", "kind": "magic-star", "level": "hard",
         "name": name("The star", "L'étoile"), "shape": ["star", {}]},
    ]
    triangles = []
    for seed in range(1, 40):
        made = generate.triangle(seed)
        triangles.append((len(made["args"]["givens"]), seed, made))
        if len(triangles) == 6:
            break
    triangles.sort(key=lambda x: -x[0])
    for k, (_, _seed, made) in enumerate(triangles):
        level = ("easy", "easy", "medium", "medium", "hard", "hard")[k]
        out.append({"id": f"t{k + 1}", "kind": "magic-triangle", "level": level,
                    "name": name(f"Triangle {k + 1}", f"Triangle {k + 1}"),
                    "shape": ["triangle", made["args"]], "solution": made["solution"]})
    return out


def main() -> int:
    from core.variants import get

    solver.WORKERS = 8  # a portfolio finds these first solutions faster

    made = []
    for e in entries():
        start = time.monotonic()
        e.setdefault("solution", [])
        puzzle = catalogue.build(e)
        if not e["solution"]:
            status, sol = solver.solve(puzzle, puzzle.fixed, 120)
            assert status == "solved" and sol is not None, (e["id"], status)
            fixed = {m.text for m in puzzle.fixed}
            sol.sort(key=lambda m: min(puzzle.order[c] for c in m.cells))
            e["solution"] = [m.text for m in sol if m.text not in fixed]
        made.append(e)
        print(e["id"], len(e["solution"]), "placements", f"{time.monotonic() - start:.1f} s",
              file=sys.stderr)
    catalogue.DATA.write_text(json.dumps(made, indent=1, ensure_ascii=False) + "\n",
                              encoding="utf-8")
    catalogue.entries.cache_clear()
    catalogue.puzzles.cache_clear()
    for e in made:  # every solution is checked by the rules
        game = get(e["kind"]).new(seed=0, puzzle=e["id"])
        for move in e["solution"]:
            game.play(move)
        assert game.over and game.result and game.result["winners"] == [0], e["id"]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
