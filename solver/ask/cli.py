"""``ruleslinger ask QUESTION.toml [--time-limit S] [--json] [--rule NAME=VALUE] [--readings-impact]``: a rules
question of one's own, answered with its proof or estimate, the witness and the readings it rests on;
``ruleslinger ask --examples`` lists the shipped questions (``--examples NAME`` answers one of them), and
``ruleslinger ask --measures GAME`` lists every domain of a game with its parameters and measures."""

from __future__ import annotations

import argparse
from typing import Any

from solver import clikit, registry
from solver.ask.answer import answer_to_json
from solver.ask.engine import DEFAULT_SECONDS, ask
from solver.ask.examples import example, examples, matches
from solver.ask.impact import impact
from solver.ask.question import Question, load_question, question_to_doc
from solver.errors import BadInput
from solver.io.numbers import short_repr


def _pairs(items: list[str]) -> dict[str, str]:
    out = {}
    for text in items:
        name, sep, value = str(text).partition("=")
        if not sep or not name.strip():
            raise BadInput(f"--rule: expected NAME=VALUE, got {short_repr(text)}")
        out[name.strip()] = value.strip()
    return out


def _with_flags(q: Question, args: argparse.Namespace) -> Question:
    given = _pairs(args.rule)
    if not given:
        return q
    cls = registry.game(q.game).readings
    values = cls.from_values(given, text=True).to_json()  # checked (unknown names and values refused)
    return q.with_readings(dict(q.readings) | {k: values[k] for k in given})


def _measures(game: str) -> dict[str, Any]:
    info = registry.game(game)
    out = []
    for kind in info.questions:
        entry = {"domain": kind.name, "label": kind.label, "source": kind.source,
                 "params": [{"name": p.name, "label": p.label, "kind": p.kind, "default": p.default}
                            for p in kind.params]}
        if all(p.default is not None for p in kind.params):  # the measures of the domain its defaults make
            domain = kind.build({p.name: p.default for p in kind.params}, info.readings())
            entry["measures"] = [{"name": m.name, "label": m.label, "kind": m.kind, "source": m.source}
                                 for m in domain.measures().values()]
        out.append(entry)
    return {"game": game, "domains": out}


def _handle(args: argparse.Namespace) -> Any:
    if args.measures:
        return _measures(registry.game(args.measures).id)
    if args.examples is not None and args.question is None and args.examples == "":
        return [{"file": f"scenarios/questions/{e.name}.toml", "name": e.name, "game": e.question.game,
                 "question": e.question.title, "expected": e.expected} for e in examples()]
    if args.examples:
        ex = example(args.examples)
        q, expected = ex.question, ex.expected
    elif args.question is not None:
        q, expected = load_question(args.question), None
    else:
        raise BadInput("ask: give a question file, --examples [NAME] or --measures GAME")
    q = _with_flags(q, args)
    bar = clikit.ProgressLines("ask", args.quiet)
    answer = ask(q, args.time_limit, progress=bar)
    if args.readings_impact:
        answer = impact(q, answer, args.time_limit, progress=bar)
    out = answer_to_json(answer, q.game, question_to_doc(q))
    if expected is not None:
        out["expected"] = expected
        out["as_expected"] = matches(expected, out)
    return out


def _render(result: Any) -> str:
    if isinstance(result, list):  # the shipped examples
        return "\n".join(f"{e['name']:<34} {e['game']:<8} {e['question']}" for e in result)
    if "domains" in result:
        lines = []
        for d in result["domains"]:
            params = ", ".join(f"{p['name']} ({p['label']})" for p in d["params"])
            lines.append(f"{d['domain']}: {d['label']} — {params}")
            lines += [f"  {m['name']:<28} {m['label']}" for m in d.get("measures", [])]
        return "\n".join(lines)
    lines = [result["question"], f"Answer: {result['said']}", f"How: {result['method']}"]
    if result.get("witness_values"):
        lines.append("Shown by: " + ", ".join(f"{k} = {v}" for k, v in result["witness_values"].items()))
    lines.append("Readings: " + ", ".join(f"{k}={v}" for k, v in result["readings"].items()))
    for c in result.get("changed_by") or []:
        lines.append(f"Under {c['reading']}={c['value']}: {c['answer']}")
    if "changed_by" in result and not result["changed_by"]:
        lines.append("No listed alternative reading changes this answer.")
    lines.append(f"Time: {result['elapsed']:.2f} s")
    return "\n".join(lines)


def add_commands(games: argparse._SubParsersAction[Any]) -> None:
    """Add ``ruleslinger ask`` to the root command."""
    p = clikit.add_command(games, "ask", "answer a rules question of your own (a question file; see --examples)",
                           _handle, _render)
    p.add_argument("question", nargs="?", help="the question file (.toml or .json)")
    p.add_argument("--time-limit", type=clikit.time_limit, default=DEFAULT_SECONDS, metavar="S",
                   help=f"seconds for the answer (default {DEFAULT_SECONDS:.0f}); the best so far is returned")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="a reading of the game's rules (repeatable), over the question's own")
    p.add_argument("--readings-impact", action="store_true",
                   help="ask again under each listed alternative reading and name those that change the answer")
    p.add_argument("--examples", nargs="?", const="", default=None, metavar="NAME",
                   help="list the shipped example questions, or answer the one named")
    p.add_argument("--measures", metavar="GAME", help="list a game's domains and their parameters")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")
