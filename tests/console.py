"""Running the installed `ludeme` console script from tests.

The script is the one installed next to the Python running the tests, found without PATH: the
suite must pass when run as `VENV/bin/python -m pytest` with the virtual environment not
activated (its bin directory not on PATH), and must not run some other installation's `ludeme`.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT_NAMES = ("ludeme", "ludeme.exe")  # as pip installs the console script on POSIX, Windows


def script_dirs(executable: str) -> list[Path]:
    """Where pip puts this interpreter's console scripts: beside the interpreter (not resolving
    a virtual environment's symlink to its base Python), and the scripts directory it reports."""
    dirs = [Path(executable).parent, Path(sysconfig.get_path("scripts"))]
    return list(dict.fromkeys(dirs))


def command(executable: str | None = None) -> list[str]:
    """The command that runs `ludeme` for the interpreter `executable` (this one by default): its
    console script (declared in pyproject.toml as `ludeme = "interpreter.cli:main"`), or, where
    no script is installed beside it, the module run by that interpreter."""
    executable = executable or sys.executable
    for directory in script_dirs(executable):
        for name in SCRIPT_NAMES:
            script = directory / name
            if script.is_file() and os.access(script, os.X_OK):
                return [str(script)]
    return [executable, "-m", "interpreter.cli"]


LUDEME = command()


def shell_command(line: str) -> str:
    """A shell command line from the docs (`ludeme validate ...`) with `ludeme` replaced by the
    command that runs this installation's, so that running it does not depend on PATH."""
    words = line.split(maxsplit=1)
    if not words or words[0] != "ludeme":
        return line
    return " ".join([shlex.join(LUDEME), *words[1:]])


def ludeme(*args: str, cwd: Path = ROOT, stdin: str | None = None,
           env: dict[str, str] | None = None, timeout: float = 120
           ) -> subprocess.CompletedProcess[str]:
    """Run `ludeme ARGS...` and capture its output as text."""
    full = dict(os.environ, PYTHONIOENCODING="utf-8", **(env or {}))
    return subprocess.run([*LUDEME, *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, encoding="utf-8", timeout=timeout, env=full)
