"""The first run measured from nothing: `git clone` of the repository into a temporary folder,
then the README's first command (a virtual environment, `pip install -e .`, `domino`) up to the
console's greeting line, each step timed; then a second start of `domino` (warm caches), the
virtual environment's size and its largest packages. Prints a Markdown table for
docs/benchmarks.md.

    python bench/first_run.py [--repo PATH] [--python python3] [--keep]

The console runs non-interactively (stdin closed, DOMINO_CONSOLE=on, no token in the
environment): the clock stops when the greeting line ("... Type /help ...") prints. pip uses
whatever index the machine's pip configuration names (a cold cache downloads ~400 MB).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GREETING = "Type /help"
TOKENS = ("DISCORD_TOKEN", "TELEGRAM_TOKEN", "DOMINO_DB", "VIRTUAL_ENV", "PYTHONPATH")


def readme_first_command(readme: Path) -> str:
    """The README's first command (the line after `# run it`)."""
    lines = readme.read_text().splitlines()
    for i, line in enumerate(lines):
        if line.startswith("# run it"):
            return lines[i + 1].strip()
    raise SystemExit("README.md has no '# run it' command")


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return time.perf_counter() - start


def to_greeting(domino: Path, cwd: Path, env: dict[str, str]) -> float:
    """Seconds from starting `domino` (stdin closed) to its greeting line."""
    start = time.perf_counter()
    proc = subprocess.Popen([str(domino)], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    seen: list[str] = []
    for line in proc.stdout:
        seen.append(line)
        if GREETING in line:
            took = time.perf_counter() - start
            proc.wait(timeout=60)
            return took
    proc.wait(timeout=60)
    raise SystemExit("domino never printed its greeting:\n" + "".join(seen[-20:]))


def sizes(venv: Path) -> tuple[str, list[tuple[int, str]]]:
    total = subprocess.run(["du", "-sh", str(venv)], capture_output=True, text=True).stdout
    site = next(venv.glob("lib/python*/site-packages"))
    out = subprocess.run(["du", "-sk", *map(str, site.iterdir())], capture_output=True,
                         text=True).stdout
    rows = []
    for line in out.splitlines():
        kb, path = line.split("\t", 1)
        rows.append((int(kb), Path(path).name))
    rows.sort(reverse=True)
    return total.split()[0], rows[:6]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", default=str(ROOT), help="the repository to clone (default: this)")
    ap.add_argument("--python", default="python3", help="the interpreter making the venv")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = ap.parse_args()
    command = readme_first_command(Path(args.repo) / "README.md")
    expected = "python3 -m venv .venv && . .venv/bin/activate && pip install -e . && domino"
    if command != expected:
        print(f"note: the README's first command is now {command!r}; measured: {expected!r}",
              file=sys.stderr)
    env = {k: v for k, v in os.environ.items() if k not in TOKENS}
    env["DOMINO_CONSOLE"] = "on"
    tmp = Path(tempfile.mkdtemp(prefix="domino-first-run-"))
    try:
        clone = timed(["git", "clone", "--quiet", args.repo, "repo"], tmp, env)
        repo = tmp / "repo"
        venv_s = timed([args.python, "-m", "venv", ".venv"], repo, env)
        venv = repo / ".venv"
        env["VIRTUAL_ENV"] = str(venv)
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        pip_s = timed([str(venv / "bin" / "pip"), "install", "--quiet", "-e", "."], repo, env)
        first = to_greeting(venv / "bin" / "domino", repo, env)
        second = to_greeting(venv / "bin" / "domino", repo, env)
        total, largest = sizes(venv)
        pip_v = subprocess.run([str(venv / "bin" / "python"), "--version"], capture_output=True,
                               text=True).stdout.strip()
    finally:
        if args.keep:
            print(f"kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    whole = clone + venv_s + pip_s + first
    print(f"First run from nothing ({pip_v}, {os.cpu_count()} CPUs; `{command}`)\n")
    print("| step | seconds |\n|---|---:|")
    for name, s in (("git clone", clone), ("python3 -m venv .venv", venv_s),
                    ("pip install -e .", pip_s), ("domino to its greeting (first start)", first),
                    ("**clone to first prompt**", whole),
                    ("domino to its greeting (second start)", second)):
        print(f"| {name} | {s:.1f} |")
    print(f"\n`du -sh .venv`: {total}. Largest in site-packages: "
          + ", ".join(f"{name} {kb / 1024:.0f} MB" for kb, name in largest
                      if not re.match(r".*\.dist-info$", name)) + ".")


if __name__ == "__main__":
    main()
