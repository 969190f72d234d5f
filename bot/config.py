"""Settings from the environment (a `.env` file in the working folder is read too).

Tokens are read here and never logged or printed; `Settings.__repr__` hides them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


def _load_dotenv(path: Path) -> None:
    """Add KEY=VALUE lines of a .env file to the environment (existing values win)."""
    if not path.is_file():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        os.environ.setdefault(key.strip(), value.strip().strip("'\""))


@dataclass(frozen=True)
class Settings:
    database: Path
    pictures: Path
    lang: str = "en"
    ai_delay: float = 1.0
    discord_token: str | None = field(default=None, repr=False)
    telegram_token: str | None = field(default=None, repr=False)
    telegram_api_url: str | None = None

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        if env is None:
            _load_dotenv(Path.cwd() / ".env")
            env = dict(os.environ)
        return cls(
            database=Path(env.get("DOMINO_DB", "domino.sqlite")),
            pictures=Path(env.get("DOMINO_PICTURES", "domino-pictures")),
            lang=env.get("DOMINO_LANG", "en"),
            ai_delay=float(env.get("DOMINO_AI_DELAY", "1.0")),
            discord_token=env.get("DISCORD_TOKEN") or None,
            telegram_token=env.get("TELEGRAM_TOKEN") or None,
            telegram_api_url=env.get("TELEGRAM_API_URL") or None,
        )
