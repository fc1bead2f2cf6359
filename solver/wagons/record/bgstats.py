"""A finished Lone Cowboy solo game as a BG Stats play, and the app's import link.

BG Stats (a play-logging app) takes a play pushed from another app as one JSON object, by the link
``https://app.bgstatsapp.com/createPlay.html?data=<the URL-encoded JSON>`` (docs/outside-facts.md,
"BG Stats"). :func:`play_json` builds that object from a finished game: the scenario as the
``board``, the two players (the player, who moves first, rule:W-rounds, and the automated opponent)
with their final scores (rule:W7, rule:W6), and winner and rank from the engine's winner (rule:W8;
a tie ranks both first and both share the win). The game's BoardGameGeek id is not known to the
project, so ``game.bggId`` is sent only when the caller gives one. :func:`import_link` is the link.

Inputs are checked first, each problem a one-line ``BadInput`` (rule:X-bad-input).
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from datetime import UTC, datetime
from urllib.parse import quote

from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.wagons.game import GameState, is_over, scores
from solver.wagons.readings import WagonsReadings

__all__ = ["play_json", "import_link", "play_date", "player_name", "duration_minutes", "GAME_NAME",
           "SOURCE_NAME", "SOURCE_GAME_ID", "OPPONENT_NAME", "IMPORT_URL", "DATE_FORMAT"]

GAME_NAME = "Circle the Wagons: Lone Cowboy"
SOURCE_NAME = "Ruleslinger"
"""The sending app's name (BG Stats matches games and players per sending app)."""
SOURCE_GAME_ID = "ruleslinger-wagons-lone-cowboy"
OPPONENT_NAME = "Lone Cowboy automated opponent"
OPPONENT_ID = "ruleslinger-wagons-automated-opponent"
IMPORT_URL = "https://app.bgstatsapp.com/createPlay.html"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
"""BG Stats' ``playDate``: "YYYY-MM-DD HH:MM:SS"."""
DATE_INPUTS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d")
MAX_NAME = 60
MAX_LOCATION = 100
MAX_COMMENTS = 1000
MAX_MINUTES = 24 * 60
MAX_BGG_ID = 10**9


def _text(value, what: str, limit: int, required: bool, newlines: bool = False) -> str | None:
    """A short text field: trimmed, no control characters (newlines only where allowed)."""
    if value is None or (isinstance(value, str) and not value.strip() and not required):
        if required:
            raise BadInput(f"{what}: give a name")
        return None
    if not isinstance(value, str):
        raise BadInput(f"{what}: expected text, got {short_repr(value)}")
    text = value.strip()
    if not text:
        raise BadInput(f"{what}: give a name (it is empty)")
    if len(text) > limit:
        raise BadInput(f"{what}: at most {limit} characters, got {len(text)}")
    bad = [c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Cs") and not (newlines and c == "\n")]
    if bad:
        raise BadInput(f"{what}: contains a control character ({bad[0]!r})")
    return text


def player_name(value) -> str:
    """The player's name as BG Stats shows it (not the automated opponent's)."""
    name = _text(value, "player name", MAX_NAME, required=True)
    if name.casefold() == OPPONENT_NAME.casefold():
        raise BadInput(f"player name: '{name}' is the automated opponent's name; give the player's own")
    return name


def play_date(value=None, now: datetime | None = None) -> str:
    """``playDate`` from a date and time ("YYYY-MM-DD HH:MM[:SS]", a "T" allowed; a date alone is
    midnight) or a ``datetime``; None is now, in UTC. Years 1970 to next year."""
    now = now or datetime.now(UTC)
    if value is None:
        return now.strftime(DATE_FORMAT)
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str) and len(value) <= 40:
        text = value.strip()
        for fmt in DATE_INPUTS:
            try:
                moment = datetime.strptime(text, fmt)
                break
            except ValueError:
                continue
        else:
            raise BadInput(f"date: expected YYYY-MM-DD HH:MM[:SS] (a real date and time), got {short_repr(value)}")
    else:
        raise BadInput(f"date: expected YYYY-MM-DD HH:MM[:SS], got {short_repr(value)}")
    if not 1970 <= moment.year <= now.year + 1:
        raise BadInput(f"date: year {moment.year} is not between 1970 and {now.year + 1}")
    return moment.strftime(DATE_FORMAT)


