"""The REPL: play a game at the terminal (`ludeme play FILE`)."""

from __future__ import annotations

import cmd
import random
import sys
import time
from pathlib import Path
from typing import IO

from dsl.errors import GameError
from interpreter.agents import Agent
from interpreter.display import draw, status
from interpreter.game import Game, State
from interpreter.record import RecordWriter, check_same_game, read_record, replay, save_record


class Repl(cmd.Cmd):
    """Type a move to play it (c3, c3-d4, c3,c4, e5<>f5, pass, swap); a whole turn of several
    decisions may be typed on one line, separated by spaces."""

    def __init__(self, game: Game, agents: dict[str, Agent] | None = None,
                 stdin: IO[str] | None = None, stdout: IO[str] | None = None, *,
                 recorder: RecordWriter | None = None, history: list[State] | None = None,
                 moves: list[str] | None = None, seed: int | None = None) -> None:
        """`agents` maps a role to the agent playing the person who starts with that role
        (after a pie swap, that person holds the other role). `recorder` keeps a record file
        up to date; `history` and `moves` resume a game (states from the initial one, and
        the moves between them). In a game with dice, the REPL rolls them (`seed` makes the
        rolls reproducible)."""
        super().__init__(stdin=stdin, stdout=stdout)
        if stdin is not None:
            self.use_rawinput = False
        self.game = game
        self.agents = agents or {}
        self.rng = random.Random(seed)  # the dice
        self.recorder = recorder
        self.history: list[State] = history or [game.initial_state()]
        self.moves: list[str] = moves or []
        assert len(self.moves) == len(self.history) - 1
        self.prompt = "> "
        self.intro = (f"{game.name}: {' vs '.join(game.players)}. Type a move, 'moves' for the "
                      "legal moves, 'help' for commands.")

    @property
    def state(self) -> State:
        return self.history[-1]

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")

    def preloop(self) -> None:
        if self.intro:
            self.say(self.intro)
            self.intro = ""
        self.show()
        self.run_agents()

    def show(self) -> None:
        self.say(draw(self.game, self.state))
        self.say(status(self.game, self.state))

    def agent_to_move(self) -> Agent | None:
        """The agent of the person to move, if the computer plays them."""
        state = self.state
        if state.is_over:
            return None
        role = state.to_move
        if state.swapped and len(self.game.players) == 2:
            role = 1 - role  # the people have exchanged roles
        return self.agents.get(self.game.players[role])

    def push(self, move: str, state: State) -> None:
        """Add a move and the state after it to the game (and to the record)."""
        self.history.append(state)
        self.moves.append(move)
        if self.recorder is not None:
            self.recorder.append(move, state)

    def roll(self) -> None:
        """Chance's decision (a roll of the dice), drawn with its probability and shown."""
        state = self.state
        move = self.game.draw(state, self.rng)
        self.say(f"{self.game.players[state.to_move]} rolls: {move}")
        self.push(str(move), self.game.apply(state, move))
        self.show()

    def run_agents(self) -> None:
        """Play what is not the person's to play: chance's rolls, and the computer's moves."""
        while True:
            if self.state.is_chance:
                self.roll()
                continue
            agent = self.agent_to_move()
            if agent is None:
                return
            if not self.state.legal_moves():
                self.say(f"{self.state.mover} has no legal move.")
                return
            start = time.perf_counter()
            move = agent.choose(self.state)
            seconds = time.perf_counter() - start
            line = f"{self.state.mover} ({agent.name}) plays {move}"
            report = getattr(agent, "report", None)
            if report is not None:  # an agent that searches: how long, and what it found
                line += f" after {seconds:.1f} s ({report})"
            self.say(line)
            self.push(str(move), self.game.apply(self.state, self.game.find(self.state, move)))
            self.show()

    def onecmd(self, line: str) -> bool:
        try:
            return super().onecmd(line)
        except GameError as exc:
            self.say(f"error: {exc}")
        except OSError as exc:  # a file a command names (the record being kept, a picture)
            where = f"{exc.filename}: " if exc.filename else ""
            self.say(f"error: {where}{exc.strerror or exc}")
        except Exception as exc:  # the REPL survives anything; say what happened in one line
            self.say(f"internal error: {type(exc).__name__}: {exc}")
        return False

    def emptyline(self) -> bool:
        return False

    def default(self, line: str) -> bool:  # type: ignore[override]
        words = line.split()
        if words and words[0] in ("EOF",):
            return True
        if len(words) == 1 and not any(ch.isalnum() for ch in words[0]):
            self.say(f"error: {line.strip()!r} is not a command or a move (type 'help')")
            return False
        state = self.state
        new: list[tuple[str, State]] = []
        for i, word in enumerate(words):
            if i and state.mover != self.state.mover:
                self.say(f"error: {word}: {' '.join(words[:i])} already ended "
                         f"{self.state.mover}'s turn; nothing was played")
                return False
            move = self.game.find(state, word)  # IllegalMoveError: reported by onecmd
            state = self.game.apply(state, move)
            new.append((str(move), state))
        for move_text, after in new:
            self.push(move_text, after)
        self.show()
        self.run_agents()
        return False

    # Commands ------------------------------------------------------------------------------
    def do_moves(self, arg: str) -> None:
        """moves: list the legal moves."""
        moves = self.state.legal_moves()
        if not moves:
            self.say("no legal moves" + (" (the game is over)" if self.state.is_over else ""))
        else:
            self.say(f"{len(moves)} legal: " + " ".join(str(m) for m in moves))

    def do_show(self, arg: str) -> None:
        """show: draw the board again; 'show text' prints the position text."""
        if arg.strip() == "text":
            self.stdout.write(self.state.to_text())
        else:
            self.show()

    def do_undo(self, arg: str) -> None:
        """undo: take back the last move (and the computer's reply to it)."""
        if len(self.history) == 1:
            self.say("nothing to undo")
            return
        self.history.pop()
        while len(self.history) > 1 and (self.agent_to_move() is not None
                                         or self.state.is_chance):
            self.history.pop()  # the computer's moves, and the rolls before them
        del self.moves[len(self.history) - 1:]
        if self.recorder is not None:
            self.recorder.rewrite(self.moves)
        self.show()
        self.run_agents()  # at the start, the computer may be the one to move

    def do_save(self, arg: str) -> None:
        """save FILE: write the game so far as a record."""
        path = arg.strip()
        if not path:
            self.say("error: save needs a file name: save FILE")
            return
        game_file = self.game_file()
        try:
            save_record(path, self.game, game_file, self.moves, self.state)
        except OSError as exc:
            self.say(f"error: cannot write {path}: {exc.strerror or exc}")
            return
        self.say(f"saved {len(self.moves)} moves to {path}")

    def do_load(self, arg: str) -> None:
        """load FILE: replace the game by the one in a record (of this game)."""
        path = arg.strip()
        if not path:
            self.say("error: load needs a file name: load FILE")
            return
        rec = read_record(path)  # RecordError (a GameError): reported by onecmd
        check_same_game(self.game, rec)
        states, moves = replay(rec, self.game)
        self.history, self.moves = states, moves
        if self.recorder is not None:
            self.recorder.rewrite(self.moves, self.state)
        self.say(f"loaded {len(moves)} moves from {path}")
        self.show()
        self.run_agents()

    def do_svg(self, arg: str) -> None:
        """svg FILE: draw the position as an SVG picture."""
        from interpreter.svg import render_svg

        path = arg.strip()
        if not path:
            self.say("error: svg needs a file name: svg FILE")
            return
        try:
            Path(path).write_text(render_svg(self.state), encoding="utf-8")
        except OSError as exc:
            self.say(f"error: cannot write {path}: {exc.strerror or exc}")
            return
        self.say(f"wrote {path}")

    def game_file(self) -> str:
        """The file the game was loaded from (records name it)."""
        path = self.game.expansion.game.span.path
        if not Path(path).is_file():
            raise GameError(f"the game was not loaded from a file ({path}); records need one")
        return path

    def do_help(self, arg: str) -> None:
        """help: list the commands."""
        self.say("commands:")
        self.say("  <move>    play it: c3 (place), c3-d4 (move), c3,c4 (several), e5<>f5 "
                 "(exchange), pass, swap")
        self.say("            several decisions of one turn may go on one line: e5 c3-d4")
        self.say("  moves     list the legal moves")
        self.say("  show      draw the board ('show text' for the position text)")
        self.say("  undo      take back the last move")
        self.say("  save F    write the game to the record file F; 'load F' reads one back")
        self.say("  svg F     draw the position as an SVG picture in the file F")
        self.say("  help      this list")
        self.say("  quit      leave")

    def do_quit(self, arg: str) -> bool:
        """quit: leave the REPL."""
        return True

    do_exit = do_quit

    def do_EOF(self, arg: str) -> bool:  # noqa: N802  (cmd's name for end of input)
        self.say("")
        return True


def run(game: Game, agents: dict[str, Agent] | None = None, *,
        recorder: RecordWriter | None = None, history: list[State] | None = None,
        moves: list[str] | None = None, seed: int | None = None) -> int:
    repl = Repl(game, agents, stdin=None if sys.stdin.isatty() else sys.stdin,
                recorder=recorder, history=history, moves=moves, seed=seed)
    try:
        repl.cmdloop()
    except KeyboardInterrupt:
        repl.say("")
    finally:
        if recorder is not None:
            recorder.close()
    return 0
