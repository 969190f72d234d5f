"""The container's install path, followed without Docker (there is no Docker engine here).

The test reads the Dockerfile itself: it copies exactly what its COPY lines copy (minus
what .dockerignore leaves out) into a temporary folder, installs it non-editable with the
pip arguments of its RUN line into a fresh virtual environment, then runs, with the image's
ENV (its /home/domino remapped into the temporary folder) and from its last WORKDIR, what
the image runs: `domino variants`, `domino rules matador` (the rules pages are inside the
installed package), the console chat on a terminal in French (the catalogue is inside
it too) on a database in a fresh data folder, and the image's default command with no token
and no terminal (one line saying what to set, exit 2).  When the Dockerfile and the project
drift apart (a folder not copied, an extra missing, the data folder not created), this fails.
"""

from __future__ import annotations

import fnmatch
import os
import pty
import re
import select
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOME = "/home/domino"


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        pending += " " + line.removesuffix("\\").strip() if pending else line.removesuffix("\\")
        if not line.endswith("\\"):
            word, _, args = pending.strip().partition(" ")
            out.append((word.upper(), args.strip()))
            pending = ""
    return out


def ignored(rel: str, patterns: list[str]) -> bool:
    parts = rel.split("/")
    for pat in patterns:
        pat = pat.removeprefix("**/")
        if any(fnmatch.fnmatch(p, pat) for p in parts) or fnmatch.fnmatch(rel, pat):
            return True
    return False


def dockerignore() -> list[str]:
    path = ROOT / ".dockerignore"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return [x.strip() for x in lines if x.strip() and not x.startswith("#")]


def test_the_volume_folder_is_made_for_the_user_before_volume() -> None:
    steps = instructions()
    words = [w for w, _ in steps]
    volume = next(json for w, json in steps if w == "VOLUME")
    folder = re.findall(r'"([^"]+)"', volume)[0]
    user = next(a for w, a in steps if w == "USER")
    before = " ".join(a for w, a in steps[:words.index("VOLUME")] if w == "RUN")
    assert re.search(rf"mkdir -p \S*{re.escape(folder)}", before), \
        "the volume's folder is not created before VOLUME"
    assert re.search(rf"chown {user}(:{user})? \S*{re.escape(folder)}", before), \
        "the volume's folder does not belong to the bot's user"
    assert words.index("USER") < words.index("VOLUME")


