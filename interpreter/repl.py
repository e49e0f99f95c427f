"""The REPL: play a game at the terminal (`ludeme play FILE`)."""

from __future__ import annotations

import cmd
import sys
from typing import IO

from dsl.errors import GameError
from interpreter.agents import Agent
from interpreter.display import draw, status
from interpreter.game import Game, State


class Repl(cmd.Cmd):
    """Type a move to play it (c3, c3-d4, c3,c4, e5<>f5, pass, swap); a whole turn of several
    decisions may be typed on one line, separated by spaces."""

    def __init__(self, game: Game, agents: dict[str, Agent] | None = None,
                 stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
        super().__init__(stdin=stdin, stdout=stdout)
        if stdin is not None:
            self.use_rawinput = False
        self.game = game
        self.agents = agents or {}
        self.history: list[State] = [game.initial_state()]
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

    def run_agents(self) -> None:
        while not self.state.is_over and self.state.mover in self.agents:
            agent = self.agents[self.state.mover or ""]
            if not self.state.legal_moves():
                self.say(f"{self.state.mover} has no legal move.")
                return
            move = agent.choose(self.state)
            self.say(f"{self.state.mover} ({agent.name}) plays {move}")
            self.history.append(self.state.play(move))
            self.show()

    def onecmd(self, line: str) -> bool:
        try:
            return super().onecmd(line)
        except GameError as exc:
            self.say(f"error: {exc}")
        except Exception as exc:  # the REPL survives anything; say what happened in one line
            self.say(f"internal error: {type(exc).__name__}: {exc}")
        return False

    def emptyline(self) -> bool:
        return False

    def default(self, line: str) -> bool:
        words = line.split()
        if words and words[0] in ("EOF",):
            return True
        if len(words) == 1 and not any(ch.isalnum() for ch in words[0]):
            self.say(f"error: {line.strip()!r} is not a command or a move (type 'help')")
            return False
        state = self.state
        new: list[State] = []
        for i, word in enumerate(words):
            if i and state.mover != self.state.mover:
                self.say(f"error: {word}: {' '.join(words[:i])} already ended "
                         f"{self.state.mover}'s turn; nothing was played")
                return False
            state = state.play(word)  # IllegalMoveError is reported by onecmd; nothing kept
            new.append(state)
        self.history.extend(new)
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
        while len(self.history) > 1 and self.state.mover in self.agents:
            self.history.pop()
        self.show()
        self.run_agents()  # at the start, the computer may be the one to move

    def do_help(self, arg: str) -> None:
        """help: list the commands."""
        self.say("commands:")
        self.say("  <move>    play it: c3 (place), c3-d4 (move), c3,c4 (several), e5<>f5 "
                 "(exchange), pass, swap")
        self.say("            several decisions of one turn may go on one line: e5 c3-d4")
        self.say("  moves     list the legal moves")
        self.say("  show      draw the board ('show text' for the position text)")
        self.say("  undo      take back the last move")
        self.say("  help      this list")
        self.say("  quit      leave")

    def do_quit(self, arg: str) -> bool:
        """quit: leave the REPL."""
        return True

    do_exit = do_quit

    def do_EOF(self, arg: str) -> bool:  # noqa: N802  (cmd's name for end of input)
        self.say("")
        return True


def run(game: Game, agents: dict[str, Agent] | None = None) -> int:
    repl = Repl(game, agents, stdin=None if sys.stdin.isatty() else sys.stdin)
    try:
        repl.cmdloop()
    except KeyboardInterrupt:
        repl.say("")
    return 0
