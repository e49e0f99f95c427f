"""Agents: players the computer runs. Each chooses a move for the state it is given.

- `random`: uniformly among the legal moves.
- `flat:K`: flat Monte Carlo: K random games shared equally among the legal moves; the move
  whose games went best.
- `mcts:K`: Monte Carlo tree search (UCT) with K iterations, each ending in a random game
  (`Game.playout`); wins and losses it can prove are settled exactly (MCTS-Solver). When the
  game has a kernel (interpreter/kernel) the whole search runs natively in it
  (interpreter/kernel/search.py): the same search, many times the iterations in the same
  time, and its tree kept from one move to the next.

A search budget is a number of iterations (`mcts:2000`), a time (`mcts:2s`), or both
(`mcts:2000:2s`, whichever runs out first). With an iteration budget alone, the same seed
gives the same moves.

Results are scored per *seat*: the person who started with a role. Usually a seat holds the
same role all game; after a pie swap the two people hold each other's roles (the board and
the role to move stay as they were, see `Game.apply`). A win scores 1, a draw, or a game cut
off by the length bound, 0.5, a loss 0.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from dsl.errors import GameError
from interpreter.game import Game, State
from stdlib.runtime import Move

if TYPE_CHECKING:
    import numpy as np

    from interpreter.kernel.kernel import Kernel
    from interpreter.kernel.search import NativeNode, NativeTree


class Agent(Protocol):
    name: str

    def choose(self, state: State) -> Move: ...


@dataclass(frozen=True)
class SearchReport:
    """What the last search did: iterations (random games) run, seconds spent, and the chosen
    move's expected score for the seat to move (0 = sure loss, 1 = sure win), measured over
    `samples` of those games (its 95% Wilson interval says how sure that is), or `proven`
    exactly by the search. `kept`: the games the search started with, kept from the last
    move's search (they are not in `iterations`; they are in `samples`)."""

    iterations: int
    seconds: float
    expected: float
    samples: int = 0
    proven: bool = False
    kept: int = 0

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the expected score (exact when proven)."""
        from interpreter.analyze import wilson  # (analyze uses the agents)

        if self.proven:
            return self.expected, self.expected
        return wilson(self.expected * self.samples, self.samples)  # type: ignore[arg-type]

    def __str__(self) -> str:
        games = "playout" if self.iterations == 1 else "playouts"
        if self.iterations == 0 and not self.kept:
            return "the only legal move"
        if self.kept:
            games += f" (and {self.kept} kept from the last move)"
        if self.proven:
            outcome = {1.0: "win", 0.0: "loss"}.get(self.expected, "draw")
            return f"{self.iterations} {games}, a proven {outcome}"
        low, high = self.interval()
        return (f"{self.iterations} {games}; the move chosen scored {self.expected:.0%} in "
                f"{self.samples} of them, 95% interval {low:.0%}–{high:.0%}")


def legal_moves(state: State) -> list[Move]:
    """The state's legal moves; GameError if there is none to choose from."""
    moves = state.legal_moves()
    if not moves:
        why = "the game is over" if state.is_over else f"{state.mover} has no legal move"
        raise GameError(f"no move to choose: {why}")
    return moves


def seat_of(state: State, role: int) -> int:
    """The seat holding `role` in `state`: the role itself, or the other of two roles once a
    pie swap has exchanged the people."""
    if state.swapped and len(state.game.players) == 2:
        return 1 - role
    return role


def scores(final: State) -> list[float]:
    """Each seat's score for a finished (or cut-off) game: 1 for the winner, 0 for the others;
    0.5 for everybody in a draw or a game that did not end."""
    n = len(final.game.players)
    winner = final.winner
    if winner is None:
        return [0.5] * n
    out = [0.0] * n
    out[seat_of(final, final.game.players.index(winner))] = 1.0
    return out


