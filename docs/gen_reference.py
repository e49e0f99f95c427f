"""The generated parts of the documentation, read from the code so that they cannot go stale:
the ludeme reference (from the registry: usage, type, docstring, example, grouped by family),
the table of direction constants per board (from the boards themselves), the table of game
files and their options, and each family page's vocabulary (the ludemes its game files use).

`docs/hooks.py` calls these while `mkdocs build` runs; `python docs/gen_reference.py OUT`
writes the reference pages into OUT to read them without MkDocs.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing
    sys.path.insert(0, str(ROOT))

import stdlib  # noqa: E402
from dsl.ast import Form, Keyword, ListNode, Node, Span  # noqa: E402
from dsl.parser import parse  # noqa: E402
from dsl.types import DIRECTION_NAMES  # noqa: E402
from interpreter import load_game, parse_game  # noqa: E402
from interpreter.grammar import example, family  # noqa: E402
from stdlib.registry import LudemeSpec  # noqa: E402


def families() -> dict[str, list[LudemeSpec]]:
    """The ludemes by family (the stdlib module that defines them), in registry order."""
    out: dict[str, list[LudemeSpec]] = {}
    for spec in stdlib.REGISTRY.values():
        out.setdefault(family(spec), []).append(spec)
    return out


def link(spec: LudemeSpec, here: str = "reference/") -> str:
    """A Markdown link to a ludeme's entry, from a page in the directory `here`."""
    up = "" if here == "reference/" else "../" * here.count("/") + "reference/"
    return f"[`{spec.name}`]({up}{family(spec)}.md#{ludeme_id(spec)})"


def ludeme_id(spec: LudemeSpec) -> str:
    """The HTML id of a ludeme's entry (set explicitly: operators such as `>=` have no slug)."""
    names = {"+": "plus", "-": "minus", "*": "times", "=": "equal", "!=": "not-equal",
             "<": "less", "<=": "at-most", ">": "greater", ">=": "at-least"}
    return "ludeme-" + names.get(spec.name, spec.name.replace(" ", "-"))


def entry(spec: LudemeSpec) -> str:
    """One ludeme's reference entry: usage, type, documentation, example."""
    doc = spec.doc.strip()
    paragraphs = doc.split("\n\n")
    body = "\n\n".join(" ".join(line.strip() for line in p.splitlines())
                       for p in paragraphs[:-1])
    lines = [f'<a id="{ludeme_id(spec)}"></a>', "", f"### `{spec.name}`", "",
             "```", f"{spec.usage()}  -> {spec.returns.name}", "```", "", body, "",
             "Example:", "", "```lisp", example(spec), "```", ""]
    return "\n".join(lines)


def family_page(name: str, specs: list[LudemeSpec]) -> str:
    """The reference page of one family: the module's own description, then its ludemes."""
    module = sys.modules[specs[0].fn.__module__]
    about = (module.__doc__ or "").strip().split("\n\n")[0]
    about = " ".join(line.strip() for line in about.splitlines())
    out = [f"# {name}", "", about, "",
           f"Defined in `stdlib/{name}.py`; {len(specs)} ludeme{'s' if len(specs) > 1 else ''}. "
           "Generated from the registry: what `ludeme grammar NAME` prints.", "",
           " · ".join(f"[`{s.name}`](#{ludeme_id(s)})" for s in specs), ""]
    out += [entry(spec) for spec in specs]
    return "\n".join(out)


def reference_index() -> str:
    """The reference's first page: how to read an entry, the families, every ludeme A–Z."""
    fams = families()
    out = ["# Ludeme reference", "",
           "Every ludeme of the language, generated from the registry (`stdlib/registry.py`): "
           "a ludeme is a typed Python function, its signature is its grammar and its docstring "
           "its documentation. The same text is what `ludeme grammar NAME` prints; "
           "`ludeme grammar --search WORD` and this site's search box find ludemes by a word.",
           "",
           "How to read a usage: `(place Region [piece:str] [if:Boolean])  -> Moves` takes one "
           "positional argument of type `Region`, and optional named arguments (`[...]`) "
           "written `name:value`; `T...` takes any number of arguments; `{T}` is a list "
           "`{a b c}`; the type after `->` is what the ludeme yields. Lower-case types (`int`, "
           "`str`, `bool`) are literals known when the game is compiled (an option's `#value` "
           "counts); capitalised ones (`Int`, `Boolean`, `Region`, ...) are evaluated as the "
           "game is played. Every example is compiled in a game by the test suite "
           "(`tests/test_docs_examples.py`).", "",
           "## Families", "", "| family | ludemes |", "|---|---|"]
    for name, specs in fams.items():
        out.append(f"| [{name}]({name}.md) | {len(specs)} |")
    out += ["", "## Every ludeme", "", "| ludeme | yields | family | summary |",
            "|---|---|---|---|"]
    for spec in sorted(stdlib.REGISTRY.values(), key=lambda s: s.name.lstrip("!<>=+-*")):
        summary = spec.summary().replace("|", "\\|")
        out.append(f"| [`{spec.name}`]({family(spec)}.md#{ludeme_id(spec)}) | "
                   f"{spec.returns.name} | {family(spec)} | {summary} |")
    return "\n".join(out) + "\n"


