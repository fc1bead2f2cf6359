"""The rules register: every open question (docs/open-questions.md ids W1-W10, C1-C9, O1-O13) and every
rule the code implements, with its source passage (and, where it quotes the Italian rulebook, ``english``: those
passages in English, shown beside them), default reading, alternatives, the code that implements it, and its status.

Entries live in ``docs/register/<game>.toml`` (``[[rule]]`` tables). Code cites a rule with the
token ``rule:`` directly followed by its id (``W1``, ``W-place``) in a docstring or comment;
:func:`citations` finds them, and the tests fail when code cites an unknown id or an entry marked
``implemented`` is cited by none of the files it names. ``ruleslinger rules --markdown`` renders the register as
one Markdown document (:func:`to_markdown`), made when asked: the TOML is the only copy kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from solver.errors import BadInput
from solver.io.read import read_toml
from solver.paths import REGISTER, REPO

CITATION = re.compile(r"\brule:([A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)")
STATUSES = ("planned", "implemented")


@dataclass(frozen=True)
class Rule:
    id: str
    game: str
    title: str
    source: str
    default: str
    alternatives: tuple[str, ...] = ()
    option: str | None = None  # name of the selectable option in the game's rules options
    inferred: bool = False
    open_question: bool = False
    status: str = "planned"
    code: tuple[str, ...] = ()
    notes: str = ""
    english: str = ""  # the source's Italian passages in English, beside them (empty: the source is in English)


@dataclass(frozen=True)
class Register:
    rules: tuple[Rule, ...] = field(default_factory=tuple)

    def get(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise BadInput(f"unknown rule id '{rule_id}'")

    def ids(self) -> set[str]:
        return {r.id for r in self.rules}

    def for_game(self, game: str) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if r.game == game)


def _rule(entry: dict, game: str, path: Path) -> Rule:
    where = f"{path.name}: rule {entry.get('id', '?')}"
    for key in ("id", "title", "source", "default"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise BadInput(f"{where}: missing text field '{key}'")
    if not isinstance(entry.get("english", ""), str):
        raise BadInput(f"{where}: 'english' must be text (the source's Italian passages in English)")
    status = entry.get("status", "planned")
    if status not in STATUSES:
        raise BadInput(f"{where}: status must be one of {STATUSES}, got {status!r}")
    return Rule(
        id=entry["id"], game=game, title=entry["title"], source=entry["source"],
        default=entry["default"], alternatives=tuple(entry.get("alternatives", ())),
        option=entry.get("option"), inferred=bool(entry.get("inferred", False)),
        open_question=bool(entry.get("open_question", False)), status=status,
        code=tuple(entry.get("code", ())), notes=entry.get("notes", ""), english=entry.get("english", ""),
    )


def parts(folder: Path = REGISTER) -> dict[str, str]:
    """The register's parts in order, {part id (its file's name): its title}: ``common`` and one per game, each
    file saying its own ``title`` and ``order`` (so no list of the games is kept here)."""
    found = []
    for path in folder.glob("*.toml"):
        doc = read_toml(path)
        if not isinstance(doc.get("title"), str) or not isinstance(doc.get("order"), int):
            raise BadInput(f"{path.name}: expected a text 'title' and a whole-number 'order' at the top")
        found.append((doc["order"], path.stem, doc["title"]))
    return {part: title for _order, part, title in sorted(found)}


@lru_cache(maxsize=1)
def shipped_parts() -> dict[str, str]:
    """:func:`parts` of the shipped register, read once per process (the command line's ``rules --game`` choices)."""
    return parts()


def load_register(folder: Path = REGISTER) -> Register:
    rules: list[Rule] = []
    seen: set[str] = set()
    for game in parts(folder):
        path = folder / f"{game}.toml"
        for entry in read_toml(path).get("rule", []):
            rule = _rule(entry, game, path)
            if rule.id in seen:
                raise BadInput(f"{path.name}: duplicate rule id '{rule.id}'")
            seen.add(rule.id)
            rules.append(rule)
    return Register(tuple(rules))


@lru_cache(maxsize=1)
def register() -> Register:
    """The project's register, loaded once per process."""
    return load_register()


def option_help(game: str) -> dict[str, str]:
    """{reading's option name: "id: title"} of the register entries that name an option of ``game`` (an open question's
    entry wins): the help line of each reading's command-line flag."""
    entries = sorted(register().for_game(game), key=lambda r: r.open_question)
    return {r.option: f"{r.id} {r.title}" for r in entries if r.option}


def citations(root: Path = REPO, folders: tuple[str, ...] = ("solver",)) -> dict[str, set[str]]:
    """Map rule id -> set of repository-relative files whose text cites a rule id."""
    found: dict[str, set[str]] = {}
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            for m in CITATION.finditer(text):
                found.setdefault(m.group(1), set()).add(path.relative_to(root).as_posix())
    return found


def problems(reg: Register | None = None, root: Path = REPO) -> list[str]:
    """Consistency problems between the register and the code (empty when all is well)."""
    reg = reg or register()
    cited = citations(root)
    out = [f"code cites unknown rule id '{rid}' in {sorted(files)}" for rid, files in sorted(cited.items())
           if rid not in reg.ids()]
    for rule in reg.rules:
        if rule.status != "implemented":
            continue
        if not rule.code:
            out.append(f"{rule.id}: marked implemented but names no code")
            continue
        for path in rule.code:
            if not (root / path).exists():
                out.append(f"{rule.id}: names missing file {path}")
            elif path not in cited.get(rule.id, set()):
                out.append(f"{rule.id}: {path} does not cite the rule:" + rule.id)
    return out


def to_markdown(reg: Register | None = None) -> str:
    reg = reg or register()
    lines = ["# Rules register", "",
             "Rendered from `docs/register/*.toml` by `ruleslinger rules --markdown`.",
             "Code cites an entry as `rule:` + its id. Open questions carry the",
             "ids of `docs/open-questions.md`; readings marked *(inferred)* fill a gap in the rulebook text.", ""]
    for game, title in parts().items():
        rules = reg.for_game(game)
        if not rules:
            continue
        lines += [f"## {title}", "", "| id | rule | source | default reading | alternatives | option | status | code |",
                  "|---|---|---|---|---|---|---|---|"]
        for r in rules:
            default = r.default + (" *(inferred)*" if r.inferred else "")
            source = r.source + (f" *(in English: {r.english})*" if r.english else "")
            cells = [r.id, r.title, source, default, "; ".join(r.alternatives) or "-",
                     f"`{r.option}`" if r.option else "-", r.status,
                     ", ".join(f"`{c}`" for c in r.code) or "-"]
            lines.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
        lines.append("")
    return "\n".join(lines)


def add_commands(games) -> None:
    """Add ``ruleslinger rules`` (the rules register) to the root command."""
    from solver import clikit

    def handle(args):
        reg = register()
        if args.markdown:
            return {"markdown": to_markdown(reg)}
        rules = reg.for_game(args.game_filter) if args.game_filter else reg.rules
        return {"rules": [r.__dict__ | {"alternatives": list(r.alternatives), "code": list(r.code)}
                          for r in rules], "problems": problems(reg)}

    def render(result):
        if "markdown" in result:
            return result["markdown"]
        lines = [f"{r['id']:<14} {r['status']:<11} {r['title']}" for r in result["rules"]]
        lines += [f"PROBLEM: {p}" for p in result["problems"]]
        return "\n".join(lines)

    p = clikit.add_command(games, "rules", "list the rules register (open questions and implemented rules)",
                           handle, render)
    p.add_argument("--game", dest="game_filter", choices=list(shipped_parts()), help="only this game's entries")
    p.add_argument("--markdown", action="store_true", help="print the register as one Markdown document")
