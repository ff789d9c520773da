"""The rules of clinkbox's games: pure Python, no I/O, no clock, no global random."""