def reference_pages() -> dict[str, str]:
    """Every generated reference page, by its path under docs/."""
    pages = {"reference/index.md": reference_index()}
    for name, specs in families().items():
        pages[f"reference/{name}.md"] = family_page(name, specs)
    return pages


# Directions -------------------------------------------------------------------------------

BOARDS = [
    ("square (`square`, `rectangle`)", "(square 3)"),
    ("hex (`hex-rhombus`, `hexhex`, `hex-triangle`)", "(hexhex 2)"),
    ("points (`morris`, `points`)", "(morris 3)"),
    ("points with diagonals (`alquerque`, `morris ... diagonals:true`)", "(alquerque)"),
]
ABSOLUTE = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
RELATIVE = ["Forward", "Backward", "ForwardDiagonal", "Forwards", "Sideways"]


def _board_env(board: str) -> object:
    text = (f'(game "Directions" (players {{(player "A" forward:N) (player "B" forward:S)}}) '
            f"(board {board}) (play (place (sites Empty))) (end (if (full) (draw))))")
    env = parse_game(text, "<directions>").env
    env.span = Span("<directions>", 1, 1)  # where a direction that does not exist is told
    return env


def directions_table() -> str:
    """What each direction constant stands for on each kind of board, as the compiler resolves
    it (relative ones for a player whose forward is N)."""
    envs = [(label, _board_env(board)) for label, board in BOARDS]
    names = sorted(DIRECTION_NAMES - set(ABSOLUTE) - set(RELATIVE)) + RELATIVE
    out = ["| constant | " + " | ".join(label for label, _ in envs) + " |",
           "|---|" + "---|" * len(envs)]
    for name in names:
        cells = []
        for _, env in envs:
            dirs = env.resolve_dirs(name)  # type: ignore[attr-defined]
            if callable(dirs):
                dirs = dirs(0)
            cells.append(" ".join(dirs) if dirs else "—")
        out.append(f"| `{name}` | " + " | ".join(cells) + " |")
    cells = [" ".join(env.topology.directions) for _, env in envs]  # type: ignore[attr-defined]
    out.append("| compass points that exist | " + " | ".join(cells) + " |")
    return "\n".join(out)


# Game files and what they use -------------------------------------------------------------

def game_files() -> list[Path]:
    return sorted((ROOT / "games").glob("*.game"))


def dsl_value(value: object) -> str:
    """A value as a game file writes it: `true`, `6`, `"fixed"`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def games_table() -> str:
    """Every game file: its name, roles in turn order, and options with their defaults."""
    out = ["| file | game | roles (first moves first) | options (default) |", "|---|---|---|---|"]
    for path in game_files():
        game = load_game(path)
        options = ", ".join(f"`{k}` {dsl_value(v)}" for k, v in game.options.items())
        out.append(f"| `games/{path.name}` | {game.name} | {', '.join(game.players)} | "
                   f"{options or '—'} |")
    return "\n".join(out)


def _heads(node: Node) -> Iterator[str]:
    if isinstance(node, Form):
        if not node.is_call:
            first = node.args[0] if node.args else None
            name = getattr(first, "name", None)
            if isinstance(name, str) and f"{node.head} {name}" in stdlib.REGISTRY:
                yield f"{node.head} {name}"
            else:
                yield node.head
        for arg in node.args:
            yield from _heads(arg)
        for kw in node.kwargs:
            yield from _heads(kw)
    elif isinstance(node, Keyword):
        yield from _heads(node.value)
    elif isinstance(node, ListNode):
        for item in node.items:
            yield from _heads(item)


def used_ludemes(path: Path) -> list[str]:
    """The registered ludemes a game file writes (in its defines too), in registry order."""
    seen: set[str] = set()
    for node in parse(path.read_text(encoding="utf-8"), str(path)):
        seen.update(_heads(node))
    return [name for name in stdlib.REGISTRY if name in seen]


def vocabulary(paths: Iterable[str], here: str) -> str:
    """For the game files `paths` (relative to the repository): each file with the ludemes it
    uses, linked to the reference, those no other seed game uses in bold."""
    paths = list(paths)
    everywhere: dict[str, int] = {}
    files = game_files()
    for other in files:
        for name in used_ludemes(other):
            everywhere[name] = everywhere.get(name, 0) + 1
    out = ["| game file | ludemes it uses (**bold**: used by no other game in `games/`) |",
           "|---|---|"]
    for rel in [p for p in paths if (ROOT / p).is_file()]:
        # leaving out what nearly every game writes: game, players, board...
        names = [n for n in used_ludemes(ROOT / rel) if everywhere.get(n, 0) < 0.7 * len(files)]
        cells = []
        for name in names:
            text = link(stdlib.REGISTRY[name], here)
            cells.append(f"**{text}**" if everywhere.get(name, 0) <= 1 and
                         rel.startswith("games/") else text)
        out.append(f"| `{rel}` | {' '.join(cells)} |")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python docs/gen_reference.py OUTPUT_DIRECTORY", file=sys.stderr)
        return 2
    for rel, text in reference_pages().items():
        target = Path(argv[0]) / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    print(f"wrote {len(reference_pages())} pages under {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
