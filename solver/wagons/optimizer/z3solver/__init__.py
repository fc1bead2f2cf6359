"""z3solver."""
