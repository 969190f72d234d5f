"""Find and read the rules page of a variant (docs/rules/<slug>.md), and cut it for a chat
(`chat_page`: a short summary, then its sections one at a time, tables as lists, no paths).

In a wheel the pages are packed as `core/rules_pages/` (see pyproject.toml);
from a source checkout or an editable install they are read from `docs/rules/`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
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


# -- the page in chat: a short summary, then one section at a time ---------------------------

HEADING = re.compile(r"^#{1,6}\s+(.*)$")
SECTION = re.compile(r"^###\s+(.*)$", re.M)
TABLE_RULE = re.compile(r"^\|?[\s:|-]+\|?$")
# a file of the repository: `shared/seeds/000_x.txt`, docs/rules/matador.md, core/line/x.py
PATH = re.compile(r"`?\b(?:shared|docs|core|bot|render|tests|bench)/[\w./-]+`?")
SKIPPED = {"sources"}  # the sections that only cite the books' files
EXAMPLE = re.compile(r"^(Example|Exemple)\s*:.*`domino .*$", re.M)


@dataclass(frozen=True)
class ChatPage:
    """A rules page for a chat: its title, the short summary sent first, and its sections
    (title, Markdown) that buttons show one at a time; the first one has no heading in the
    page (the list of how to play), the caller names it."""

    title: str
    summary: str
    sections: list[tuple[str, str]]


def chat_page(page: str, lang: str) -> ChatPage:
    """The page's part in `lang` ("fr": its "## Français" half, when there is one), cut into
    sections at its "###" headings; no file path, no Sources section, no command line."""
    first, _, rest = page.strip().partition("\n")
    heading = HEADING.match(first)
    title = re.sub(r"\s*\(`[^`]*`\)\s*$", "", heading[1] if heading else first).strip()
    english, _, french = rest.partition("## Français")
    part = french if lang == "fr" and french.strip() else english
    part = re.sub(r"^## .*$", "", part, count=1, flags=re.M).strip()
    pieces = SECTION.split(part)
    intro, *rest_pieces = pieces
    paragraphs = [p.strip() for p in re.split(r"\n[ \t]*\n", intro.strip()) if p.strip()]
    summary = paragraphs[0] if paragraphs else ""
    sections = [("", "\n\n".join(paragraphs[1:]))] if paragraphs[1:] else []
    for name, body in zip(rest_pieces[0::2], rest_pieces[1::2], strict=True):
        if name.strip().lower() not in SKIPPED:
            sections.append((name.strip(), body.strip()))
    return ChatPage(title, for_chat(summary),
                    [(name, for_chat(body)) for name, body in sections if for_chat(body)])


def for_chat(markdown: str) -> str:
    """Markdown that every chat shows: tables become lists ("- `target`: values: ...;
    default: ..."), file paths and `domino` command lines are left out."""
    text = EXAMPLE.sub("", markdown)
    out: list[str] = []
    table: list[list[str]] = []
    for line in [*text.split("\n"), ""]:
        if line.lstrip().startswith("|"):
            if not TABLE_RULE.match(line.strip()):
                table.append([c.strip() for c in line.strip().strip("|").split("|")])
            continue
        if table:
            head, *rows = table
            for row in rows:
                rest = "; ".join(f"{h}: {c}" for h, c in zip(head[1:-1], row[1:-1], strict=False))
                meaning = row[-1] if len(row) > 1 else ""
                out.append(f"- **{row[0]}** ({rest}): {meaning}" if rest else f"- **{row[0]}**")
            table = []
        out.append(line)
    text = PATH.sub("\x00", "\n".join(out))  # a path's place, then the spaces it leaves
    text = re.sub(r"\(\s*\x00\s*\)|[ \t]*\x00[ \t]*(?=[,.;:)])|\x00", "", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()
