"""FEN, as chess programs write positions, turned into ludeme's position text for
games/chess.game (the contract's "Position text", chess)."""

from __future__ import annotations


def fen_to_text(fen: str) -> str:
    """The position text of a FEN: the board, top row first, `.` for an empty square; then
    every key in FEN's order (en passant only when there is a square, so that the text also
    reads in a game file without en passant; the counters only when the FEN has them)."""
    placement, side, castling, en_passant, *counters = fen.split()
    rows = []
    for rank in placement.split("/"):
        cells: list[str] = []
        for ch in rank:
            cells += ["."] * int(ch) if ch.isdigit() else [ch]
        rows.append(" ".join(cells))
    keys = [f"mover: {'White' if side == 'w' else 'Black'}", f"castling: {castling}"]
    if en_passant != "-":
        keys.append(f"en passant: {en_passant}")
    if counters:
        keys += [f"halfmove: {counters[0]}", f"fullmove: {counters[1]}"]
    return "\n".join(rows + keys) + "\n"
