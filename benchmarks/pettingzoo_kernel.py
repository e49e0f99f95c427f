"""Random games per second through the PettingZoo adapter (or the OpenSpiel adapter), in the
interpreter and in kernels.

    python benchmarks/pettingzoo_kernel.py [--games connectfour,hex:size=11,...]
                                           [--seconds S] [--runs R] [--adapter openspiel]

Both sides play the loop a PettingZoo user writes, over `interpreter.pettingzoo.env(path,
**options)` and `env(path, kernel=True, **options)`:

    env.reset(seed=seed)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else a random legal action of the mask
        env.step(action)

so every step builds the observation tensor and the action mask, as learning code asks. With
`--adapter openspiel` both sides play the OpenSpiel loop over `interpreter.openspiel.load(path,
**options)` and `load(path, kernel=True, **options)`, asking each player's decision for the
observation tensor first (chance outcomes drawn by their probabilities):

    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node(): action = an outcome of state.chance_outcomes()
        else: state.observation_tensor(state.current_player()); action = a random legal action
        state.apply_action(action)

A game is `name` (games/NAME.game) with options as `:key=value` (integers). Short runs of the two
sides are taken in turn and each rate is the median of its runs, so that a machine busy for a
while slows both alike; the result is a Markdown table on stdout.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing
    sys.path.insert(0, str(ROOT))

DEFAULT = "connectfour,hex:size=11,go,backgammon"


def play(env: Any, seed: int) -> int:
    """One random game through the environment; the number of actions the agents made."""
    import numpy as np

    rng = random.Random(seed)
    env.reset(seed=seed)
    actions = 0
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        actions += 1
    return actions


def play_spiel(game: Any, seed: int) -> int:
    """One random game through an OpenSpiel game, observed before each player's decision;
    the number of actions the players made."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            actions += 1
        state.apply_action(action)
    return actions


def games_per_second(env: Any, seconds: float, seed: int,
                     player: Any = play) -> tuple[float, list[int]]:
    """Random games played (by `player`) for about `seconds` from `seed` on: the rate, and
    their lengths."""
    lengths: list[int] = []
    began = time.perf_counter()
    while not lengths or time.perf_counter() - began < seconds:
        lengths.append(player(env, seed + len(lengths)))
    return len(lengths) / (time.perf_counter() - began), lengths


def parse_game(spec: str) -> tuple[str, dict[str, Any]]:
    """`hex:size=11` -> ("hex", {"size": 11})."""
    name, *words = spec.split(":")
    options: dict[str, Any] = {}
    for word in words:
        key, _, value = word.partition("=")
        options[key] = int(value) if value.lstrip("-").isdigit() else value
    return name, options


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Random games per second through the PettingZoo "
                                "adapter, interpreted and in kernels.")
    p.add_argument("--games", default=DEFAULT,
                   help=f"games, separated by commas, each NAME[:key=value...] (default "
                        f"{DEFAULT})")
    p.add_argument("--seconds", type=float, default=20.0,
                   help="measuring time per game and side (default 20)")
    p.add_argument("--runs", type=int, default=5,
                   help="runs of each side, taken in turn (default 5)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--adapter", choices=("pettingzoo", "openspiel"), default="pettingzoo",
                   help="the adapter played through (default pettingzoo)")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.runs < 1:
        p.error("--seconds must be positive and --runs at least 1")
    try:
        if args.adapter == "openspiel":
            from interpreter.openspiel import load as env
        else:
            from interpreter.pettingzoo import env  # type: ignore[assignment]
    except ImportError:
        print(f"{args.adapter} is not installed: pip install -e '.[{args.adapter}]'",
              file=sys.stderr)
        return 1
    player = play_spiel if args.adapter == "openspiel" else play
    from interpreter.kernel import available

    if not available():
        print("numba is not installed: pip install -e '.[kernels]'", file=sys.stderr)
        return 1
    print("| game | avg actions | interpreter games/s | kernel games/s | ratio |")
    print("|------|------------:|--------------------:|---------------:|------:|")
    for spec in args.games.split(","):
        name, options = parse_game(spec)
        path = ROOT / "games" / f"{name}.game"
        sides = {"interpreter": env(path, **options), "kernel": env(path, kernel=True,
                                                                     **options)}
        for warming in sides.values():
            player(warming, 0)  # (warm: the kernel loaded, the first calls made)
        rates: dict[str, list[float]] = {side: [] for side in sides}
        lengths: list[int] = []
        for r in range(args.runs):
            for side, environment in sides.items():
                rate, played = games_per_second(environment, args.seconds / args.runs,
                                                args.seed + 1000 * r, player)
                rates[side].append(rate)
                lengths += played
        plain, native = (statistics.median(rates[s]) for s in ("interpreter", "kernel"))
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        print(f"| {label} | {statistics.mean(lengths):.0f} | {plain:,.1f} | {native:,.1f} | "
              f"{native / plain:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
