"""Budgets for the work a game does when it compiles.

Ludemes precompute tables when a game is compiled (every connected group of sites for
place-group, every placement of a pattern, rays along every line of the board), so that playing
is fast. What they precompute grows with the board and with numbers written in the game file;
without a limit, a typing slip such as `(place-group 12)` or `(square 100000)` would make loading
the game run for hours and exhaust memory. Each such precomputation spends from a `Budget` and,
once over it, raises `BudgetExceeded` — a `ValueError`, which the compiler reports at the ludeme's
place in the game file, naming the precomputation and the limit:

    x.game:7:5: (place-group 9 ...) would enumerate more than 200000 groups at compile time;
    use a smaller group size or board

The limits are far above what the shipped games need (the largest computes a few thousand
entries of any one table), and low enough that reaching one takes a second or two, not minutes.
"""

from __future__ import annotations

# The largest board: sites in all, and sites along one row, column or line of the board (rays
# along the lines, and lines of sight, are precomputed for every site, so their total grows
# with both). A 64 x 64 square board is the largest square board; hexhex 32 the largest hexhex.
MAX_SITES = 4096
MAX_LINE = 64
# place-group: connected groups of sites, enumerated when the game compiles.
MAX_GROUPS = 200_000
# Patterns: cells looked up while placing every orientation of a pattern at every site.
MAX_PATTERN_CELLS = 1_000_000
# forms: each placement indexed by each of its sites (n * n for a placement of n cells).
MAX_PATTERN_INDEX = 20_000_000


class BudgetExceeded(ValueError):
    """A compile-time precomputation would exceed its budget (a ValueError, so that the compiler
    reports it where the ludeme is written)."""


class Budget:
    """A count of work units spent on one precomputation, with its limit.

    `what` names the precomputation as the message starts it (e.g. "(place-group 9 ...)"),
    `verb` and `unit` say what is counted ("enumerate", "groups") and `advice` what to change."""

    def __init__(self, limit: int, what: str, verb: str, unit: str, advice: str) -> None:
        self.limit = limit
        self.used = 0
        self.what = what
        self.verb = verb
        self.unit = unit
        self.advice = advice

    def message(self) -> str:
        return (f"{self.what} would {self.verb} more than {self.limit} {self.unit} at compile "
                f"time; {self.advice}")

    def spend(self, amount: int = 1) -> None:
        """Count `amount` more units; raise `BudgetExceeded` once the total is over the limit."""
        self.used += amount
        if self.used > self.limit:
            raise BudgetExceeded(self.message())

    def check(self, total: int) -> None:
        """Raise `BudgetExceeded` if `total` units (counted by the caller) are over the limit."""
        if total > self.limit:
            raise BudgetExceeded(self.message())


def check_board(what: str, sites: int, longest_line: int) -> None:
    """Refuse a board before it is built when it has more than MAX_SITES sites or more than
    MAX_LINE sites along one line (row, column or diagonal). `what` names the board as written,
    e.g. "(square 100000)"."""
    if sites > MAX_SITES:
        raise BudgetExceeded(f"{what} would have {sites} sites; a board may have at most "
                             f"{MAX_SITES} sites, and at most {MAX_LINE} along a line")
    if longest_line > MAX_LINE:
        raise BudgetExceeded(f"{what} would have {longest_line} sites along a line; a board "
                             f"may have at most {MAX_LINE} sites along a line, and at most "
                             f"{MAX_SITES} in all")
