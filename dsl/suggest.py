"""Did-you-mean suggestions for misspelt names."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(word: str, known: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The known name `word` most likely misspells, or None if none is close. difflib finds
    the candidates; among them the fewest edits wins (a swap of two neighbouring letters
    counting as one edit), so that `lien` suggests `line` rather than `link`."""
    candidates = difflib.get_close_matches(word, list(known), n=5, cutoff=cutoff)
    if not candidates:
        return None
    return min(candidates, key=lambda c: (edits(word, c), candidates.index(c)))


def edits(a: str, b: str) -> int:
    """Insertions, deletions, substitutions and swaps of neighbouring letters turning a into b
    (the optimal string alignment distance)."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[i - 2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]
