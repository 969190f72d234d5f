"""The console chat driven as a person would, through a pipe to the real program; the
router; the settings (and that tokens never reach repr or the log)."""

from __future__ import annotations

import asyncio
import io
import logging
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from console_helpers import ROOT, ConsoleBot, hand, messages, play_first_legal, plays
from PIL import Image

from bot import app
from bot.app import Router, platform_runner
from bot.config import ConfigError, Settings
from bot.logs import setup_logging
from bot.service.messages import Message

TOKEN = "123456789:AAE-secret-token-that-must-never-show"


def test_a_game_in_the_console(tmp_path: Path) -> None:
    bot = ConsoleBot(tmp_path, DOMINO_PICTURES="pics")
    greeting = bot.start()
    assert "Type /help" in greeting[0] and str(tmp_path / "domino.sqlite") in greeting[0]
    assert any("/as NAME" in line for line in bot.send("/help"))

    out = bot.send("/domino start classic players=2 ai=1")
    table = messages(out)[0]
    assert table.head == "[#main] #1 · Classic dominoes"
    pictures = [p for m in messages(out) for p in m.pictures]
    assert pictures and all(p.parent == tmp_path / "pics" for p in pictures)
    with Image.open(pictures[0]) as image:
        assert image.format == "PNG" and image.width > 100
    out += bot.send("/hand")
    mine = hand(out, "alice")
    assert mine is not None and mine.head.startswith("[private to alice]")
    assert any(m.pictures for m in messages(out) if m.head.startswith("[private to alice]"))

    # Bob cannot press alice's private buttons nor play at her table.
    assert bot.send("/as bob") == ["(you are now bob)"]
    assert "alice's private message" in bot.send(f"b{mine.buttons[0][0]}")[0]
    assert bot.send("/play 6-6") == ["[private to bob] error: You are not playing at this table."]
    assert bot.send("/as alice") == ["(you are now alice)"]

    moved = play_first_legal(bot, "alice", out)
    assert plays(moved)[0][0] == "alice"
    assert [who for who, _ in plays(moved)][1:2] in ([], ["CPU 1"])  # no delay
    rc, rest = bot.close()
    assert rc == 0 and rest[-1] == "(bye)"
    with sqlite3.connect(tmp_path / "domino.sqlite") as db:
        logged = db.execute("SELECT move FROM moves WHERE table_id = 1 ORDER BY turn").fetchall()
    assert [m for (m,) in logged] == [move for _, move in plays(bot.output)]


@pytest.mark.parametrize(("line", "answer"), [
    ("/foo", "(unknown command '/foo'; type /help for the commands)"),
    ("hello", "(unknown command 'hello'; type /help for the commands)"),
    ("/plya 6-4", "(unknown command '/plya'; did you mean /play? type /help for the commands)"),
    ("/domino plya 6-4", "(unknown command 'plya'; did you mean play? type /help for the "
                         "commands)"),
    ("/hepl", "(unknown command '/hepl'; did you mean /help? type /help for the commands)"),
    ("b7", "(there is no button b7)"),
    ("/as", "(usage: /as NAME (1 to 32 letters, digits, . _ or -))"),
    ("/as a;b", "(usage: /as NAME (1 to 32 letters, digits, . _ or -))"),
    ("/wait soon", "(usage: /wait SECONDS (from 0 to 600))"),
    ("/start", "(usage: /domino start VARIANT [players=N] [ai=K] [option=value ...]; "
               "/domino variants lists them)"),
    ("/join", "(which table? give its number, e.g. /domino join 1)"),
    ("/domino play 3", "(usage: /domino play [TABLE] MOVE, e.g. /play 6-4 left)"),
])
def test_bad_commands_get_one_line(tmp_path: Path, line: str, answer: str) -> None:
    bot = ConsoleBot(tmp_path)
    bot.start()
    assert bot.send(line) == [answer]
    assert bot.close()[0] == 0


def test_bad_input_to_the_service_is_one_private_error(tmp_path: Path) -> None:
    bot = ConsoleBot(tmp_path)
    bot.start()
    out = bot.send("/start nosuchgame")
    assert len(out) == 1 and out[0].startswith("[private to alice] error: Cannot open the table")
    out = bot.send("/start fourty-two")
    assert out == ["[private to alice] error: Cannot open the table: unknown variant "
                   "'fourty-two': did you mean forty-two?"]
    out = bot.send("/start classic players=9")
    assert len(out) == 1 and "error:" in out[0]
    out = bot.send("/join 42")
    assert out == ["[private to alice] error: There is no open table #42."]
    assert bot.send("/play 1 " + "x" * 3000)[0].startswith("[private to alice] error:")
    assert bot.close()[0] == 0


