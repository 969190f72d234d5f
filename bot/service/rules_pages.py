"""Find and read the rules page of a variant (docs/rules/<slug>.md).

In a wheel the pages are packed as `core/rules_pages/` (see pyproject.toml);
from a source checkout or an editable install they are read from `docs/rules/`.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from core import variants


def rules_page(slug: str) -> str:
    """The Markdown rules page of a variant; `UnknownVariant` for a bad slug."""
    variant = variants.get(slug)
    name = f"{variant.slug}.md"
    packed = resources.files("core").joinpath("rules_pages", name)
    if packed.is_file():
        return packed.read_text(encoding="utf-8")
    source = Path(__file__).resolve().parents[2] / "docs" / "rules" / name
    if source.is_file():
        return source.read_text(encoding="utf-8")
    raise FileNotFoundError(f"no rules page for {variant.slug} (looked for {name})")