def test_dockerignore_keeps_local_state_out() -> None:
    patterns = dockerignore()
    for name in (".venv", ".git", "domino.sqlite", "domino-pictures", "bot/__pycache__"):
        assert ignored(name, patterns), f".dockerignore lets {name} into the image"
    for name in ("core/tiles.py", "docs/rules/matador.md", "bot/locales/fr/LC_MESSAGES/domino.po"):
        assert not ignored(name, patterns), f".dockerignore leaves out {name}"


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The image's install, made by the Dockerfile's own steps in a temporary folder."""
    tmp = tmp_path_factory.mktemp("image")
    steps = instructions()
    patterns = dockerignore()
    workdir = tmp / "app"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    home = tmp / "home"

    def remap(path: str) -> Path:
        if path.startswith(HOME):
            return home / path[len(HOME):].lstrip("/")
        if path.startswith("/"):
            return tmp / path.lstrip("/")
        return workdir / path

    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip"]
    for word, args in steps:
        if word == "WORKDIR":
            workdir = remap(args)
            workdir.mkdir(parents=True, exist_ok=True)
        elif word == "COPY":
            *sources, dest = shlex.split(args)
            target = workdir if dest in ("./", ".") else remap(dest)
            for src in sources:
                path = ROOT / src
                assert path.exists(), f"the Dockerfile copies {src}, which does not exist"
                if path.is_dir():
                    shutil.copytree(path, target, dirs_exist_ok=True, ignore=lambda d, names: [
                        n for n in names
                        if ignored(str((Path(d) / n).relative_to(ROOT)), patterns)])
                else:
                    target.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(path, target / path.name)
        elif word == "RUN" and "pip install" in args:
            words = shlex.split(args)
            extra = [w for w in words[words.index("install") + 1:] if w != "--no-cache-dir"]
            extra = [str(workdir) + w[1:] if w.startswith(".") else w for w in extra]
            subprocess.run([*pip, "install", "--quiet", "--disable-pip-version-check", *extra],
                           check=True, cwd=workdir, env=env)
        elif word == "RUN":
            for folder in re.findall(r"mkdir -p (\S+)", args):
                remap(folder).mkdir(parents=True, exist_ok=True)
        elif word == "ENV":
            for pair in shlex.split(args):
                key, _, value = pair.partition("=")
                env[key] = str(remap(value)) if value.startswith("/") else value
    entry = next(shlex.split(a.strip("[]").replace(",", " ")) for w, a in steps
                 if w == "ENTRYPOINT")
    cmd = next(shlex.split(a.strip("[]").replace(",", " ")) for w, a in steps if w == "CMD")
    env.update(HOME=str(home), DOMINO_AI_DELAY="0")
    for key in ("DISCORD_TOKEN", "TELEGRAM_TOKEN"):
        env.pop(key, None)
    return {"bin": venv / "bin", "env": env, "cwd": workdir, "entry": entry, "cmd": cmd,
            "home": home}


def run(image: dict[str, object], *args: str) -> subprocess.CompletedProcess[str]:
    exe = str(Path(str(image["bin"])) / str(image["entry"][0]))  # type: ignore[index]
    return subprocess.run([exe, *args], cwd=image["cwd"], env=image["env"],  # type: ignore[arg-type]
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_the_installed_package_is_not_the_checkout(image: dict[str, object]) -> None:
    python = Path(str(image["bin"])) / "python"
    where = subprocess.run([str(python), "-c", "import core, bot; print(core.__file__)"],
                           cwd=image["cwd"], env=image["env"],  # type: ignore[arg-type]
                           capture_output=True, text=True, check=True).stdout
    assert "site-packages" in where and str(ROOT) not in where


def test_variants_and_rules_pages_come_from_the_package(image: dict[str, object]) -> None:
    listed = run(image, "variants")
    assert listed.returncode == 0, listed.stderr
    assert "matador" in listed.stdout and "partnership" in listed.stdout
    rules = run(image, "rules", "matador")
    assert rules.returncode == 0, rules.stderr
    assert "Matador" in rules.stdout and "Choices we made" in rules.stdout
    assert re.search(r"Choix|choix", rules.stdout), "the French half of the page is missing"


def test_default_command_without_token_or_terminal_says_what_to_set(
        image: dict[str, object]) -> None:
    done = run(image, *image["cmd"])  # type: ignore[misc]
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "TELEGRAM_TOKEN" in lines[0] and "-it" in lines[0], done.stderr
    assert not list(Path(str(image["home"])).rglob("*.sqlite")), "nothing is created"


def test_console_chat_on_a_terminal_in_french(image: dict[str, object]) -> None:
    """`docker run -it`: the default command on a terminal opens the console chat."""
    env = dict(image["env"], DOMINO_LANG="fr")  # type: ignore[call-overload]
    exe = str(Path(str(image["bin"])) / str(image["entry"][0]))  # type: ignore[index]
    master, slave = pty.openpty()
    proc = subprocess.Popen([exe, *image["cmd"]], cwd=image["cwd"], env=env,  # type: ignore[misc]
                            stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    out = b""

    def read_until(pattern: bytes, seconds: float) -> bool:
        nonlocal out
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    return pattern in out
                if not chunk:
                    break
                out += chunk
            if pattern in out:
                return True
        return pattern in out

    try:
        assert read_until(b"/help", 60), out.decode(errors="replace")
        os.write(master, b"/start classic players=2 ai=1\n")
        assert read_until(b"Votre main", 60), out.decode(errors="replace")  # "Your hand"
        os.write(master, b"/quit\n")
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    text = out.decode(errors="replace")
    assert proc.returncode == 0, text
    assert "Manche" in text, text  # "Round": the installed French catalogue
    database = Path(str(image["env"]["DOMINO_DB"]))  # type: ignore[index]
    assert database.is_file() and database.parent == Path(str(image["home"])) / "data"
