"""Write the docs' speed table from the benchmark, so that no number is pasted by hand.

    python docs/update_speed.py [--seconds S] [--tables openspiel_ratios,playouts,...]

Runs `benchmarks/openspiel_ratios.py --markdown --compile-times` (OpenSpiel must be installed:
`pip install -e '.[openspiel]'`), `benchmarks/playouts.py`, `benchmarks/chess_perft.py`
(python-chess: `pip install -e '.[bench]'`) and `benchmarks/mcts_kernel.py` (numba: `pip
install -e '.[kernels]'`) and saves their tables in `docs/includes/`, which the page
`docs/speed.md` includes (see `docs/hooks.py`). It then writes the README's speed table
(between its `speed table` markers) from the saved tables: per game OpenSpiel shares, the
ratios to OpenSpiel's C++ of the public loop, the fast path, the adapter and the kernel, and
chess perft's ratios to python-chess. `--tables readme` writes only that, from the tables as
saved. Commit the files it writes.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "docs" / "includes" / "openspiel_ratios.md"
TABLES = ("openspiel_ratios", "playouts", "chess_perft", "mcts_kernel", "mcts_kernel_5s",
          "readme")
README = ROOT / "README.md"
BEGIN = "<!-- speed table: written by docs/update_speed.py from docs/includes -->"
END = "<!-- end of the speed table -->"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=120.0,
                   help="measuring time given to the benchmark (default 120)")
    p.add_argument("--tables", default="",
                   help="comma-separated tables to write, of: " + ", ".join(TABLES)
                   + " (default: all)")
    args = p.parse_args(argv)
    wanted = [t for t in args.tables.split(",") if t] or list(TABLES)
    unknown = [t for t in wanted if t not in TABLES]
    if unknown:
        p.error(f"no table {unknown[0]!r} (tables: {', '.join(TABLES)})")
    when = datetime.date.today().isoformat()
    if "openspiel_ratios" in wanted:
        command = [sys.executable, str(ROOT / "benchmarks" / "openspiel_ratios.py"),
                   "--markdown", "--compile-times", "--seconds", f"{args.seconds:g}"]
        run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr, end="")
            return run.returncode
        head = (f"<!-- written by docs/update_speed.py on {when} ({platform.machine()}, "
                f"{platform.system()}): python benchmarks/openspiel_ratios.py --markdown "
                f"--compile-times --seconds {args.seconds:g} -->\n\n")
        OUTPUT.parent.mkdir(parents=True, exist_ok=True)
        OUTPUT.write_text(head + run.stdout.strip() + "\n", encoding="utf-8")
        print(f"wrote {OUTPUT.relative_to(ROOT)}")
    # Every game's playouts, and chess perft against python-chess: their tables as printed.
    for name, script, extra in (
            ("playouts.md", "playouts.py", ["--seconds", f"{args.seconds / 6:g}"]),
            ("chess_perft.md", "chess_perft.py",
             ["--depth", "3", "--positions", "start,kiwipete", "--runs", "3", "--top", "0"]),
            ("mcts_kernel.md", "mcts_kernel.py",
             ["--seconds", "2", "--games", "100", "--move-seconds", "0.2"]),
            ("mcts_kernel_5s.md", "mcts_kernel.py",
             ["--seconds", "5", "--only", "chess,go 9x9"])):
        if name.removesuffix(".md") not in wanted:
            continue
        run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *extra],
                             cwd=ROOT, capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr, end="")
            return run.returncode
        table = run.stdout[run.stdout.find("| "):].strip()
        target = OUTPUT.parent / name
        target.write_text(f"<!-- written by docs/update_speed.py on {when}: python "
                          f"benchmarks/{script} {shlex.join(extra)} -->\n\n{table}\n",
                          encoding="utf-8")
        print(f"wrote {target.relative_to(ROOT)}")
    if "readme" in wanted:
        write_readme()
        print(f"wrote the speed table of {README.relative_to(ROOT)}")
    return 0


def table_rows(path: Path) -> list[list[str]]:
    """The cells of each row of the first Markdown table in `path` (the header first, the
    separator left out)."""
    rows: list[list[str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not all(set(c) <= set("-: ") for c in cells):
            rows.append(cells)
    return rows


def ratio(cell: str) -> str:
    """The ratio in a cell written `rate (ratio)`, or the cell when it has none."""
    return cell[cell.index("(") + 1:cell.rindex(")")] if "(" in cell else cell


def speed_table() -> str:
    """The README's speed table, from docs/includes/openspiel_ratios.md and chess_perft.md."""
    spiel = table_rows(OUTPUT)
    head = spiel[0]
    columns = [head.index(name) for name in ("game", "public playouts/s (ratio)",
                                             "fast path (ratio)", "adapter (ratio)",
                                             "kernel (ratio)")]
    lines = ["| game | public loop | fast path | adapter | kernel |",
             "|------|------------:|----------:|--------:|-------:|"]
    for row in spiel[1:]:
        game, *rest = (row[i] for i in columns)
        lines.append("| " + " | ".join([game, *map(ratio, rest)]) + " |")
    perft = table_rows(OUTPUT.parent / "chess_perft.md")
    at = perft[0].index

    def per_python_chess(row: list[str], column: str) -> str:
        rate = float(row[at(column)].replace(",", ""))
        return f"{rate / float(row[at('python-chess nodes/s')].replace(',', '')):.2f}"
    perft_lines = [f"| chess perft(3), {row[at('position')]} | "
                   f"{per_python_chess(row, 'public nodes/s')} | "
                   f"{per_python_chess(row, 'fast path nodes/s')} | - | "
                   f"{per_python_chess(row, 'kernel nodes/s')} |" for row in perft[1:]]
    return "\n".join([
        "Random games per second as a ratio to OpenSpiel's C++ game driven by the same Python "
        "loop (above 1: ludeme is faster), and chess perft as a ratio to python-chess's nodes "
        "per second; measured in one run on the machine [speed](docs/speed.md) names, with "
        "the rates, notes and compile times:", "", *lines, *perft_lines])


def write_readme() -> None:
    """Put speed_table() between the README's markers."""
    text = README.read_text(encoding="utf-8")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    README.write_text(text[:start] + "\n" + speed_table() + "\n" + text[end:],
                      encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
