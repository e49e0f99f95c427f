"""Hand-written Hex and Mincut: the yardstick for the interpreter's speed (not used by it)."""
