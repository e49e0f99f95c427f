"""Monte Carlo tree search in a game's kernel: the whole UCT loop in native code.

`SEARCH_DRIVER` is the source of the search's functions; the builder appends it to every
kernel module, where it calls the driver's `perft_moves` (the legal actions, each once),
`apply`, `draw` and `copy_into`. `NativeTree` holds a search's tree in preallocated arrays
and runs it in batches of iterations (the caller looks at the clock between them:
interpreter.agents.MCTSAgent).

The tree keeps no state per node (a state may be several KB with the position's history):
each iteration copies the root's state and replays the path's actions on it. Per node it
keeps the action that led to it and its tag (the generator that listed it), its parent and
children, the role that moved into it (several decisions a turn and moving again are
credited to whoever made each), the role to move there, visits, the summed scores of the
role that moved into it, and whether it is proven (MCTS-Solver). A node's legal actions are
listed into a shared pool the first time the search expands it, each action once with its
tag, and expanded in a random order. The search is used without chance and pie swaps (a
seat is then a role: interpreter.agents.search_kernel).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

import numpy as np

from interpreter.kernel.layout import PLAYING

if TYPE_CHECKING:
    from interpreter.game import State

UNPROVEN = -3  # a node's proven result while it has none (else PLAYING, DRAW or a role)

# Why a batch stopped (meta[STOPPED]).
DONE, ROOT_PROVEN, NODES_FULL, POOL_FULL = 0, 1, 2, 3
NODES, POOL, STOPPED = 0, 1, 2  # meta's entries

SEARCH_DRIVER = '''@njit(cache=True)
def search_score(result, role):
    """The score of `role` for a result (a winner's role, DRAW, or PLAYING: no end)."""
    if result == role:
        return 1.0
    if result >= 0:
        return 0.0
    return 0.5


@njit(cache=True)
def search_reset(work, root):
    """work takes root's state: all up to the history, and the history so far."""
    copy_into(work, root, HISTORY if KEEPS_HISTORY else root.shape[0])
    if KEEPS_HISTORY:
        count = root[H_HISTORY]
        copy_into(work[HISTORY:], root[HISTORY:], count)
        if KEEPS_SITUATIONS:
            copy_into(work[SITUATIONS:], root[SITUATIONS:], count)


@njit(cache=True)
def search_select(node, c, first, sibling, mover, visits, value, proven):
    """The child of a fully expanded node that UCB1 picks for the role to move there: a
    proven child at its exact score (never a proven loss), the first best on ties."""
    log_n = np.log(visits[node])
    m = mover[node]
    best = first[node]
    best_value = -np.inf
    child = first[node]
    while child >= 0:
        if proven[child] != -3:
            v = search_score(proven[child], m)
            if v <= 0.0:
                v = -np.inf
        else:
            v = value[child] / visits[child] + c * np.sqrt(log_n / visits[child])
        if v > best_value:
            best = child
            best_value = v
        child = sibling[child]
    return best


@njit(cache=True)
def search_settle(node, first, sibling, mover, proven, pool_at, pool_left):
    """Prove a node from its children if they allow it: the role to move has a proven win,
    or every move is expanded and proven lost (draws are proven only where the game ends).
    True if this call proved it."""
    if proven[node] != -3:
        return False
    m = mover[node]
    best = -3
    best_score = -1.0
    settled = 0
    children = 0
    child = first[node]
    while child >= 0:
        children += 1
        if proven[child] != -3:
            settled += 1
            s = search_score(proven[child], m)
            if s > best_score:
                best_score = s
                best = proven[child]
        child = sibling[child]
    if settled == 0:
        return False
    if best_score >= 1.0 or (best_score <= 0.0 and pool_at[node] >= 0
                             and pool_left[node] == 0 and settled == children):
        proven[node] = best
        return True
    return False


@njit(cache=True)
def search(T, root, seed, rng, iterations, c, bound, meta, parent, action, tag, seat, mover,
           visits, value, proven, first, last, sibling, pool_at, pool_left, pool_act,
           pool_tag):
    """Up to `iterations` UCT iterations on the tree in the arrays (node 0: the root, whose
    state is root); returns how many ran. Each descends by UCB1 replaying the path's actions
    on a copy of the root, expands a random untried action, plays a random game on (at most
    `bound` decisions, by `draw`), and credits every node on the path with the score of the
    role that moved into it; a proven leaf may prove the nodes above. meta holds the nodes
    and pool entries used and why the batch stopped: its iterations done, the root proven,
    or no room for a node or a listing (the caller grows the arrays and goes on). A seed
    >= 0 starts the random generator rng (rng_seed) from it first."""
    if seed >= 0:
        rng_seed(rng, seed)
    work = np.empty_like(root)
    acts = np.empty(MAX_MOVES, np.int32)
    tags = np.empty(MAX_MOVES, np.int32)
    meta[2] = 0
    for it in range(iterations):
        if proven[0] != -3:
            meta[2] = 1
            return it
        if meta[0] >= parent.shape[0]:
            meta[2] = 2
            return it
        search_reset(work, root)
        node = 0
        while proven[node] == -3 and pool_at[node] >= 0 and pool_left[node] == 0:
            node = search_select(node, c, first, sibling, mover, visits, value, proven)
            apply(work, T, action[node], tag[node])
        if proven[node] == -3 and pool_at[node] < 0:  # its moves, listed the first time
            m = perft_moves(work, T, acts, tags)
            if m == 0:  # nobody can move: no end (as the kernel's random games)
                proven[node] = work[H_RESULT]
            elif meta[1] + m > pool_act.shape[0]:
                meta[2] = 3
                return it
            else:
                at = meta[1]
                for k in range(m):
                    pool_act[at + k] = acts[k]
                    pool_tag[at + k] = tags[k]
                pool_at[node] = at
                pool_left[node] = m
                meta[1] = at + m
        if proven[node] == -3:  # expansion: a random untried action
            at = pool_at[node]
            left = pool_left[node]
            k = at + rng_below(rng, left)
            j = at + left - 1
            a = pool_act[k]
            t = pool_tag[k]
            pool_act[k] = pool_act[j]
            pool_tag[k] = pool_tag[j]
            pool_act[j] = a
            pool_tag[j] = t
            pool_left[node] = left - 1
            child = meta[0]
            meta[0] = child + 1
            parent[child] = node
            action[child] = a
            tag[child] = t
            seat[child] = mover[node]
            visits[child] = 0
            value[child] = 0.0
            first[child] = -1
            last[child] = -1
            sibling[child] = -1
            pool_at[child] = -1
            pool_left[child] = 0
            if last[node] < 0:
                first[node] = child
            else:
                sibling[last[node]] = child
            last[node] = child
            apply(work, T, a, t)
            mover[child] = work[H_TO_MOVE]
            proven[child] = -3 if work[H_RESULT] == PLAYING else work[H_RESULT]
            node = child
        if proven[node] != -3:
            result = proven[node]
        else:  # simulation
            plies = 0
            while work[H_RESULT] == PLAYING and plies < bound:
                i = draw(work, T, acts, tags, rng)
                if i < 0:
                    if plies == 0:  # the new node: nobody can move there (proven, no end)
                        proven[node] = PLAYING
                    break
                apply(work, T, acts[i], tags[i])
                plies += 1
            result = work[H_RESULT]
        walk = node  # backpropagation
        while walk >= 0:
            visits[walk] += 1
            if seat[walk] >= 0:
                value[walk] += search_score(result, seat[walk])
            walk = parent[walk]
        if proven[node] != -3:
            up = parent[node]
            while up >= 0 and search_settle(up, first, sibling, mover, proven, pool_at,
                                            pool_left):
                up = parent[up]
    if proven[0] != -3:
        meta[2] = 1
    return iterations'''

_INT_ARRAYS = ("parent", "action", "tag", "seat", "mover", "proven", "first", "last",
               "sibling", "pool_at", "pool_left")


class NativeTree:
    """A search tree grown by the kernel's `search`, kept in arrays between batches (grown
    when full). Node 0 is the root; `children(i)` lists a node's children in the order they
    were expanded."""

    def __init__(self, kernel: Any, st: np.ndarray, nodes: int = 1 << 14,
                 pool: int = 1 << 16) -> None:
        self.kernel = kernel
        self.root = st.copy()
        self.meta = np.zeros(3, np.int64)
        self.rng = np.zeros(1, np.uint64)  # the search's random generator (rng_seed)
        size = max(2, nodes)
        self.parent, self.action, self.tag, self.seat, self.mover, self.proven, self.first, \
            self.last, self.sibling, self.pool_at, self.pool_left = \
            (np.full(size, -1, np.int32) for _ in _INT_ARRAYS)
        self.visits = np.zeros(size, np.int64)
        self.value = np.zeros(size, np.float64)
        self.pool_act = np.zeros(max(pool, kernel.built.max_moves), np.int32)
        self.pool_tag = np.zeros(self.pool_act.shape[0], np.int32)
        self.seat[0] = -1
        self.pool_left[0] = 0
        self.mover[0] = kernel.to_move(st)
        r = int(st[kernel.sites + _header("H_RESULT")])
        self.proven[0] = -3 if r == PLAYING else r
        self.meta[NODES] = 1
        self.bound = kernel._bound(None)  # a random game's decisions at most, as playouts

    @staticmethod
    def compile(kernel: Any) -> None:
        """Compile the kernel's search (or load it from numba's cache), once per kernel: a
        search of no iteration."""
        if not kernel.__dict__.get("_search_compiled"):
            NativeTree(kernel, kernel.start, 2, 1).run(0, 0, 1.0)
            kernel.__dict__["_search_compiled"] = True

    # Running ------------------------------------------------------------------------------
    def run(self, iterations: int, seed: int, exploration: float) -> int:
        """Up to `iterations` more iterations (fewer once the root is proven); how many ran.
        A seed >= 0 starts the tree's random generator from it first (a search seeds it
        once, so its batches continue one stream whatever their sizes)."""
        done = 0
        while True:
            ran = int(self.kernel.module.search(
                self.kernel.tables, self.root, seed, self.rng, iterations - done,
                float(exploration), self.bound, self.meta, self.parent, self.action, self.tag,
                self.seat, self.mover,
                self.visits, self.value, self.proven, self.first, self.last, self.sibling,
                self.pool_at, self.pool_left, self.pool_act, self.pool_tag))
            seed = -1
            done += ran
            stopped = int(self.meta[STOPPED])
            if stopped == NODES_FULL:
                self._grow_nodes()
            elif stopped == POOL_FULL:
                self.pool_act = _doubled(self.pool_act, 0)
                self.pool_tag = _doubled(self.pool_tag, 0)
            if stopped in (DONE, ROOT_PROVEN) or done >= iterations:
                return done

    def _grow_nodes(self) -> None:
        for name in _INT_ARRAYS:
            setattr(self, name, _doubled(getattr(self, name), -1))
        self.visits = _doubled(self.visits, 0)
        self.value = _doubled(self.value, 0)

    # Reading ------------------------------------------------------------------------------
    @property
    def nodes(self) -> int:
        return int(self.meta[NODES])

    def children(self, node: int) -> list[int]:
        out = []
        child = int(self.first[node])
        while child >= 0:
            out.append(child)
            child = int(self.sibling[child])
        return out

    def proof(self, node: int) -> list[float] | None:
        """The node's proven score per role, or None."""
        r = int(self.proven[node])
        if r == UNPROVEN:
            return None
        roles = self.kernel.game.roles
        if r < 0:  # a draw, or nobody could move
            return [0.5] * roles
        return [1.0 if i == r else 0.0 for i in range(roles)]

    def untried(self, node: int) -> int:
        """How many of the node's moves are not expanded yet (-1: not listed yet)."""
        return int(self.pool_left[node]) if self.pool_at[node] >= 0 else -1

    def state(self, node: int) -> np.ndarray:
        """The node's state, replayed from the root."""
        path = []
        while node > 0:
            path.append(node)
            node = int(self.parent[node])
        st = self.root.copy()
        for n in reversed(path):
            self.kernel.module.apply(st, self.kernel.tables, int(self.action[n]),
                                     int(self.tag[n]))
        return st


    # Keeping a subtree for the next search -----------------------------------------------
    def find(self, state: State, start: int, most: int = 256) -> int:
        """The node at or below `start` (breadth first, among at most `most` nodes, down to
        the state's turn) whose position is the interpreter's `state` — the two agree on
        all the differential test compares (interpreter.kernel.differential.difference) —
        or -1."""
        from interpreter.kernel.differential import difference

        kernel = self.kernel
        sites = kernel.sites
        turn_at = sites + _header("H_TURN")
        board = np.asarray(state.board, np.int64)
        queue = deque([(start, self.state(start))])
        looked = 0
        while queue and looked < most:
            node, st = queue.popleft()
            looked += 1
            turn = int(st[turn_at])
            if turn == state.turn and np.array_equal(st[:sites], board) \
                    and difference(kernel.game, kernel, state, st) is None:
                return node
            if turn > state.turn:
                continue
            for child in self.children(node):
                after = st.copy()
                kernel.module.apply(after, kernel.tables, int(self.action[child]),
                                    int(self.tag[child]))
                queue.append((child, after))
        return -1

    def keep(self, node: int, st: np.ndarray) -> None:
        """Make `node`, whose state is `st`, the root: the subtree below it is kept (its
        nodes' statistics, proofs and untried moves, renumbered from 0 in their order), the
        rest of the tree dropped."""
        n = self.nodes
        # Every node's pointer jumps up the tree, doubling its stride each time round, until
        # it rests on `node` (made to point at itself: the node and those below it) or on n
        # (past the root: the rest).
        up = np.append(self.parent[:n], n).astype(np.int64)
        up[0] = up[n] = n
        up[node] = node
        while True:
            jumped = up[up]
            if np.array_equal(jumped, up):
                break
            up = jumped
        kept = np.flatnonzero(up[:n] == node)  # (node first: parents before their children)
        number = np.full(n + 1, -1, np.int32)
        number[kept] = np.arange(kept.size, dtype=np.int32)
        links = ("parent", "first", "last", "sibling")
        for name in _INT_ARRAYS:
            old = getattr(self, name)
            new = np.full(old.shape[0], -1, np.int32)
            values = old[kept]
            new[:kept.size] = number[np.where(values >= 0, values, n)] if name in links \
                else values
            setattr(self, name, new)
        for name in ("visits", "value"):
            old = getattr(self, name)
            new = np.zeros_like(old)
            new[:kept.size] = old[kept]
            setattr(self, name, new)
        self.parent[0] = self.sibling[0] = self.seat[0] = -1
        # Each listed node's untried moves, in their order, one after another in the pool.
        listed = self.pool_at[:kept.size] >= 0
        left = np.where(listed, self.pool_left[:kept.size], 0)
        starts = np.cumsum(left) - left
        source = np.repeat(self.pool_at[:kept.size] - starts, left) + np.arange(left.sum())
        for name in ("pool_act", "pool_tag"):
            old = getattr(self, name)
            new = np.zeros_like(old)
            new[:source.size] = old[source]
            setattr(self, name, new)
        self.pool_at[:kept.size] = np.where(listed, starts, -1)
        self.root = st.copy()
        self.meta[:] = (kept.size, source.size, DONE)


def _doubled(a: np.ndarray, fill: int) -> np.ndarray:
    out = np.full(2 * a.shape[0], fill, a.dtype)
    out[:a.shape[0]] = a
    return out


def _header(name: str) -> int:
    from interpreter.kernel.layout import HEADER

    return HEADER.index(name)



class NativeNode:
    """A view of one node of a NativeTree with the attributes of the search's other trees
    (interpreter.agents.Node, KernelNode): what MCTSAgent reads to choose and report, and
    what a reader of `MCTSAgent.tree` looks at. `st` is replayed from the root."""

    __slots__ = ("tree", "index")

    def __init__(self, tree: NativeTree, index: int) -> None:
        self.tree = tree
        self.index = index

    @property
    def seat(self) -> int:
        """The role that moved into this node (-1 at the root)."""
        return int(self.tree.seat[self.index])

    @property
    def to_move(self) -> int:
        return int(self.tree.mover[self.index])

    @property
    def action(self) -> int:
        return int(self.tree.action[self.index])

    @property
    def visits(self) -> int:
        return int(self.tree.visits[self.index])

    @property
    def reward(self) -> float:
        return float(self.tree.value[self.index])

    @property
    def proven(self) -> list[float] | None:
        return self.tree.proof(self.index)

    @property
    def parent(self) -> NativeNode | None:
        p = int(self.tree.parent[self.index])
        return NativeNode(self.tree, p) if self.index > 0 else None

    @property
    def children(self) -> list[NativeNode]:
        return [NativeNode(self.tree, c) for c in self.tree.children(self.index)]

    @property
    def st(self) -> np.ndarray:
        return self.tree.state(self.index)