def test_computer_moves_arrive_while_the_user_waits(tmp_path: Path) -> None:
    """With a delay, the computer seat moves from the tick loop, not from the user's line."""
    bot = ConsoleBot(tmp_path, DOMINO_AI_DELAY="1")
    bot.start()
    out = bot.send("/start classic players=2 ai=1", "/hand")
    if hand(out, "alice") is None:  # the computer leads
        out += _wait_for_computer(bot)
    pressed = play_first_legal(bot, "alice", out)
    assert [who for who, _ in plays(pressed)] == ["alice"]
    later = _wait_for_computer(bot)
    assert plays(later)[0][0] == "CPU 1"
    assert bot.close()[0] == 0


def _wait_for_computer(bot: ConsoleBot) -> list[str]:
    got: list[str] = []
    for _ in range(100):
        got += bot.send("/wait 0.3")
        if any(who == "CPU 1" for who, _ in plays(got)):
            return got
    raise AssertionError("the computer never moved:\n" + "\n".join(got))


def test_a_whole_game_with_two_people_and_a_rematch(tmp_path: Path) -> None:
    bot = ConsoleBot(tmp_path)
    bot.start()
    out = bot.send("/start tete-a-tete players=2")
    assert "Waiting for players" in out[1]
    out = bot.send("/as bob", "/join 1", "/begin")
    finished = False
    for _ in range(400):
        whose = [line for line in out if line.startswith("[#main]") and "your turn" in line]
        if any(line.startswith("[#main] Game over") or "Game over" in line for line in out):
            finished = True
            break
        assert whose, "\n".join(out)
        name = whose[-1].split()[1].rstrip(",")
        out = bot.send(f"/as {name}")
        out = play_first_legal(bot, name, bot.output)
    assert finished
    out = bot.send("/export 1")
    record = tmp_path / "domino-1.json"
    assert any(line.strip() == f"file: {record}" for line in out), out
    check = subprocess.run([sys.executable, "-m", "bot.cli", "replay", str(record)], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0 and "every move is legal" in check.stdout
    out = bot.send("/history alice")
    assert "#1" in "\n".join(out)
    assert bot.close()[0] == 0


# -- the router --------------------------------------------------------------------------------


def _m(channel: str, text: str, to: str | None = None) -> Message:
    return Message(channel, text, to=to)


def test_router_sends_each_message_to_its_platform_in_order() -> None:
    got: dict[str, list[str]] = {"discord": [], "telegram": []}

    class Adapter:
        def __init__(self, name: str) -> None:
            self.name = name

        async def deliver(self, messages: list[Message]) -> None:
            got[self.name] += [m.text for m in messages]

    async def go() -> None:
        router = Router()
        await router.register("discord", Adapter("discord"))

        async def telegram(messages: list[Message]) -> None:
            got["telegram"].extend(m.text for m in messages)

        await router.register("telegram", telegram)
        await router.deliver([
            _m("discord:1", "d1"), _m("telegram:5:7", "t1"),
            _m("discord:1", "t-private", to="telegram:9"),  # a private message goes by its user
            _m("", "d-private", to="discord:3"), _m("discord:2", "d2"),
            _m("console:main", "nobody"),
        ])

    asyncio.run(go())
    assert got == {"discord": ["d1", "d-private", "d2"], "telegram": ["t1", "t-private"]}


def test_router_holds_messages_until_an_expected_adapter_registers() -> None:
    got: list[str] = []

    async def deliver(messages: list[Message]) -> None:
        got.extend(m.text for m in messages)

    async def go() -> None:
        router = Router(expect=("telegram",))
        await router.deliver([_m("telegram:1", "re-prompt"), _m("discord:1", "dropped")])
        assert got == []
        await router.register("telegram", deliver)
        assert got == ["re-prompt"]
        await router.deliver([_m("telegram:1", "next")])

    asyncio.run(go())
    assert got == ["re-prompt", "next"]


def test_a_failing_adapter_does_not_stop_the_others(caplog: pytest.LogCaptureFixture) -> None:
    got: list[str] = []

    async def broken(messages: list[Message]) -> None:
        raise ConnectionError("platform down")

    async def fine(messages: list[Message]) -> None:
        got.extend(m.text for m in messages)

    async def go() -> None:
        router = Router()
        await router.register("discord", broken)
        await router.register("telegram", fine)
        await router.deliver([_m("discord:1", "lost"), _m("telegram:1", "kept")])

    with caplog.at_level(logging.ERROR):
        asyncio.run(go())
    assert got == ["kept"]
    assert "discord adapter failed" in caplog.text


# -- settings and secrets --------------------------------------------------------------------


def test_settings_from_the_environment_and_a_dotenv_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        "# comment\nDOMINO_LANG=fr\nexport DOMINO_AI_DELAY='0.5'\n"
        f'TELEGRAM_TOKEN="{TOKEN}"\nDOMINO_DB=from-dotenv.sqlite\nDISCORD_TEST_GUILD=42\n',
        encoding="utf-8")
    s = Settings.from_env({"DOMINO_DB": "/data/bot.sqlite", "DOMINO_PICTURES": "off"},
                          cwd=tmp_path)
    assert s.database == Path("/data/bot.sqlite")  # the environment wins over .env
    assert (s.lang, s.ai_delay, s.pictures) == ("fr", 0.5, None)
    assert s.telegram_token == TOKEN and s.discord_token is None
    assert s.platforms == ["telegram"]
    assert s.discord_test_guild == 42
    d = Settings.from_env({}, cwd=tmp_path / "empty")
    assert (d.database, d.pictures) == (tmp_path / "empty" / "domino.sqlite",
                                        tmp_path / "empty" / "domino-pictures")
    assert d.platforms == []


