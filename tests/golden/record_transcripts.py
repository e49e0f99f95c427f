"""Record the golden game transcripts that tests/test_golden_transcripts.py replays.

    python tests/golden/record_transcripts.py                # all, into tests/golden/transcripts
    python tests/golden/record_transcripts.py games/go.game  # only this game file's transcripts

The transcripts pin down how the engine plays every game file in games/ and examples/: seeded
random games through the public API, with the mover, the legal moves (their number, a digest,
and in full at every 10th position), the move played and the position text after each decision,
and how each game ended. They were recorded before the rewrite of the engine core, so that the
rewritten engine can be checked against the old one move by move.

REGENERATING IS ONLY RIGHT WHEN A RULE CHANGE IS INTENDED (a game file, or a deliberate change
in how the engine reads one). Re-recording to make a failing replay pass throws away exactly
what the transcripts are for; find out first why the new engine plays differently. Regenerate
only the files whose rules changed (name them on the command line) and review the diff.

Randomness: each game has its own `random.Random(seed)`; at each decision the move is chosen by
index in the legal moves SORTED by notation, so a change in the order in which moves are
generated does not change the game. Nothing else draws random numbers.

Format: one JSON object per line (see `record`), in a file per game file and option set,
`transcripts/<games|examples>/<stem>[@key=value...].jsonl`.

The engine used is the one in the checkout this script lives in (its directory's `../..`),
whatever is installed; run it from a separate checkout (`git worktree add`) to record one
commit while others edit the working tree.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import interpreter  # noqa: E402
from interpreter import load_game  # noqa: E402

OUT = Path(__file__).resolve().parent / "transcripts"

DEFAULT_SEEDS = (1, 2, 3)
DEFAULT_BOUND = 500  # plies; every game recorded with these settings ends well before it
FULL_LIST_EVERY = 10  # the sorted legal moves are recorded in full at positions 0, 10, 20, ...

# Per game file and option set: (options, seeds, bound). The default options of every game
# file are recorded with DEFAULT_SEEDS unless listed here; extra option sets are added here.
# Seeds were chosen for coverage where it matters: chess seeds 2, 3, 6 end by checkmate,
# stalemate and the fifty-move rule; y.game keeps to two games for the size of its file.
VARIANTS: dict[str, list[tuple[dict[str, Any], tuple[int, ...], int]]] = {
    "games/chess.game": [({}, (2, 3, 6), DEFAULT_BOUND),
                         ({"back": "BBQNNRKR"}, (1, 3, 6), DEFAULT_BOUND)],
    "games/go.game": [({}, DEFAULT_SEEDS, DEFAULT_BOUND),
                      ({"openspiel": True}, (4, 5, 6), DEFAULT_BOUND)],
    "games/y.game": [({}, (1, 2), DEFAULT_BOUND)],
    # Random games never finish the race: a turn limit ends them (in a draw), kept short.
    "games/chinese-checkers.game": [({"limit": 60}, DEFAULT_SEEDS, DEFAULT_BOUND),
                                    ({"players": 3, "limit": 30}, (4,), DEFAULT_BOUND)],
}


def digest(notations: list[str]) -> str:
    """A short digest of a list of move notations (pass them sorted)."""
    return hashlib.sha1("\n".join(notations).encode()).hexdigest()[:12]


def transcript_name(game_file: str, options: dict[str, Any]) -> str:
    """transcripts/-relative name: `games/go@openspiel=true.jsonl`."""
    path = Path(game_file)
    suffix = "".join(f"@{key}={json.dumps(value).strip(chr(34))}"
                     for key, value in sorted(options.items()))
    return f"{path.parent.name}/{path.stem}{suffix}.jsonl"


def commit() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def record(game_file: str, options: dict[str, Any], seeds: tuple[int, ...],
           bound: int) -> list[dict[str, Any]]:
    """The transcript's lines:

    - `header`: the game file, the options given, the options in force (`game.options`), the
      name, the roles, the seeds, the ply bound and the commit recorded from;
    - per game: `start` (game index, seed, the initial position text); one `ply` per decision
      (ply number, mover, `n` legal moves, `sorted_sha1` = `digest` of their sorted notations,
      `moves` = that sorted list in full when ply % FULL_LIST_EVERY == 0, the move played and
      the position text after it); `end` (plies played, is_over, winner, reason, the mover and
      the number of legal moves in the final position).
    """
    game = load_game(ROOT / game_file, **options)
    lines: list[dict[str, Any]] = [{
        "kind": "header", "file": game_file, "options": options, "game_options": game.options,
        "name": game.name, "players": list(game.players), "seeds": list(seeds), "bound": bound,
        "recorded_from": commit(),
    }]
    for index, seed in enumerate(seeds):
        rng = random.Random(seed)
        state = game.initial_state()
        lines.append({"kind": "start", "game": index, "seed": seed, "text": state.to_text()})
        plies = 0
        while not state.is_over and plies < bound:
            if getattr(state, "is_chance", False):
                raise NotImplementedError(f"{game_file}: chance positions are not recorded")
            moves = sorted(state.legal_moves(), key=str)
            notations = [str(move) for move in moves]
            if len(set(notations)) != len(notations):
                raise ValueError(f"{game_file}: two legal moves with one notation: {notations}")
            line: dict[str, Any] = {"kind": "ply", "game": index, "ply": plies,
                                    "mover": state.mover, "n": len(moves),
                                    "sorted_sha1": digest(notations)}
            if plies % FULL_LIST_EVERY == 0:
                line["moves"] = notations
            move = moves[rng.randrange(len(moves))]
            state = state.play(move)
            plies += 1
            line["move"] = str(move)
            line["text"] = state.to_text()
            lines.append(line)
        outcome = state.outcome
        lines.append({"kind": "end", "game": index, "plies": plies, "is_over": state.is_over,
                      "winner": state.winner, "reason": outcome.reason if outcome else None,
                      "mover": state.mover, "n": len(state.legal_moves())})
    return lines


def variants() -> list[tuple[str, dict[str, Any], tuple[int, ...], int]]:
    """Every game file in games/ and examples/, with its option sets, seeds and bound."""
    files = sorted(p.relative_to(ROOT).as_posix()
                   for folder in ("games", "examples") for p in (ROOT / folder).glob("*.game"))
    return [(name, options, seeds, bound) for name in files
            for options, seeds, bound in VARIANTS.get(name, [({}, DEFAULT_SEEDS,
                                                              DEFAULT_BOUND)])]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", help="game files to record (default: all), "
                        "as listed relative to the checkout, e.g. games/go.game")
    parser.add_argument("--out", type=Path, default=OUT, help=f"output folder (default {OUT})")
    args = parser.parse_args(argv)
    # The engine must be this checkout's, not another one installed in editable mode.
    engine = Path(interpreter.__file__).resolve()
    if ROOT not in engine.parents:
        parser.error(f"the interpreter imported is {engine}, not the one under {ROOT}")
    print(f"engine: {engine.parent}", file=sys.stderr)
    chosen = variants()
    if args.files:
        wanted = {Path(f).as_posix() for f in args.files}
        unknown = wanted - {name for name, *_ in chosen}
        if unknown:
            parser.error(f"not a game file of games/ or examples/: {', '.join(sorted(unknown))}")
        chosen = [v for v in chosen if v[0] in wanted]
    for name, options, seeds, bound in chosen:
        lines = record(name, options, seeds, bound)
        target = args.out / transcript_name(name, options)
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("w", encoding="utf-8", newline="\n") as out:
            for line in lines:
                out.write(json.dumps(line) + "\n")
        ends = [(line["plies"], line["winner"], line["reason"]) for line in lines
                if line["kind"] == "end"]
        print(f"{target}: {target.stat().st_size} bytes, {ends}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
