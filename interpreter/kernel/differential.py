"""The differential test of a kernel against the interpreter (the reference semantics).

The kernel plays a random game with its own generator; the interpreter replays the same
actions. After every move the two must agree on the legal actions, the board, the player to
move, the hands, the edges, the result and the reason the game ended; when the kernel's game
stops, the interpreter's must stop there too (over, or no legal move, or the length bound).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interpreter.game import Game, State
    from interpreter.kernel.kernel import Kernel


def first_difference(game: Game, kernel: Kernel, seed: int,
                     max_plies: int | None = None) -> str | None:
    """Where the kernel's random game `seed` and the interpreter's replay of it first differ
    (a sentence naming the move), or None if they agree throughout."""
    bound = max_plies if max_plies is not None else 20 * len(game.sites)
    actions = kernel.playout_actions(seed, bound)
    state = game.initial_state()
    st = kernel.start.copy()
    played: list[str] = []
    for ply, action in enumerate([*actions, None]):
        where = f"seed {seed}, after {ply} moves ({' '.join(played[-6:]) or 'start'})"
        differs = difference(game, kernel, state, st)
        if differs is not None:
            return f"{where}: {differs}"
        if action is None:
            break
        played.append(game.actions.notation(action))
        state = state.apply_action(action)
        kernel.apply(st, action)
    stopped = state.is_over or not state.legal_actions() or len(actions) == bound
    if not stopped:
        return (f"seed {seed}: the kernel's game stopped after {len(actions)} moves, the "
                "interpreter's goes on")
    return None


def difference(game: Game, kernel: Kernel, state: State, st: object) -> str | None:
    """How the kernel state `st` differs from the interpreter's `state` (a sentence), or None
    where they agree: the board, the mover, the phase and step, hands, edges, scores, dice,
    chance, the result, its reason and the legal actions."""
    board = kernel.board(st)  # type: ignore[arg-type]
    if board != list(state.board):
        diff = [game.sites[s] for s, (a, b) in enumerate(zip(board, state.board, strict=True))
                if a != b]
        return f"the boards differ at {', '.join(diff)}"
    if state.result is None and kernel.to_move(st) != state.to_move:  # type: ignore[arg-type]
        return (f"{game.players[kernel.to_move(st)]} moves in the kernel, "  # type: ignore[arg-type]
                f"{game.players[state.to_move]} in the interpreter")
    if state.result is None and kernel.turn_step(st) != (state.phase, state.step):  # type: ignore[arg-type]
        return (f"the kernel is at phase, step {kernel.turn_step(st)}, the interpreter at "  # type: ignore[arg-type]
                f"{(state.phase, state.step)}")
    if kernel.hands(st) != tuple(state.hands):  # type: ignore[arg-type]
        return f"hands differ: kernel {kernel.hands(st)}, interpreter {state.hands}"  # type: ignore[arg-type]
    if kernel.held(st) != tuple(state.held):  # type: ignore[arg-type]
        return f"hands differ: kernel {kernel.held(st)}, interpreter {state.held}"  # type: ignore[arg-type]
    if kernel.edges(st) != tuple(state.edges):  # type: ignore[arg-type]
        return _edges_differ(game, kernel.edges(st), tuple(state.edges))  # type: ignore[arg-type]
    if state.scores and kernel.scores(st) != list(state.scores):  # type: ignore[arg-type]
        return f"scores differ: kernel {kernel.scores(st)}, interpreter {list(state.scores)}"  # type: ignore[arg-type]
    if state.result is None and kernel.dice(st) != list(state.dice):  # type: ignore[arg-type]
        return f"dice differ: kernel {kernel.dice(st)}, interpreter {list(state.dice)}"  # type: ignore[arg-type]
    if state.result is None and kernel.is_chance(st) != state.is_chance:  # type: ignore[arg-type]
        return f"a chance position in {'the kernel' if state.is_chance else 'the interpreter'} only"
    if kernel.result(st) != state.result:  # type: ignore[arg-type]
        return f"results differ: kernel {kernel.result(st)}, interpreter {state.result}"  # type: ignore[arg-type]
    if state.result is not None and kernel.reason(st) != state.reason:  # type: ignore[arg-type]
        return f"end reasons differ: kernel {kernel.reason(st)!r}, interpreter {state.reason!r}"  # type: ignore[arg-type]
    want = sorted(state.legal_actions())
    have = kernel.legal_actions(st)  # type: ignore[arg-type]
    if have != want:
        extra = [game.actions.notation(a) for a in sorted(set(have) - set(want))]
        missing = [game.actions.notation(a) for a in sorted(set(want) - set(have))]
        return (f"legal moves differ: only the kernel has {extra or 'none'}, only the "
                f"interpreter {missing or 'none'}")
    return None


def _edges_differ(game: Game, have: tuple[int, ...], want: tuple[int, ...]) -> str:
    """Which edges the kernel and the interpreter hold differently, by their sites."""
    from stdlib.edges import Edges

    edges = game.env.shared.get("edges")
    pairs = [pair for s in edges.sets.values() for pair in s.pairs] \
        if isinstance(edges, Edges) else []
    diff = [f"{game.sites[pairs[e][0]]}-{game.sites[pairs[e][1]]}" if e < len(pairs) else str(e)
            for e, (a, b) in enumerate(zip(have, want, strict=False)) if a != b]
    return f"edges differ at {', '.join(diff) or 'their count'} (kernel {len(have)} values, " \
        f"interpreter {len(want)})"
