"""Every ``ruleslinger`` command the README shows runs and succeeds (issue 31: README examples were never run).
The commands are read from the README's code blocks, so a new example is tested the day it is written."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from solver import cli
from tests.support.paths import ROOT

EXAMPLES = [line.strip() for block in re.findall(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
            for line in block.splitlines() if line.strip().startswith("ruleslinger ")]


def test_the_readme_shows_examples():
    assert len(EXAMPLES) >= 10, EXAMPLES


@pytest.mark.parametrize("line", EXAMPLES)
def test_a_readme_example_runs(line, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples name files relative to the repository
    argv = shlex.split(line)[1:]
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    if "--json" in argv:
        assert isinstance(json.loads(out), dict)
    else:
        assert out.strip()
