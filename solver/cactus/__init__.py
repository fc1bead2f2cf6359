"""Cactus Town: The Lone Ranger: event deck, solo action deck, exact marshal odds, the lone
ranger's decisions on a position, duel odds and Z3 checks (see docs/cactus.md).

The main entry points are re-exported lazily (importing this package does not import Z3):
``marshal_odds``, ``decide``, ``duel_odds``, ``CactusRules`` (the checks: ``solver.cactus.verify.verify``).
"""

_EXPORTS = {"marshal_odds": "solver.cactus.odds", "decide": "solver.cactus.ranger",
            "duel_odds": "solver.cactus.duel", "CactusRules": "solver.cactus.rules"}


def __getattr__(name):
    if name in _EXPORTS:
        import importlib

        module = importlib.import_module(_EXPORTS[name])
        return getattr(module, name)
    raise AttributeError(f"module 'solver.cactus' has no attribute {name!r}")
