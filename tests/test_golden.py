"""Every variant's golden playthrough (tests/golden/SLUG.jsonl) still plays the same.

A failure names the first step whose line differs and the keys that differ;
if the change is deliberate, regenerate with ``python tests/golden.py SLUG``
and read the diff before committing it.
"""

from __future__ import annotations

import json
from itertools import zip_longest

import pytest
from golden import golden_path, playthrough

from core import variants


def _diff(want: object, got: object, path: str = "") -> list[str]:
    if isinstance(want, dict) and isinstance(got, dict):
        out: list[str] = []
        for k in sorted(set(want) | set(got)):
            out += _diff(want.get(k, "<absent>"), got.get(k, "<absent>"), f"{path}.{k}")
        return out
    return [] if want == got else [f"{path}: {want!r} -> {got!r}"[:300]]


@pytest.mark.parametrize("slug", variants.names())
def test_golden_playthrough(slug: str) -> None:
    path = golden_path(slug)
    assert path.exists(), f"no golden playthrough for {slug}: run python tests/golden.py {slug}"
    stored = path.read_text(encoding="utf-8").splitlines()
    for i, (want, got) in enumerate(zip_longest(stored, playthrough(slug))):
        if want != got:
            if want is None or got is None:
                pytest.fail(f"{slug}: line {i}: the playthrough has "
                            f"{'more' if want is None else 'fewer'} lines than {path.name}")
            diffs = _diff(json.loads(want), json.loads(got))
            pytest.fail(f"{slug}: line {i} differs from {path.name}:\n" + "\n".join(diffs[:20]))


def test_every_golden_file_is_a_variant() -> None:
    names = set(variants.names())
    stale = [p.stem for p in golden_path("x").parent.glob("*.jsonl") if p.stem not in names]
    assert not stale, f"golden files of unknown variants: {stale}"
