"""Running the installed `ludeme` console script from tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def command() -> list[str]:
    """The installed console script: next to this interpreter, else on PATH; as a last resort
    the module itself."""
    beside = Path(sysconfig.get_path("scripts")) / "ludeme"
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    found = shutil.which("ludeme")
    return [found] if found else [sys.executable, "-m", "interpreter.cli"]


LUDEME = command()


def ludeme(*args: str, cwd: Path = ROOT, stdin: str | None = None,
           env: dict[str, str] | None = None, timeout: float = 120
           ) -> subprocess.CompletedProcess[str]:
    """Run `ludeme ARGS...` and capture its output as text."""
    full = dict(os.environ, PYTHONIOENCODING="utf-8", **(env or {}))
    return subprocess.run([*LUDEME, *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, encoding="utf-8", timeout=timeout, env=full)