@pytest.mark.parametrize(("env", "name"), [
    ({"DOMINO_AI_DELAY": "soon"}, "DOMINO_AI_DELAY"),
    ({"DOMINO_AI_DELAY": "-1"}, "DOMINO_AI_DELAY"),
    ({"DOMINO_LANG": "de"}, "DOMINO_LANG"),
    ({"DOMINO_LOG": "loud"}, "DOMINO_LOG"),
    ({"DISCORD_TEST_GUILD": "my-server"}, "DISCORD_TEST_GUILD"),
])
def test_bad_settings_name_the_variable(tmp_path: Path, env: dict[str, str], name: str) -> None:
    with pytest.raises(ConfigError, match=name):
        Settings.from_env(env, cwd=tmp_path)


@pytest.mark.parametrize("command", [[], ["bot"]])
def test_a_bad_setting_is_one_line_and_exit_code_2(tmp_path: Path, command: list[str]) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "DOMINO_AI_DELAY": "soon"}
    run = subprocess.run([sys.executable, "-m", "bot.cli", *command], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "domino: error: DOMINO_AI_DELAY must be a number of seconds from 0 to 3600, "
        "got 'soon'"]


def test_tokens_never_reach_repr_or_the_log(tmp_path: Path) -> None:
    s = Settings.from_env({"DISCORD_TOKEN": TOKEN, "TELEGRAM_TOKEN": TOKEN + "2",
                           "DOMINO_LOG": "debug"}, cwd=tmp_path)
    assert TOKEN not in repr(s) and TOKEN not in str(s)
    stream = io.StringIO()
    setup_logging(s, stream)
    try:
        app.log.info("settings: %r", s)
        logging.getLogger("httpx").info("HTTP Request: POST https://api.telegram.org/bot%s/getMe",
                                        TOKEN + "2")
        try:
            raise ConnectionError(f"cannot reach https://api.telegram.org/bot{TOKEN}/getMe")
        except ConnectionError:
            logging.getLogger("telegram.ext").exception("the connection failed")
    finally:
        logging.getLogger().handlers.clear()
    text = stream.getvalue()
    assert TOKEN not in text
    assert text.count("[token]") == 2 and "ConnectionError" in text


def test_a_configured_platform_that_cannot_load_is_one_clear_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(app.PLATFORMS, "discord", ("bot.no_such_adapter", "run_discord"))
    with pytest.raises(ConfigError, match=r"discord is configured but cannot be loaded"):
        platform_runner("discord")


def test_a_platform_that_cannot_connect_stops_with_one_line_and_no_token(
        tmp_path: Path) -> None:
    """The real Telegram adapter against a closed loopback port, logging everything."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "DOMINO_LOG": "debug",
           "TELEGRAM_TOKEN": TOKEN, "TELEGRAM_API_URL": f"http://127.0.0.1:{port}/bot"}
    run = subprocess.run([sys.executable, "-m", "bot.cli"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert TOKEN not in run.stdout + run.stderr
    # libraries never log below INFO (they log call parameters and URLs at debug level)
    assert not [line for line in run.stderr.splitlines()
                if " DEBUG telegram" in line or " DEBUG httpx" in line]
    assert run.returncode == 1
    assert run.stderr.splitlines()[-1] == ("domino: error: telegram stopped (see the log "
                                           "above); check the token and the network")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_bot_cleanly(tmp_path: Path, sig: signal.Signals) -> None:
    bot = ConsoleBot(tmp_path)
    bot.start()
    out = bot.send("/start classic players=2 ai=1", "/hand")
    play_first_legal(bot, "alice", out)
    bot.proc.send_signal(sig)
    assert bot.proc.wait(timeout=60) == 0
    assert bot.until(lambda line: line == "(bye)")[-1] == "(bye)"
    with sqlite3.connect(tmp_path / "domino.sqlite") as db:
        (count,) = db.execute("SELECT count(*) FROM moves").fetchone()
    assert count == len(plays(bot.output)) > 0


def test_a_mistyped_command_or_variant_gets_the_closest_in_french_too(tmp_path: Path) -> None:
    bot = ConsoleBot(tmp_path)
    bot.start()
    assert bot.send("/domino lang fr") == ["(alice: language fr)"]
    assert bot.send("/plya") == ["(commande inconnue '/plya' ; vouliez-vous dire /play ? "
                                 "tapez /help pour les commandes)"]
    out = bot.send("/start quarante deux")
    assert len(out) == 1 and out[0].endswith("vouliez-vous dire forty-two ?"), out
    assert bot.close()[0] == 0
