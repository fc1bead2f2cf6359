"""The product carries what it cites: no tracked file points to a file the repository lacks.

Every mention of the open questions, the outside facts, a rulebook text file (``*.txt``) or the
project's working folder beside the repository (``../shared``) must name a file that exists, from the repository root or
from the mentioning file's own folder (a Markdown link in ``docs/`` may say ``open-questions.md``).
The rulebooks themselves are cited by name ("Lone Cowboy rulebook") with the passage quoted.
"""

from __future__ import annotations

import re
from pathlib import Path

from solver.paths import REPO
from tests.support.repo_files import tracked_files

TEXT = {".py", ".md", ".toml", ".json", ".ipynb", ".txt", ".cfg", ".ini", ".yml", ".yaml", ".csv"}
CITED = re.compile(r"[\w./-]*(?:open-questions\.md|outside-facts\.md|\.txt\b)|(?:\.\./)+shared\b[\w./-]*")
SELF = Path(__file__).resolve()


def text_files() -> list[Path]:
    return [f for f in tracked_files() if f.suffix in TEXT and f.is_file() and f.resolve() != SELF]


def _inside(path: Path) -> bool:
    """An existing file of the repository itself (a path that leaves it, like ``../shared``, never counts)."""
    return path.exists() and path.resolve().is_relative_to(REPO.resolve())


def missing_citations(path: Path, text: str) -> list[str]:
    out = []
    for m in CITED.finditer(text):
        cited = m.group(0).rstrip(".,;:")
        if not cited or cited in (".txt",):
            continue
        if not any(_inside(p) for p in (REPO / cited, path.parent / cited)):
            line = text.count("\n", 0, m.start()) + 1
            out.append(f"{path.relative_to(REPO).as_posix()}:{line}: cites {cited!r}, which the repository lacks")
    return out


def test_no_file_cites_a_file_the_repository_lacks():
    problems = []
    for path in text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        problems += missing_citations(path, text)
    assert not problems, "\n".join(problems[:40]) + (f"\n... and {len(problems) - 40} more" if len(problems) > 40 else "")


def test_the_check_catches_each_kind_of_missing_file(tmp_path):
    cases = {"open-questions.md W1": True, "see docs/open-questions.md": False,
             "rules/cactus-town-lone-ranger.txt 'DUEL'": True, "../shared/rules/outside-facts.md": True,
             "outside-facts.md (low)": True, "docs/outside-facts.md (low)": False,
             "the Lone Ranger rulebook 'DUEL'": False}
    for text, flagged in cases.items():
        found = missing_citations(REPO / "solver" / "x.py", text)
        assert bool(found) == flagged, (text, found)
    assert missing_citations(REPO / "docs" / "x.md", "[the questions](open-questions.md)") == []
