"""``python -m solver`` runs the same thing as the ``ruleslinger`` command."""

from solver.cli import main

raise SystemExit(main())
