"""Checked AST → `Game`: every form is resolved once to its ludeme and called with its compiled
arguments, so playing a game only calls the closures built here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from dsl.ast import Bool, Const, Float, Form, Int, ListNode, Node, Span, Str, show
from dsl.check import resolve
from dsl.errors import Diagnostic, RuleError
from dsl.expand import Expansion
from dsl.types import ROLE, SECTION, SITE, DslType, ListOf
from stdlib.boards import Topology
from stdlib.counts import add_counts, symbol_clash, use_counts, write_counts
from stdlib.hands import declare_hands
from stdlib.parts import mark, parts_of
from stdlib.regions import static
from stdlib.registry import LudemeSpec
from stdlib.runtime import NEUTRAL, Ctx, Env, PieceType, literal
from stdlib.statefields import LastSites, declare
from stdlib.structure import (
    BoardSection,
    EndSection,
    PieceDecl,
    PiecesSection,
    PlayersSection,
    PlaySection,
    RegionSection,
    SpecialSection,
    StartSection,
    TrackSection,
)


class Compiler:
    """Compiles nodes against a registry; ludemes that need the board get `env`."""

    def __init__(self, registry: Mapping[str, LudemeSpec], env: Env | None,
                 diagnostics: list[Diagnostic]) -> None:
        self.registry = registry
        self.env = env
        self.diagnostics = diagnostics

    def error(self, where: Node | Span, message: str) -> None:
        span = where if isinstance(where, Span) else where.span
        self.diagnostics.append(Diagnostic(span, message))

    def compile(self, node: Node, expected: DslType | ListOf) -> Any:
        if isinstance(node, ListNode):
            item = expected.item if isinstance(expected, ListOf) else expected.list_of
            assert item is not None
            return [self.compile(x, item) for x in node.items]
        assert isinstance(expected, DslType)
        if isinstance(node, Form):
            return self.form(node, expected)
        if isinstance(node, Const):
            return self.constant(node, expected)
        if isinstance(node, Str | Int | Float | Bool):
            return self.literal(node, expected)
        raise AssertionError(f"unexpected node {node!r}")

    def form(self, node: Form, expected: DslType) -> Any:
        spec, args = resolve(node, self.registry)
        assert isinstance(spec, LudemeSpec)
        errors_before = len(self.diagnostics)
        positional = [p for p in spec.params if not p.keyword]
        call_args: list[Any] = []
        i = 0
        for arg in args:
            p = positional[i]
            call_args.append(self.compile(arg, p.type))
            if not p.variadic:
                i += 1
        kwargs = {}
        for kw in node.kwargs:
            p = spec.keywords[kw.name]
            kwargs[p.py_name] = self.compile(kw.value, p.type)
        if len(self.diagnostics) > errors_before:
            return None  # an argument is wrong and already reported
        if spec.needs_env:
            if self.env is None:
                self.error(node.head_span, f"({spec.name} ...) cannot be used here")
                return None
            call_args.insert(0, self.env)
        saved = self.env.span if self.env is not None else None
        if self.env is not None:
            self.env.span = node.span
        try:
            value = spec.fn(*call_args, **kwargs)
        except ValueError as exc:
            self.error(node, str(exc))
            return None
        except Exception as exc:  # a ludeme's own failure: say where, never a traceback
            self.error(node, f"({spec.name} ...) cannot be built here: "
                       f"{type(exc).__name__}: {exc}")
            return None
        finally:
            if self.env is not None:
                self.env.span = saved
        if self.env is not None:  # what each form became, for the kernel builder
            self.env.shared.setdefault("compiled nodes", {})[id(node)] = value
        if callable(value) and not isinstance(value, type):
            try:
                given = mark(value)
                given.source = show(node)
                if node.define:  # the whole body of a define: name it by the define
                    given.description = f'"{node.define}"'
            except AttributeError:
                pass
        return _coerce(value, spec.returns, expected)

    def constant(self, node: Const, expected: DslType) -> Any:
        name = node.name
        env = self.env
        if expected.name == "Direction" and env is not None:
            if name not in env.topology.directions and name not in _DIRECTION_GROUPS:
                self.error(node, f"direction {name} does not exist on this "
                           f"{env.topology.shape} board (it has "
                           f"{', '.join(env.topology.directions)})")
                return ""  # reported; the ludeme sees no direction
            if name == "Diagonal" and not env.topology.diagonal_dirs():
                self.error(node, f"this {env.topology.shape} board has no diagonal directions")
                return ""
            return name
        if expected.name in ("Direction", "Cell", "Side", "Corner"):
            return name
        if expected.name in ("Role", "Roles"):
            assert env is not None
            n = len(env.roles)
            if name == "Mover":
                fn = _mover
            elif name == "Next":
                def fn(ctx: Ctx) -> int:
                    return (ctx.mover + 1) % n
            elif name == "Prev":
                def fn(ctx: Ctx) -> int:
                    return (ctx.mover - 1) % n
            elif name == "All":
                everyone = tuple(range(n))
                return lambda ctx: everyone
            else:  # Neutral
                return lambda ctx: NEUTRAL
            return _coerce(fn, ROLE, expected)
        if expected.name in ("Site", "Region"):
            if name in ("LastTo", "LastFrom") and env is not None:
                env.uses_last = True
                declare(env, LastSites(env.names, env.topology.index))
            fn = {"To": _to, "From": _from, "Site": _site, "LastTo": _last_to,
                  "LastFrom": _last_from}[name]
            return _coerce(fn, SITE, expected)
        raise AssertionError(f"constant {name} for {expected}")

    def literal(self, node: Str | Int | Float | Bool, expected: DslType) -> Any:
        value = node.value
        if expected.name in ("int", "float", "bool", "str"):
            return value
        if expected.name in ("Int", "Boolean"):
            return literal(value)
        env = self.env
        assert env is not None and isinstance(value, str)
        if expected.name in ("Site", "Region"):
            site = env.topology.index.get(value)
            if site is None:
                close = [n for n in env.names if n.lower() == value.lower()]
                hint = f' (did you mean "{close[0]}"?)' if close else ""
                self.error(node, f'no site "{value}" on this board{hint}')
                site = 0
            if expected.name == "Region":
                return static((site,))

            def fixed(ctx: Ctx) -> int:
                return site
            mark(fixed).static_site = site
            return fixed
        if expected.name in ("Role", "Roles"):
            if value not in env.roles:
                self.error(node, f'no role "{value}" (roles: {", ".join(env.roles)})')
                return lambda ctx: 0
            r = env.roles.index(value)
            if expected.name == "Roles":
                return lambda ctx: (r,)
            return lambda ctx: r
        raise AssertionError(f"literal for {expected}")


_DIRECTION_GROUPS = frozenset({"Orthogonal", "Diagonal", "Adjacent", "All", "Forward",
                               "Backward", "ForwardDiagonal", "Forwards", "Sideways"})


def _mover(ctx: Ctx) -> int:
    return ctx.mover


def _to(ctx: Ctx) -> int:
    return ctx.to


def _from(ctx: Ctx) -> int:
    return ctx.frm


def _site(ctx: Ctx) -> int:
    return ctx.site


def _last_to(ctx: Ctx) -> int:
    """Where the last decision (of this turn, or the previous player's) put or moved a piece;
    -1 before any."""
    return ctx.state.last_to if ctx.state is not None else -1


def _last_from(ctx: Ctx) -> int:
    """Where the last decision moved a piece from; -1 if it moved none."""
    return ctx.state.last_from if ctx.state is not None else -1


# Ludemes may read these parts to read the context's site directly (a speed-up only).
mark(_to).site_var = "to"
mark(_from).site_var = "frm"
mark(_site).site_var = "site"
mark(_mover).is_mover = True


def _coerce(value: Any, have: DslType, want: DslType) -> Any:
    """Adapt a value of type `have` to the accepting type `want` (a Site where a Region is
    wanted, a Role where Roles are)."""
    if have.name == want.name or value is None:
        return value
    if have.name == "Site" and want.name == "Region":
        site = parts_of(value).static_site
        if site is not None:
            return static((site,))

        def region(ctx: Ctx) -> tuple[int, ...]:
            site = value(ctx)
            return (site,) if site >= 0 else ()  # no site (-1: off the board): an empty region
        mark(region).single_site = value
        return region
    if have.name == "Role" and want.name == "Roles":
        return lambda ctx: (value(ctx),)
    return value


def compile_game(expansion: Expansion, registry: Mapping[str, LudemeSpec],
                 text: str | None) -> Any:
    """Build the `Game` of an expanded, checked game form; raise RuleError on any problem."""
    from interpreter.game import Game

    form = expansion.game
    diagnostics: list[Diagnostic] = []
    name_node = form.args[0] if form.args else None
    if not isinstance(name_node, Str):
        msg = 'a game starts with its name: (game "Name" ...)'
        raise RuleError([Diagnostic(form.head_span, msg)], text)
    sections: dict[str, list[Form]] = {}
    for arg in form.args[1:]:
        assert isinstance(arg, Form)
        sections.setdefault(arg.head, []).append(arg)
    for head, forms in sections.items():
        if head in ("special", "region", "track", "circuit"):  # several of each
            continue
        for extra in forms[1:]:
            diagnostics.append(Diagnostic(extra.head_span, f"({head} ...) is given twice"))
    for head in ("players", "board", "end"):
        if head not in sections:
            diagnostics.append(Diagnostic(form.head_span, f"the game has no ({head} ...) section"))
    if ("play" in sections) == ("phases" in sections):
        diagnostics.append(Diagnostic(form.head_span, "the game needs one (play ...) section, or "
                                      "(phases ...) instead"))
    if diagnostics:
        raise RuleError(diagnostics, text)

    bare = Compiler(registry, None, diagnostics)
    players = bare.compile(sections["players"][0], SECTION)
    board = bare.compile(sections["board"][0], SECTION)
    if diagnostics:
        raise RuleError(diagnostics, text)
    assert isinstance(players, PlayersSection) and isinstance(board, BoardSection)
    roles = tuple(p.name for p in players.players)
    if len(roles) < 1 or len(set(roles)) != len(roles):
        diagnostics.append(Diagnostic(sections["players"][0].span,
                                      "the players need one or more distinct names"))
    topology = Topology.from_graph(board.graph)
    pieces = [PieceType(p.piece or p.name, p.symbol, r, r + 1)
              for r, p in enumerate(players.players)]
    neutral_decls: tuple[PieceDecl, ...] = ()
    if "pieces" in sections:
        neutral = bare.compile(sections["pieces"][0], SECTION)
        assert isinstance(neutral, PiecesSection)
        neutral_decls = neutral.pieces
    counted: list[int] = []  # kinds a site may hold several of, by their board values
    counted += [r + 1 for r, p in enumerate(players.players) if p.many]  # a role's stacks
    for piece_decl in neutral_decls:
        if piece_decl.many:
            counted.append(len(pieces) + 1)
        pieces.append(PieceType(piece_decl.name, piece_decl.symbol, NEUTRAL, len(pieces) + 1))
    by_name = {p.name: p.value for p in pieces}
    for r, decl in enumerate(players.players):  # the roles' further kinds (a king, ...)
        for kind_decl in decl.kinds:
            if kind_decl.many:
                counted.append(len(pieces) + 1)
            pieces.append(PieceType(kind_decl.name, kind_decl.symbol, r, len(pieces) + 1))
    for r, decl in enumerate(players.players):
        if decl.on:
            terrain = by_name.get(decl.on)
            if terrain is None or pieces[terrain - 1].owner != NEUTRAL:
                diagnostics.append(Diagnostic(sections["players"][0].span,
                                              f'role {decl.name}: on:"{decl.on}" must name a '
                                              "piece declared in (pieces ...)"))
            else:
                pieces[r] = replace(pieces[r], on=terrain)
    tables = add_counts(pieces, counted)  # a board value per count (stdlib/counts.py)
    symbols: dict[str, str] = {}
    for kind in pieces:
        if kind.count > 1:
            continue
        clash = symbol_clash(kind, bool(counted))
        if clash is not None:
            diagnostics.append(Diagnostic(sections["players"][0].span, clash))
        if len(kind.symbol) != 1 or kind.symbol in ". *" or kind.symbol.isspace():
            diagnostics.append(Diagnostic(sections["players"][0].span,
                                          f'piece "{kind.name}" needs a one-character symbol '
                                          f"other than '.', '*' or a space (it has "
                                          f"{kind.symbol!r})"))
        elif kind.symbol in symbols:
            diagnostics.append(Diagnostic(sections["players"][0].span,
                                          f'pieces "{symbols[kind.symbol]}" and "{kind.name}" '
                                          f"share the symbol {kind.symbol!r}"))
        symbols[kind.symbol] = kind.name
    write_counts(pieces, counted)
    env = Env(topology, roles, pieces, tuple(p.forward for p in players.players),
              tuple(p.sides for p in players.players), text, diagnostics,
              supply=tuple(p.supply for p in players.players),
              reuse=tuple(p.reuse for p in players.players))
    use_counts(env, tables)
    env.seal()
    demotes = [(k.name, k.demotes) for p in players.players for k in p.kinds if k.demotes]
    env.span = sections["players"][0].span
    declare_hands(env, players.captures, demotes, players.hand)
    env.span = None
    for r, p in enumerate(players.players):
        for side in p.sides:
            if side not in topology.sides:
                diagnostics.append(Diagnostic(sections["players"][0].span,
                                              f"role {roles[r]}: no side {side} on this board "
                                              f"(sides: {', '.join(topology.sides)})"))
    if players.first and players.first not in roles:
        diagnostics.append(Diagnostic(sections["players"][0].span,
                                      f'first:"{players.first}" is not a role '
                                      f"(roles: {', '.join(roles)})"))
    full = Compiler(registry, env, diagnostics)
    for form_ in sections.get("special", []):
        special = full.compile(form_, SECTION)
        if not isinstance(special, SpecialSection):
            continue
        sites = _static_sites(special, form_, "special sites", diagnostics)
        if sites is None:
            continue
        if len(special.symbol) != 1 or special.symbol in symbols or special.symbol in ". ":
            diagnostics.append(Diagnostic(form_.span, f"special sites need a one-character "
                                          f"symbol of their own, not {special.symbol!r}"))
        env.specials[special.name] = frozenset(sites)
        for site in sites:
            env.special_symbol[site] = special.symbol
    _named_regions(full, env, sections.get("region", []), diagnostics)
    _named_tracks(full, env, sections.get("track", []) + sections.get("circuit", []),
                  diagnostics)
    start = full.compile(sections["start"][0], SECTION) if "start" in sections else None
    play_form = (sections.get("play") or sections["phases"])[0]
    play = full.compile(play_form, SECTION)
    end = full.compile(sections["end"][0], SECTION)
    if diagnostics:
        raise RuleError(diagnostics, text)
    assert isinstance(play, PlaySection) and isinstance(end, EndSection)
    assert start is None or isinstance(start, StartSection)
    decisions = _decision_steps(play_form, registry)
    for kinds in decisions:
        if not any(kinds):
            diagnostics.append(Diagnostic(play_form.span, "a turn needs at least one decision "
                                          "(moves), not only automatic effects"))
        elif not kinds[0]:
            diagnostics.append(Diagnostic(play_form.span, "a turn must start with a decision "
                                          "(moves); automatic effects follow decisions"))
    if diagnostics:
        raise RuleError(diagnostics, text)
    return Game(name_node.value, env, players, start, play, decisions, end,
                dict(expansion.options), expansion)


def _decision_steps(play_form: Form, registry: Mapping[str, LudemeSpec]
                    ) -> list[tuple[bool, ...]]:
    """For each phase, which steps of its turn are decisions (moves) rather than effects."""
    def kinds(steps: tuple[Node, ...]) -> tuple[bool, ...]:
        out = []
        for step in steps:
            assert isinstance(step, Form)
            spec, _ = resolve(step, registry)
            out.append(spec is not None and spec.returns.name == "Moves")
        return tuple(out)

    if play_form.head == "play":
        return [kinds(play_form.args)]
    return [kinds(phase.args[1:]) for phase in play_form.args if isinstance(phase, Form)]



def _static_sites(section: Any, form: Form, what: str,
                  diagnostics: list[Diagnostic]) -> frozenset[int] | None:
    """The sites of a section's region, which must not depend on the position (None, with a
    diagnostic, when they do)."""
    sites = parts_of(section.sites).static
    if sites is None:
        diagnostics.append(Diagnostic(form.span, f"{what} must not depend on the position"))
    return sites


def _declared_twice(env: Env, owners: dict[int | None, Any], owner: int | None, name: str,
                    form: Form, what: str, diagnostics: list[Diagnostic]) -> bool:
    """Is a named region or track already declared for `owner` (a role index, or None for
    everyone)? Then say so."""
    if owner in owners or (owners and (owner is None) != (None in owners)):
        whose = "" if owner is None else f" for {env.roles[owner]}"
        diagnostics.append(Diagnostic(form.span, f'the {what} "{name}" is declared '
                                      f"twice{whose} (give each role its own with owner:)"))
        return True
    return False


def _named_regions(compiler: Compiler, env: Env, forms: list[Form],
                   diagnostics: list[Diagnostic]) -> None:
    """Compile the (region ...) sections into env.regions: name -> owner (None for all) ->
    sites."""
    for form in forms:
        section = compiler.compile(form, SECTION)
        if not isinstance(section, RegionSection):
            continue
        sites = _static_sites(section, form, "a named region", diagnostics)
        if sites is None:
            continue
        owners = env.regions.setdefault(section.name, {})
        owner = None if section.owner is None else env.fixed_role(section.owner)
        if not _declared_twice(env, owners, owner, section.name, form, "region", diagnostics):
            owners[owner] = tuple(sorted(sites))


def _named_tracks(compiler: Compiler, env: Env, forms: list[Form],
                  diagnostics: list[Diagnostic]) -> None:
    """Compile the (track ...) sections into env.tracks, beside the board's own tracks."""
    for name, sites in env.topology.tracks.items():
        env.tracks[name] = {None: (sites, True)}
    index = env.topology.index
    for form in forms:
        section = compiler.compile(form, SECTION)
        if not isinstance(section, TrackSection):
            continue
        unknown = [s for s in section.sites if s not in index]
        if unknown:
            diagnostics.append(Diagnostic(form.span, f'the track "{section.name}" names '
                                          f"{unknown[0]}, which is not a site of the board"))
            continue
        if len(set(section.sites)) != len(section.sites) or len(section.sites) < 2:
            diagnostics.append(Diagnostic(form.span, f'the track "{section.name}" needs two '
                                          "or more sites, each listed once"))
            continue
        track = env.tracks.setdefault(section.name, {})
        owner = None if section.owner is None else env.fixed_role(section.owner)
        if not _declared_twice(env, track, owner, section.name, form, "track", diagnostics):
            track[owner] = (tuple(index[s] for s in section.sites), section.loop)
