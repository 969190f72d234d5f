"""docker-compose.yml (there is no Docker engine here): it parses, starts PostgreSQL and two
bot processes of the project's image on it, with settings the bot accepts, each running its
own Discord shard, and docs/deploy.md shows it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from bot.config import Settings

ROOT = Path(__file__).resolve().parent.parent


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _env(service: dict[str, Any]) -> dict[str, str]:
    """The service's environment, ${VAR:-default} given its default."""
    out = {}
    for key, value in service["environment"].items():
        text = str(value)
        while "${" in text:
            start = text.index("${")
            end = text.index("}", start)
            default = text[start + 2:end].partition(":-")[2]
            text = text[:start] + default + text[end + 1:]
        out[key] = text
    return out


def test_compose_starts_postgresql_and_two_bots_on_it() -> None:
    services = compose()["services"]
    assert services["db"]["image"].startswith("postgres:")
    bots = {name: s for name, s in services.items() if name not in ("db", "prometheus")}
    assert sorted(bots) == ["bot-1", "bot-2"]
    shards = []
    for bot in bots.values():
        assert bot["image"] == "domino" and bot["build"] == "."
        assert bot["depends_on"]["db"]["condition"] == "service_healthy"
        env = _env(bot)
        assert env["DOMINO_DB"] == "postgresql://domino:domino@db:5432/domino"
        settings = Settings.from_env(env, cwd=Path("/nonexistent"))  # the bot accepts them
        assert settings.database == env["DOMINO_DB"]
        assert settings.discord_shards is not None and settings.discord_shards.count == 2
        shards += settings.discord_shards.ids or ()
    assert sorted(shards) == [0, 1]  # each process its own shard, together all of them
    db_env = services["db"]["environment"]
    assert (db_env["POSTGRES_USER"], db_env["POSTGRES_DB"]) == ("domino", "domino")


def test_the_deploy_page_shows_both_ways() -> None:
    page = (ROOT / "docs" / "deploy.md").read_text()
    for needed in ("docker-compose.yml", "DOMINO_DB=postgresql://", "DISCORD_SHARD_IDS",
                   "TELEGRAM_WEBHOOK_URL", "domino.sqlite"):
        assert needed in page