def duration_minutes(value) -> int | None:
    """``durationMin``: whole minutes, 1 to 1440 (None: not given, left out of the play)."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 6:
            raise BadInput(f"duration: expected whole minutes (1 to {MAX_MINUTES}), got {short_repr(value)}")
        value = int(text)
    elif isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"duration: expected whole minutes (1 to {MAX_MINUTES}), got {short_repr(value)}")
    if not 1 <= value <= MAX_MINUTES:
        raise BadInput(f"duration: expected 1 to {MAX_MINUTES} minutes, got {value}")
    return value


def _bgg_id(value) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_BGG_ID:
        raise BadInput(f"BoardGameGeek id: expected a whole number 1 to {MAX_BGG_ID}, got {short_repr(value)}")
    return value


def _summary(state: GameState) -> str:
    """The comment Ruleslinger adds: scenario, deal, readings and the score breakdown."""
    data = state.data
    if data is None:
        from solver.wagons.data import load_data

        data = load_data()
    scenario = data.scenario(state.scenario)
    final = scores(state)
    p, o = final.player, final.opponent
    changed = [f"{k}={v}" for k, v in state.readings.to_json().items() if v != getattr(WagonsReadings(), k)]
    followed = any(e.what == "reveal" for e in state.log)  # rule:W-reveal: the cards entered as they were seen
    deal = (f"deal seed {state.seed}" if state.seed is not None else
            "a game followed at the table" if followed else "an explicit deal")
    text = (f"Solo scenario {scenario.name} (goal cards {' and '.join(scenario.goals)}), {deal}, "
            f"{'readings ' + ', '.join(changed) if changed else 'default readings'}. Scored by {SOURCE_NAME}: "
            f"player {p.total} (terrain groups {sum(p.groups.values())}, goal cards {sum(p.goals.values())}), "
            f"automated opponent {o.total}.")
    if final.low_confidence:
        text += f" {', '.join(final.low_confidence)} scored with a low-confidence number (a reading)."
    return text


def _play_id(state: GameState, date: str, name: str) -> str:
    """A stable id of this play (the same game, date and player export to the same id)."""
    key = json.dumps({"scenario": state.scenario, "seed": state.seed, "rules": state.readings.to_json(),
                      "town": [p.to_dict() for p in state.town.placements], "pile": list(state.pile),
                      "date": date, "player": name}, sort_keys=True)
    return "ruleslinger-wagons-" + hashlib.sha256(key.encode()).hexdigest()[:20]


def _ranks(winner: str) -> tuple[tuple[int, bool], tuple[int, bool]]:
    """(rank, winner) of the player and of the opponent from the engine's winner (rule:W8)."""
    if winner == "player":
        return (1, True), (2, False)
    if winner == "opponent":
        return (2, False), (1, True)
    return (1, True), (1, True)  # a tie: both first, the win shared


def play_json(state: GameState, player: str, date=None, duration_min=None, location: str | None = None,
              comments: str | None = None, bgg_id: int | None = None, now: datetime | None = None) -> dict:
    """The BG Stats play of a finished solo game (keys as BG Stats documents them)."""
    if not isinstance(state, GameState):
        raise BadInput(f"bgstats: expected a Lone Cowboy game, got {type(state).__name__}")
    if not is_over(state):
        raise BadInput("bgstats: the game is not over yet (cards are still to draft or place)")
    name, when = player_name(player), play_date(date, now)
    minutes, place = duration_minutes(duration_min), _text(location, "location", MAX_LOCATION, required=False)
    notes, bgg = _text(comments, "comments", MAX_COMMENTS, required=False, newlines=True), _bgg_id(bgg_id)
    final = scores(state)
    data = state.data
    if data is None:
        from solver.wagons.data import load_data

        data = load_data()
    (p_rank, p_win), (o_rank, o_win) = _ranks(final.winner)
    game = {"highestWins": True, "name": GAME_NAME, "noPoints": False, "sourceGameId": SOURCE_GAME_ID}
    if bgg is not None:
        game = {"bggId": bgg, **game}
    play = {"sourceName": SOURCE_NAME, "sourcePlayId": _play_id(state, when, name),
            "board": data.scenario(state.scenario).name,
            "comments": _summary(state) + (f"\n{notes}" if notes else ""), "game": game, "playDate": when,
            "players": [
                {"startPlayer": True, "name": name, "rank": p_rank, "role": "solo player",
                 "score": final.player.total, "sourcePlayerId": "ruleslinger-player-" + name.casefold(),
                 "winner": p_win},
                {"startPlayer": False, "name": OPPONENT_NAME, "rank": o_rank, "role": "automated opponent",
                 "score": final.opponent.total, "sourcePlayerId": OPPONENT_ID, "winner": o_win}]}
    if minutes is not None:
        play["durationMin"] = minutes
    if place is not None:
        play["location"] = place
    return play


def import_link(play: dict) -> str:
    """The BG Stats import link of a play: the play's JSON, URL-encoded, as the ``data`` parameter."""
    text = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return f"{IMPORT_URL}?data={quote(text, safe='')}"
