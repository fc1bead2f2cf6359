"""The one switch for golden files (``tests/golden/``): behaviour that must not drift is compared with them.

After an intended change of behaviour, run the tests with ``RULESLINGER_WRITE_GOLDEN=1``: every golden test then
writes its file instead of comparing, and the diff is reviewed and committed with a message saying why.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

WRITE = os.environ.get("RULESLINGER_WRITE_GOLDEN") == "1"


def write(path: Path, value: Any) -> None:
    """``value`` as the golden file ``path`` (JSON, sorted keys, one space of indent)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=1, sort_keys=True) + "\n")
