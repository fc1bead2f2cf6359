"""Outlaws's searches over the engine's positions: can a side still win and are there dead positions
(`searches`, rule:O12, rule:O-win-possible), the weighted best-first search they run on (`best_first`), and
random playouts from the set-up (`playout`)."""