class Budget:
    """Iterations and/or seconds; `spent(i)` says whether iteration `i` should not start."""

    def __init__(self, iterations: int | None, seconds: float | None) -> None:
        if iterations is None and seconds is None:
            raise ValueError("a search needs an iteration or a time budget")
        if iterations is not None and iterations < 1:
            raise ValueError(f"the iteration budget must be at least 1, not {iterations}")
        if seconds is not None and not 0 < seconds < math.inf:
            raise ValueError(f"the time budget must be a positive number, not {seconds}")
        self.iterations = iterations
        self.seconds = seconds
        self.start = 0.0

    def begin(self) -> None:
        self.start = time.perf_counter()

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def spent(self, i: int) -> bool:
        if self.iterations is not None and i >= self.iterations:
            return True
        # Always run one iteration, so that a search has something to go on.
        return self.seconds is not None and i > 0 and self.elapsed() >= self.seconds

    def spelling(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(str(self.iterations))
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        return ":".join(parts)


class RandomAgent:
    """Chooses uniformly among the legal moves; reproducible with a seed."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.report: SearchReport | None = None

    def choose(self, state: State) -> Move:
        if state.is_chance:
            return state.game.draw(state, self.rng)
        return self.rng.choice(legal_moves(state))


class FlatMonteCarloAgent:
    """Flat Monte Carlo: the budget's random games are dealt round-robin to the legal moves;
    the move with the best mean score for the seat to move wins (ties: the first listed)."""

    def __init__(self, iterations: int | None = 500, seconds: float | None = None,
                 seed: int | None = None) -> None:
        self.budget = Budget(iterations, seconds)
        self.name = f"flat:{self.budget.spelling()}"
        self.rng = random.Random(seed)
        self.report: SearchReport | None = None

    def choose(self, state: State) -> Move:
        game = state.game
        if state.is_chance:  # chance decides: nothing to think about
            return game.draw(state, self.rng)
        moves = legal_moves(state)
        seat = seat_of(state, state.to_move)
        self.budget.begin()
        if len(moves) == 1:
            self.report = SearchReport(0, self.budget.elapsed(), 0.5)
            return moves[0]
        children = [game.apply(state, m) for m in moves]
        totals = [0.0] * len(moves)
        counts = [0] * len(moves)
        i = 0
        while not self.budget.spent(i):
            k = i % len(moves)
            final, _ = game.playout(self.rng, state=children[k])
            totals[k] += scores(final)[seat]
            counts[k] += 1
            i += 1
        best = max((k for k in range(len(moves)) if counts[k]),
                   key=lambda k: totals[k] / counts[k])
        self.report = SearchReport(i, self.budget.elapsed(), totals[best] / counts[best],
                                   counts[best])
        return moves[best]


class Node:
    """A node of the search tree: a state, the seat that moved into it, and the statistics of
    the games played through it (`reward` is the sum of that seat's scores). `proven` is the
    node's exact score per seat once the search has settled it (the game is over there, or
    every reply is settled, or the mover has a settled best score)."""

    __slots__ = ("state", "seat", "move", "parent", "children", "untried", "visits", "reward",
                 "proven", "chance", "outcomes")

    def __init__(self, state: State, seat: int, move: Move | None, parent: Node | None,
                 rng: random.Random) -> None:
        self.state = state
        self.seat = seat
        self.move = move
        self.parent = parent
        self.children: list[Node] = []
        # At a chance position the search samples outcomes by their probabilities (each
        # becomes a child when first drawn) instead of choosing among them.
        self.chance = state.is_chance
        self.outcomes: dict[str, Node] = {}  # a chance node's children, by outcome
        self.untried = [] if self.chance else state.legal_moves()
        rng.shuffle(self.untried)  # expanded in a random (seeded) order, from the end
        self.visits = 0
        self.reward = 0.0
        self.proven: list[float] | None = \
            None if self.untried or self.chance else scores(state)

    @property
    def to_move(self) -> int:
        """The seat to move in this node's state."""
        return seat_of(self.state, self.state.to_move)

    def settle(self) -> bool:
        """Prove this node from its children if they allow it: the mover has a proven win, or
        every move is expanded and proven lost. (Draws are proven only where the game ends, so
        that the search keeps looking for the opponent's mistakes.) True if this call proved
        it."""
        if self.chance:  # (chance is not settled by proofs)
            return False
        return _settle(self)


def _settle(node: Node | KernelNode) -> bool:
    """Node.settle, for a node of either tree."""
    if node.proven is not None:
        return False
    m = node.to_move
    proven = [c.proven for c in node.children if c.proven is not None]
    if not proven:
        return False
    best = max(proven, key=lambda p: p[m])
    if best[m] >= 1.0 or (best[m] <= 0.0 and not node.untried
                          and len(proven) == len(node.children)):
        node.proven = best
        return True
    return False


class KernelNode:
    """A node of the search tree MCTS grows in a game's kernel (interpreter/kernel): the
    kernel's state (an int32 array), the move that led to it as an action number, and the
    same statistics as a Node. Kernel search is used only without chance and pie swaps, so a
    seat is a role."""

    __slots__ = ("st", "seat", "action", "parent", "children", "untried", "visits", "reward",
                 "proven", "to_move")

    def __init__(self, kernel: Kernel, st: np.ndarray, seat: int, action: int,
                 parent: KernelNode | None, rng: random.Random) -> None:
        self.st = st
        self.seat = seat
        self.action = action
        self.parent = parent
        self.children: list[KernelNode] = []
        self.untried = kernel.legal_actions(st)  # expanded in a random order (see _iterate_in)
        self.to_move = kernel.to_move(st)
        self.visits = 0
        self.reward = 0.0
        self.proven: list[float] | None = \
            None if self.untried else kernel_scores(kernel.game, kernel.result(st))

    def settle(self) -> bool:
        return _settle(self)


def kernel_scores(game: Game, result: int | None) -> list[float]:
    """`scores` of a kernel's result (Kernel.result: a role, DRAW, or None: no end)."""
    n = len(game.players)
    if result is None or result < 0:
        return [0.5] * n
    out = [0.0] * n
    out[result] = 1.0
    return out


def search_kernel(game: Game, kernel: bool | None) -> Kernel | None:
    """The kernel a search of `game` runs in: None for `kernel=False`, for a game with chance
    or a pie swap (the kernel tree leaves them to the interpreter) or without a kernel;
    `kernel=True` without one is a GameError saying why."""
    if kernel is False:
        return None
    if game.has_chance or game.pie:
        if kernel:
            raise GameError(f"{game.name}: the search runs in a kernel only without chance "
                            "and pie swaps")
        return None
    from interpreter.playouts import chosen_kernel

    return chosen_kernel(game, kernel)


AnyNode = TypeVar("AnyNode", "Node", "KernelNode", "NativeNode")


class MCTSAgent:
    """Monte Carlo tree search with the UCT rule. Each iteration descends the tree by UCB1
    (`exploration` is its constant), adds one node, finishes the game at random from it and
    credits every node on the path with the score of the seat that moved into it. Nodes whose
    outcome is certain are proven (MCTS-Solver): a sure win is taken, a sure loss avoided, and
    the search stops early once the root is proven. The move played is the root's most
    visited child that is not a proven loss.

    In a kernel the search runs natively (`native`, the default: interpreter/kernel/search.py,
    its tree a NativeTree seen through NativeNode views), or grows a tree of KernelNodes in
    Python over kernel states (native=False: the kernel search before the native one, kept
    to compare with). The native search keeps its tree from one move to the next (`keep`,
    the default): when the position it is asked about lies in the subtree of the move it
    chose last (the opponent's reply, or its own next decision), that subtree — its
    statistics, proofs and untried moves — is where the new search starts (the report's
    `kept`); any other position starts a new tree. The other trees start anew each move."""

    # (A time budget is checked between batches of native iterations, each about this long.)
    BATCH_SECONDS = 0.01

    def __init__(self, iterations: int | None = 1000, seconds: float | None = None,
                 seed: int | None = None, exploration: float = 1.0,
                 kernel: bool | None = None, native: bool = True, keep: bool = True) -> None:
        self.budget = Budget(iterations, seconds)
        self.name = f"mcts:{self.budget.spelling()}"
        self.rng = random.Random(seed)
        self.exploration = exploration
        self.kernel = kernel  # None: search in the game's kernel when it has one (see choose)
        self.native = native
        self.keep = keep
        # The native search's last tree and the node of the move it chose (see _kept).
        self.last: tuple[NativeTree, int] | None = None
        self.report: SearchReport | None = None
        # The last search's tree (its root), to look at (a native tree is renumbered when the
        # next search keeps part of it).
        self.tree: Node | KernelNode | NativeNode | None = None

    def choose(self, state: State) -> Move:
        """The move to play. When the game has a kernel (and no chance or pie swap) the tree
        is grown in it — kernel states, moves as action numbers, random games to the end
        played natively — unless the agent was made with kernel=False."""
        game = state.game
        if state.is_chance:  # chance decides: nothing to think about
            return game.draw(state, self.rng)
        kernel = search_kernel(game, self.kernel)
        if kernel is not None and self.native:  # compiled (or loaded) before the clock starts
            from interpreter.kernel.search import NativeTree

            NativeTree.compile(kernel)
        self.budget.begin()
        moves = legal_moves(state)
        if len(moves) == 1:
            self.report = SearchReport(0, self.budget.elapsed(), 0.5)
            return moves[0]
        if kernel is not None and self.native:
            return self._choose_native(kernel, state)
        if kernel is not None:
            return self._choose_in(kernel, state)
        root = self.tree = Node(state, -1, None, None, self.rng)
        i = 0
        while root.proven is None and not self.budget.spent(i):
            self._iterate(game, root)
            i += 1
        best = self._best(root)
        assert best.move is not None
        self._report(i, best)
        return best.move

    def _report(self, i: int, best: Node | KernelNode | NativeNode, kept: int = 0) -> None:
        expected = best.proven[best.seat] if best.proven else best.reward / best.visits
        self.report = SearchReport(i, self.budget.elapsed(), expected, best.visits,
                                   proven=bool(best.proven), kept=kept)

    def _choose_in(self, kernel: Kernel, state: State) -> Move:
        from interpreter.actions import action_space

        root = self.tree = KernelNode(kernel, kernel.encode(state), -1, -1, None, self.rng)
        i = 0
        while root.proven is None and not self.budget.spent(i):
            self._iterate_in(kernel, root)
            i += 1
        best = self._best(root)
        self._report(i, best)
        return action_space(state.game).decode(state, best.action)

    def _choose_native(self, kernel: Kernel, state: State) -> Move:
        """The search in the kernel's native code, in batches of iterations: one batch for an
        iteration budget alone (the same seed, the same search), batches of about
        BATCH_SECONDS with a time budget, the clock read between them. The search goes on
        in the subtree of the last search's tree that `state` was reached in (`kept`)."""
        from interpreter.actions import action_space
        from interpreter.kernel.search import UNPROVEN, NativeNode, NativeTree

        budget = self.budget
        limit = budget.iterations
        timed = budget.seconds is not None
        st = kernel.encode(state)
        tree = self._kept(kernel, state, st)
        if tree is None:
            nodes = 1 << 14 if timed or limit is None else min(limit + 1, 1 << 20)
            tree = NativeTree(kernel, st, nodes)
        kept = int(tree.visits[0])
        root = self.tree = NativeNode(tree, 0)
        seed = self.rng.getrandbits(32)
        i = 0
        batch = 1  # (then up to 4 times the last, as the rate allows)
        while tree.proven[0] == UNPROVEN and not budget.spent(i):
            n = batch if limit is None else min(batch, limit - i) if timed else limit - i
            i += tree.run(n, seed, self.exploration)
            seed = -1
            if timed:  # the next batch: about BATCH_SECONDS, or what is left if less
                assert budget.seconds is not None
                elapsed = budget.elapsed()
                left = min(self.BATCH_SECONDS, budget.seconds - elapsed)
                batch = max(1, min(4 * batch, int(i / max(elapsed, 1e-6) * left)))
        best = self._best(root)
        self._report(i, best, kept)
        self.last = (tree, best.index) if self.keep else None
        return action_space(state.game).decode(state, best.action)

    def _kept(self, kernel: Kernel, state: State, st: np.ndarray) -> NativeTree | None:
        """The last search's tree with the node of `state` (the move it chose, or a
        position after it) made its root, the rest dropped; None if there is none."""
        if self.last is None:
            return None
        tree, chosen = self.last
        self.last = None
        if tree.kernel is not kernel:
            return None
        node = tree.find(state, chosen)
        if node < 0:
            return None
        tree.keep(node, st)
        return tree

    def _iterate_in(self, kernel: Kernel, root: KernelNode) -> None:
        """An iteration of _iterate in the kernel's tree."""
        node = root
        while node.proven is None and not node.untried:  # selection
            node = self._select(node)
        if node.proven is None:  # expansion (a random untried move), then simulation
            untried = node.untried
            k = self.rng.randrange(len(untried))
            untried[k], untried[-1] = untried[-1], untried[k]
            action = untried.pop()
            st = node.st.copy()
            kernel.apply(st, action)
            child = KernelNode(kernel, st, node.to_move, action, node, self.rng)
            node.children.append(child)
            node = child
        if node.proven is not None:
            result = node.proven
        else:
            result = kernel_scores(kernel.game,
                                   kernel.random_result(node.st, self.rng.getrandbits(32)))
        _back_up(node, result)

    @staticmethod
    def _best(root: AnyNode) -> AnyNode:
        m = root.to_move
        if root.proven is not None:
            return max((c for c in root.children if c.proven is not None),
                       key=lambda c: (c.proven[m], c.visits))  # type: ignore[index]
        live = [c for c in root.children if c.proven is None or c.proven[m] > 0.0]
        return max(live or root.children, key=lambda c: (c.visits, c.reward))

    def _iterate(self, game: Game, root: Node) -> None:
        node = root
        expanded = False
        while node.proven is None and not node.untried:  # selection
            if node.chance:  # an outcome drawn by its probability
                node, expanded = self._draw(game, node)
                if expanded:
                    break
            else:
                node = self._select(node)
        if node.proven is None and not expanded:  # expansion, then simulation
            move = node.untried.pop()
            child = Node(game.apply(node.state, move), node.to_move, move, node, self.rng)
            node.children.append(child)
            node = child
        if node.proven is not None:
            result = node.proven
        else:
            final, _ = game.playout(self.rng, state=node.state)
            result = scores(final)
        _back_up(node, result)

    def _draw(self, game: Game, node: Node) -> tuple[Node, bool]:
        """A chance node's child for an outcome drawn by its probability, and whether it was
        made just now (no seat moved into it: its visits credit nobody)."""
        move = game.draw(node.state, self.rng)
        key = str(move)
        child = node.outcomes.get(key)
        if child is not None:
            return child, False
        child = node.outcomes[key] = Node(game.apply(node.state, move), -1, move, node,
                                          self.rng)
        node.children.append(child)
        return child, True

    def _select(self, node: AnyNode) -> AnyNode:
        log_n = math.log(node.visits)
        c = self.exploration
        m = node.to_move
        best = node.children[0]
        best_value = -math.inf
        for child in node.children:
            if child.proven is not None:
                value = child.proven[m] if child.proven[m] > 0.0 else -math.inf
            else:
                value = child.reward / child.visits + c * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best


def _back_up(node: Node | KernelNode, result: list[float]) -> None:
    """Credit every node on the path to `node` with the score of the seat that moved into it;
    a proof may settle the nodes above."""
    walk: Node | KernelNode | None = node
    while walk is not None:  # backpropagation
        walk.visits += 1
        if walk.seat >= 0:
            walk.reward += result[walk.seat]
        walk = walk.parent
    if node.proven is not None:
        up = node.parent
        while up is not None and up.settle():
            up = up.parent


AGENTS = {"random": "uniformly random moves",
          "flat": "flat Monte Carlo, flat:K (K random games, default 500)",
          "mcts": "Monte Carlo tree search (UCT), mcts:K (K iterations, default 1000)"}


def parse_budget(text: str, default: int) -> tuple[int | None, float | None]:
    """`2000` → 2000 iterations; `2s` or `2.5s` → seconds; `2000:2s` → both; `` → default."""
    if not text:
        return default, None
    iterations: int | None = None
    seconds: float | None = None
    for part in text.split(":"):
        part = part.strip().lower()
        try:
            if part.endswith("s"):
                if seconds is not None:
                    raise ValueError
                seconds = float(part[:-1])
            else:
                if iterations is not None:
                    raise ValueError
                iterations = int(part)
        except ValueError:
            raise ValueError(f"bad budget {text!r}: write K (iterations), Ns (seconds) or "
                             "K:Ns, e.g. 2000, 5s, 2000:5s") from None
    return iterations, seconds


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """An agent from its command-line spelling: `random`, `flat:500`, `mcts:2000`, `mcts:5s`,
    `mcts:2000:5s`."""
    name, _, arg = spec.partition(":")
    name = name.strip().lower()
    if name == "random":
        if arg:
            raise ValueError(f"{spec!r}: random takes no budget")
        return RandomAgent(seed)
    if name not in SEARCHERS:
        raise ValueError(f"unknown agent {spec!r} (agents: {', '.join(AGENTS)})")
    cls, default = SEARCHERS[name]
    try:
        iterations, seconds = parse_budget(arg, default)
        return cls(iterations, seconds, seed)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None


SEARCHERS: dict[str, tuple[type[FlatMonteCarloAgent] | type[MCTSAgent], int]] = {
    "flat": (FlatMonteCarloAgent, 500), "mcts": (MCTSAgent, 1000)}
