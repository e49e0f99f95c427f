"""The language's types: what each ludeme parameter accepts and what each ludeme yields.

The registry reads these off the ludemes' annotations, the checker compares them, and
`ludeme grammar` prints their names. A type may accept literals (an `int` where an `Int`
expression is wanted), named constants (`N` for a `Direction`) and the results of ludemes whose
type is one of its subtypes.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class DslType:
    """A named type of the language, with the types it also accepts and its constant names."""

    name: str
    accepts_types: tuple[str, ...] = ()
    literals: tuple[type, ...] = ()  # Python literal types accepted (after option substitution)
    constants: frozenset[str] = field(default_factory=frozenset)
    # A type that is a list of another may also be written as `{ item ... }`.
    list_of: DslType | None = None

    def accepts(self, other: DslType) -> bool:
        return other.name == self.name or other.name in self.accepts_types

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class ListOf:
    """`{ item ... }` of one element type."""

    item: DslType

    @property
    def name(self) -> str:
        return "{" + self.item.name + "}"

    def __str__(self) -> str:
        return self.name


DIRECTION_NAMES = frozenset(
    {"N", "S", "E", "W", "NE", "NW", "SE", "SW",
     "Orthogonal", "Diagonal", "Adjacent", "All",
     "Forward", "Backward", "ForwardDiagonal", "Forwards", "Sideways"}
)
COMPASS_NAMES = frozenset({"N", "S", "E", "W", "NE", "NW", "SE", "SW"})
SIDE_NAMES = COMPASS_NAMES | {"Forward", "Backward"}
ROLE_NAMES = frozenset({"Mover", "Next", "Prev", "Neutral"})
ROLES_NAMES = frozenset({"Mover", "Next", "Prev", "All", "Neutral"})
SITE_NAMES = frozenset({"To", "From", "Site", "LastTo", "LastFrom"})
CELL_NAMES = frozenset({"Empty", "Friend", "Enemy", "Occupied", "Any", "EmptyOrEnemy", "Own"})

# Literal types.
INT = DslType("int", literals=(int,))
FLOAT = DslType("float", accepts_types=("int",), literals=(float, int))
BOOL = DslType("bool", literals=(bool,))
STR = DslType("str", literals=(str,))

# Expressions evaluated as the game is played.
INT_EXPR = DslType("Int", accepts_types=("int",), literals=(int,))
COND = DslType("Boolean", accepts_types=("bool",), literals=(bool,))
SITE = DslType("Site", literals=(str,), constants=SITE_NAMES)
REGION = DslType("Region", accepts_types=("Site",), literals=(str,), constants=SITE_NAMES)
DIRECTION = DslType("Direction", constants=DIRECTION_NAMES)
SIDE = DslType("Side", constants=SIDE_NAMES)  # a side of the board, by the compass point it faces
CORNER = DslType("Corner", constants=COMPASS_NAMES)  # a corner, likewise
ROLE = DslType("Role", literals=(str,), constants=ROLE_NAMES)
ROLES = DslType("Roles", accepts_types=("Role",), literals=(str,), constants=ROLES_NAMES)
CELL = DslType("Cell", constants=CELL_NAMES)  # what a site holds, relative to the mover
MOVES = DslType("Moves")
EFFECT = DslType("Effect")
CAPTURE = DslType("Capture")
PATTERN = DslType("Pattern")
RELATION = DslType("Relation")
# Several regions, each on its own: `{(sites Side N) (sites Side S)}` or (regions Corners).
REGIONS = DslType("Regions", list_of=REGION)
LINK = DslType("Link")
RESULT = DslType("Result")
END_RULE = DslType("EndRule")
BOARD = DslType("Board")
PLAYER = DslType("Player")
PIECE = DslType("Piece")
SETUP = DslType("Setup")
TURN_STEP = DslType("TurnStep", accepts_types=("Moves", "Effect"))
SECTION = DslType("Section")
PHASE = DslType("Phase")
GAME = DslType("Game")
