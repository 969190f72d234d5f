"""DOMINO_LOG_FORMAT=json (bot/logformat.py): one JSON object per line, with the table and
platform the record names (null when it names none), scrubbed like the text log."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from bot.logs import setup_logging
from bot.service.origin import ORIGIN, Where
from tests.console_helpers import ConsoleBot

TOKEN = "123456:SECRET-token-value"
KEYS = {"time", "level", "logger", "table", "platform", "message"}


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_each_record_is_one_scrubbed_json_line(restore_logging: None) -> None:
    stream = io.StringIO()
    setup_logging(Settings(log_level="info", log_format="json", telegram_token=TOKEN), stream)
    log = logging.getLogger("domino.test")
    log.info("move at table %d", 7, extra={"table": 7, "platform": "telegram"})
    log.warning("calling https://api.telegram.org/bot%s/sendMessage", TOKEN)
    log.info("POST /interactions/123/aW50ZXJhY3Rpb24.token/callback")
    token = ORIGIN.set(Where("discord:42", "discord:1"))
    try:
        log.error("under a command")
    finally:
        ORIGIN.reset(token)
    try:
        raise ValueError(f"bad {TOKEN}")
    except ValueError:
        log.exception("failed with\nmore lines")
    log.info("bad %d arguments", "x")
    log.info('GET /t/a%%2Eb?x=%%22quoted%%22 "%s"', "q")  # escapes decoded: still JSON
    text = stream.getvalue()
    assert TOKEN not in text and "aW50ZXJhY3Rpb24" not in text
    got = lines(stream)
    assert len(got) == len(text.splitlines()) == 7  # a traceback stays inside its line
    assert all(set(g) >= KEYS for g in got)
    assert got[0]["table"] == 7 and got[0]["platform"] == "telegram"
    assert got[0]["message"] == "move at table 7" and got[0]["level"] == "INFO"
    assert got[0]["logger"] == "domino.test" and str(got[0]["time"]).endswith("Z")
    assert got[1]["table"] is None and got[1]["platform"] is None  # nothing invented
    assert "[token]" in str(got[1]["message"]) and "[token]" in str(got[2]["message"])
    assert got[3]["platform"] == "discord" and got[3]["table"] is None
    assert got[4]["message"] == "failed with\nmore lines" and "ValueError" in str(got[4]["exc"])
    assert "bad log arguments" in str(got[5]["message"])
    assert "[token]" in str(got[6]["message"]) and '"q"' in str(got[6]["message"])


def test_the_setting(tmp_path: Path) -> None:
    assert Settings.from_env({}, tmp_path).log_format == "text"
    assert Settings.from_env({"DOMINO_LOG_FORMAT": "JSON"}, tmp_path).log_format == "json"
    with pytest.raises(ConfigError, match="DOMINO_LOG_FORMAT must be one of text, json"):
        Settings.from_env({"DOMINO_LOG_FORMAT": "xml"}, tmp_path)


def test_the_running_bot_logs_json_lines(tmp_path: Path) -> None:
    bot = ConsoleBot(tmp_path, DOMINO_LOG_FORMAT="json", DOMINO_LOG="info")
    bot.start()
    bot.send("/start classic players=2 ai=1")
    code, _ = bot.close()
    assert code == 0
    got = [json.loads(line) for line in bot.stderr().splitlines() if line.strip()]
    assert got and all(set(g) >= KEYS for g in got)
    assert any(str(g["message"]).startswith("settings:") for g in got)
