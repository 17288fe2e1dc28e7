"""Hypothesis fuzz of the result bodies: ``POST /games`` for every game system and
``POST /tournaments`` for every tournament system, on SQLite and PostgreSQL.

Bodies start from the valid shape of each system (unicode and NUL in free text included);
35 % stay so, 25 % break exactly one rule (a player twice, 0 / 1 / 41 players, rank 0, centres
35, NaN), 40 % are damaged anywhere: fields dropped, unknown fields added, values of the wrong
type, huge / negative / fractional numbers, NaN and Infinity as raw JSON tokens, duplicate keys,
unicode and over-long ids, 0..40 random players, centres out of range, non-objects, broken or
non-UTF-8 JSON text; some are sent twice, or followed by another body under the same id, and
some as dry runs. Whatever comes in:

- the status is never 5xx;
- a 4xx is ``application/problem+json`` with ``type``, ``title``, ``status``, ``detail`` and, for
  a 422, ``errors`` of ``{"loc": [...], "msg": "..."}``;
- a 2xx carries only finite numbers; a 201 adds exactly one event;
- a rejected request, a dry run and an idempotent replay change no row of ``events`` or
  ``changes``.

Hypothesis runs in a worker thread (``anyio.to_thread``) and sends each request on the test's
event loop (``anyio.from_thread``), so the ordinary async ``client`` fixture serves every example.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import partial
from typing import Any

import anyio
import anyio.from_thread
import anyio.to_thread
import httpx
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from sqlalchemy import text

from app.core.database import Database
from tests.helpers import JSON_LEAVES

pytestmark = pytest.mark.anyio

MAX_EXAMPLES = 100
GAME_SYSTEMS = ("elo", "fundox", "naf", "glicko2", "glicko", "nadf", "kinzett")
TOURNAMENT_SYSTEMS = ("dptr", "cdiplo", "wpe", "daanz")
DIPLOMACY = frozenset({"nadf", "kinzett"})
POWERS = "AEFGIRT"
PROBLEM_JSON = "application/problem+json"
#: Every example runs on a ladder of its own, ``fuzz-<n>``: examples do not depend on each
#: other, so Hypothesis can replay and shrink them; repeats under one id are drawn explicitly
#: (``Request.then``).
EXAMPLE = "__EX__"
LADDER = f"fuzz{EXAMPLE}"


@dataclass(frozen=True)
class Raw:
    """JSON text sent as is: NaN, Infinity, 1e999, ... (``json.dumps`` cannot produce all)."""

    text: str


@dataclass(frozen=True)
class Request:
    """A body, then optionally the same body again or another body under the same id."""

    path: str
    content: bytes
    then: bytes | None = None
    same: bool = False

    def describe(self) -> str:
        first = f"POST {self.path} {self.content.decode('utf-8', 'replace')}"
        if self.then is None:
            return first
        again = "the same again" if self.same else self.then.decode("utf-8", "replace")
        return f"{first}\nthen {again}"


def encode(value: Any) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        items = (f"{json.dumps(str(k))}: {encode(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(encode(v) for v in value) + "]"
    return json.dumps(value)  # float("nan") -> NaN, float("inf") -> Infinity


# --- values -------------------------------------------------------------------------------

PLAYER_IDS = st.sampled_from(["alice", "bob", "carol", "dave", "erin", "frank", "grace"]) | (
    st.from_regex(r"[A-Za-z0-9._:@-]{1,12}", fullmatch=True)
)
WEIRD_IDS = st.sampled_from(
    ["", " ", "a" * 101, "é", "名前", "a/b", "../etc", "a b", "\x00", "🎲", "fuzz\n", "FUZZ"]
) | st.text(max_size=12)
NON_FINITE = st.sampled_from(
    [Raw("NaN"), Raw("Infinity"), Raw("-Infinity"), Raw("1e999"), Raw("-1e999")]
) | st.sampled_from([math.nan, math.inf, -math.inf])
EXTREME_NUMBERS = st.sampled_from(
    [0, -1, -(2**31), 2**31, 2**63, 2**64, 10**30, -(10**30), 1e308, -1e308, 5e-324, 1.5, -0.0]
) | st.sampled_from([Raw("1" + "0" * 400), Raw("-0"), Raw("1E2"), Raw("0.1e1")])
ANY_JSON = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
#: Free text (names, factions): any unicode, and NUL, which not every database stores.
FREE_TEXT = st.text(min_size=1, max_size=30) | st.sampled_from(
    ["\x00", "Manorcon\x00 2026", "名前", "\u2028", "\ufeff", "\U0010ffff"]
)
ODD_VALUES = ANY_JSON | NON_FINITE | EXTREME_NUMBERS | WEIRD_IDS


def _instant(year: int, day: int) -> str:
    return f"{year}-{(day % 12) + 1:02d}-{(day % 28) + 1:02d}T{day % 24:02d}:00:00Z"


# --- valid-ish bodies ---------------------------------------------------------------------


@st.composite
def ranked_players(draw: st.DrawFn, low: int, high: int) -> list[dict[str, Any]]:
    names = draw(st.lists(PLAYER_IDS, min_size=low, max_size=high, unique=True))
    ranks = sorted(
        draw(st.lists(st.integers(1, len(names)), min_size=len(names), max_size=len(names)))
    )
    ranks[0] = 1
    return [{"player": n, "rank": r} for n, r in zip(names, ranks, strict=True)]


@st.composite
def diplomacy_players(draw: st.DrawFn, end_year: int) -> list[dict[str, Any]]:
    names = draw(st.lists(PLAYER_IDS, min_size=7, max_size=7, unique=True))
    powers = draw(st.permutations(POWERS))
    wanted = draw(st.lists(st.integers(0, 18), min_size=7, max_size=7))
    centres, left = [], 34
    for want in wanted:
        centres.append(min(want, left))
        left -= centres[-1]
    centres = draw(st.permutations(centres))
    solo = max(centres) >= 18
    in_draw = draw(st.lists(st.booleans(), min_size=7, max_size=7))
    players = []
    for name, power, count, drawn in zip(names, powers, centres, in_draw, strict=True):
        winner = count == max(centres) if solo else (count > 0 and (drawn or count >= 6))
        entry: dict[str, Any] = {"player": name, "faction": power, "centres": count}
        entry["rank"] = 1 if winner else 2
        if count == 0:
            entry["eliminated_in"] = draw(st.integers(1901, end_year))
        players.append(entry)
    return players


@st.composite
def game_body(draw: st.DrawFn, system: str) -> dict[str, Any]:
    year = draw(st.integers(2000, 2030))
    body: dict[str, Any] = {
        "ladder": LADDER,
        "id": f"g{draw(st.integers(0, 99))}",
        "played_at": _instant(year, draw(st.integers(0, 400))),
    }
    if draw(st.booleans()):
        body["rated"] = draw(st.booleans())
    if system in DIPLOMACY:
        body["end_year"] = draw(st.integers(1901, 1920))
        body["players"] = draw(diplomacy_players(body["end_year"]))
        if system == "kinzett" and draw(st.booleans()):
            body["tournament"] = draw(st.sampled_from(["manorcon", "dipcon"]))
    elif system == "naf":
        players = draw(ranked_players(2, 2))
        for player in players:
            player["faction"] = draw(st.sampled_from(["Orc", "Elf", "Dwarf", "Human", "Skaven"]))
        body["players"] = players
        body["event"] = {"coaches": draw(st.integers(1, 100)), "major": draw(st.booleans())}
    elif system == "fundox":
        body["players"] = draw(ranked_players(2, 4))
    else:
        body["players"] = draw(ranked_players(2, 8))
        for player in body["players"]:  # a faction is free text where nothing is per faction
            if draw(st.integers(0, 3)) == 0:
                player["faction"] = draw(FREE_TEXT)
    return body


@st.composite
def tournament_body(draw: st.DrawFn, system: str) -> dict[str, Any]:
    standings = draw(ranked_players(2, 40))
    if system == "daanz":
        for entry in standings:
            entry["centres"] = draw(st.integers(0, 34))
    body: dict[str, Any] = {
        "ladder": LADDER,
        "id": f"t{draw(st.integers(0, 99))}",
        "held_on": draw(st.dates(date(1995, 1, 1), date(2030, 12, 31))).isoformat(),
        "standings": standings,
    }
    optional = {
        "name": FREE_TEXT,
        "rounds": st.integers(1, 7),
        "world_championship": st.booleans(),
        "class": st.sampled_from(["world", "continental", "main", "minor"]),
        "major": st.booleans(),
    }
    for key, values in optional.items():
        if draw(st.booleans()) or (key == "class" and system == "wpe"):  # wpe needs the class
            body[key] = draw(values)
    return body


# --- damage -------------------------------------------------------------------------------


def _entries_key(body: dict[str, Any]) -> str:
    return "standings" if "standings" in body else "players"


@st.composite
def damaged(draw: st.DrawFn, body: dict[str, Any]) -> Any:
    """``body`` with 0..3 mutations; sometimes not an object at all."""
    key = _entries_key(body)
    for _ in range(draw(st.integers(0, 3))):
        entries = body.get(key)
        kind = draw(
            st.sampled_from(
                [
                    "drop",
                    "extra",
                    "retype",
                    "entry-drop",
                    "entry-extra",
                    "entry-odd",
                    "entry-non-finite",
                    "duplicate",
                    "resize",
                    "weird-id",
                    "centres",
                    "entries-odd",
                ]
            )
        )
        if kind == "drop" and body:
            body.pop(draw(st.sampled_from(sorted(body))))
        elif kind == "extra":
            body[draw(st.text(min_size=1, max_size=10))] = draw(ANY_JSON)
        elif kind == "retype" and body:
            body[draw(st.sampled_from(sorted(body)))] = draw(ODD_VALUES)
        elif kind == "entries-odd":
            body[key] = draw(ODD_VALUES)
        elif kind == "resize":
            body[key] = draw(
                st.lists(
                    st.fixed_dictionaries(
                        {"player": PLAYER_IDS | WEIRD_IDS, "rank": st.integers(-2, 45)},
                        optional={
                            "faction": st.sampled_from([*POWERS, "Orc", "Narnia", ""]),
                            "centres": st.integers(-2, 40),
                            "eliminated_in": st.integers(1890, 1930),
                        },
                    ),
                    max_size=40,
                )
            )
        elif kind == "weird-id":
            target = draw(st.sampled_from(["ladder", "id", "player"]))
            if target == "player" and isinstance(entries, list) and entries:
                entry = draw(st.sampled_from(entries))
                if isinstance(entry, dict):
                    entry["player"] = draw(WEIRD_IDS)
            else:
                body[target] = draw(WEIRD_IDS | st.just("no-such-ladder"))
        elif isinstance(entries, list) and entries:
            index = draw(st.integers(0, len(entries) - 1))
            entry = entries[index]
            if kind == "duplicate":
                entries.append(entry.copy() if isinstance(entry, dict) else entry)
            elif not isinstance(entry, dict):
                continue
            elif kind == "entry-drop" and entry:
                entry.pop(draw(st.sampled_from(sorted(entry))))
            elif kind == "entry-extra":
                entry[draw(st.sampled_from(["score", "team", "Rank", "player "]))] = draw(ANY_JSON)
            elif kind == "entry-odd":
                field = draw(
                    st.sampled_from(["player", "rank", "faction", "centres", "eliminated_in"])
                )
                entry[field] = draw(ODD_VALUES)
            elif kind == "entry-non-finite":
                entry[draw(st.sampled_from(["rank", "centres", "eliminated_in"]))] = draw(
                    NON_FINITE
                )
            elif kind == "centres":
                entry["centres"] = draw(st.sampled_from([-1, 35, 100, 17.5, 2**40]))
    shape = draw(st.sampled_from(["object"] * 12 + ["array", "scalar", "wrapped"]))
    if shape == "array":
        return [body]
    if shape == "scalar":
        return draw(JSON_LEAVES | NON_FINITE)
    if shape == "wrapped":
        return {"game": body}
    return body


@st.composite
def near_miss(draw: st.DrawFn, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` broken in exactly one way that the schema alone may not catch."""
    key = _entries_key(body)
    entries: list[dict[str, Any]] = body[key]
    kind = draw(st.sampled_from(["twice", "one", "none", "crowd", "rank", "centres", "nan"]))
    if kind == "twice":
        entries[draw(st.integers(1, len(entries) - 1))]["player"] = entries[0]["player"]
    elif kind == "one":
        del entries[1:]
    elif kind == "none":
        entries.clear()
    elif kind == "crowd":
        entries.extend({**entries[-1], "player": f"extra{i}"} for i in range(41 - len(entries)))
    elif kind == "rank":
        draw(st.sampled_from(entries))["rank"] = draw(st.sampled_from([0, -1, 100_001, 2**63]))
    elif kind == "centres":
        draw(st.sampled_from(entries))["centres"] = draw(st.sampled_from([-1, 35, 34, 18]))
    else:
        field = draw(st.sampled_from(["rank", "centres"]))
        draw(st.sampled_from(entries))[field] = draw(NON_FINITE)
    return body


@st.composite
def requests(draw: st.DrawFn, system: str, path: str) -> Request:
    make = tournament_body if system in TOURNAMENT_SYSTEMS else game_body
    body = draw(make(system))
    variant = draw(st.integers(0, 19))
    if variant >= 12:  # 40 % damaged anywhere
        body = draw(damaged(body))
    elif variant >= 7:  # 25 % valid but for one rule
        body = draw(near_miss(body))
    # else 35 % valid-ish
    text_ = encode(body)
    form = draw(
        st.sampled_from(["plain"] * 16 + ["duplicate-key", "truncated", "latin-1", "empty"])
    )
    if form == "duplicate-key" and text_.endswith("}") and len(text_) > 2:
        text_ = text_[:-1] + ', "ladder": ' + encode(draw(ODD_VALUES)) + "}"
    elif form == "truncated":
        text_ = text_[: draw(st.integers(0, max(0, len(text_) - 1)))]
    elif form == "empty":
        text_ = ""
    content = text_.encode("latin-1", "replace") if form == "latin-1" else text_.encode()
    dry_run = draw(st.sampled_from(["", "", "", "?dry_run=true", "?dry_run=false", "?dry_run=x"]))
    then = draw(st.sampled_from(["none", "none", "same", "other"]))
    if then == "same":
        return Request(path + dry_run, content, then=content, same=True)
    if then == "other":
        other = draw(make(system))
        if isinstance(body, dict) and isinstance(body.get("id"), str):
            other["id"] = body["id"]
        return Request(path + dry_run, content, then=encode(other).encode())
    return Request(path + dry_run, content)


# --- checks -------------------------------------------------------------------------------


def _all_numbers(value: Any) -> list[float]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [float(value)]
    if isinstance(value, dict):
        return [n for item in value.values() for n in _all_numbers(item)]
    if isinstance(value, list):
        return [n for item in value for n in _all_numbers(item)]
    return []


def _counts(database: Database) -> tuple[int, int]:
    with database.engine.connect() as connection:
        events = connection.scalar(text("SELECT count(*) FROM events"))
        changes = connection.scalar(text("SELECT count(*) FROM changes"))
    return int(events or 0), int(changes or 0)


def check_response(
    response: httpx.Response, ladder: str, before: tuple[int, int], after: tuple[int, int]
) -> None:
    status = response.status_code
    assert status < 500, f"{status}: {response.text}"
    if status >= 400:
        assert response.headers["content-type"].startswith(PROBLEM_JSON), response.headers
        problem = response.json()
        for field in ("type", "title", "status", "detail"):
            assert field in problem, problem
        assert problem["status"] == status, problem
        if status == 422:
            assert isinstance(problem.get("errors"), list), problem
            assert problem["errors"], problem
            for error in problem["errors"]:
                assert isinstance(error.get("loc"), list), error
                assert isinstance(error.get("msg"), str), error
                assert error["msg"], error
        assert after == before, f"a rejected request ({status}) changed rows: {before} -> {after}"
        return
    assert status in (200, 201), status
    out = response.json()
    assert out["ladder"] == ladder, out
    assert isinstance(out["changes"], list), out
    numbers = _all_numbers(out)
    assert all(math.isfinite(n) for n in numbers), out
    if status == 201:
        assert after[0] == before[0] + 1, f"201 should add one event: {before} -> {after}"
    else:  # a dry run or the stored response again
        assert after == before, f"a 200 changed rows: {before} -> {after}"


def run_fuzz(
    client: httpx.AsyncClient, database: Database, system: str, strategy: st.SearchStrategy[Request]
) -> Counter[int]:
    """Runs in a worker thread: each example is sent on the test's event loop."""
    statuses: Counter[int] = Counter()
    examples = 0

    def call(method: str, path: str, content: bytes) -> httpx.Response:
        send: Callable[[], Any] = partial(
            client.request,
            method,
            path,
            content=content,
            headers={"content-type": "application/json"},
        )
        response: httpx.Response = anyio.from_thread.run(send)
        return response

    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )
    @given(request=strategy)
    def fuzz(request: Request) -> None:
        nonlocal examples
        examples += 1
        ladder = LADDER.replace(EXAMPLE, f"-{examples}")
        created = call("POST", "/ladders", json.dumps({"id": ladder, "system": system}).encode())
        assert created.status_code == 201, created.text
        note(request.describe())

        def post(content: bytes) -> httpx.Response:
            before = _counts(database)
            response = call(
                "POST", request.path, content.replace(EXAMPLE.encode(), f"-{examples}".encode())
            )
            after = _counts(database)
            note(f"-> {response.status_code} {response.text[:500]}")
            statuses[response.status_code] += 1
            check_response(response, ladder, before, after)
            return response

        first = post(request.content)
        if request.then is None:
            return
        second = post(request.then)
        if first.status_code == 201 and request.same:
            assert second.status_code == 200, second.text
            # The stored response; only what this request recomputed (nothing) may differ.
            replayed, stored = second.json(), first.json()
            assert replayed.pop("recomputed_events") == 0, replayed
            stored.pop("recomputed_events")
            assert replayed == stored
        elif first.status_code == 201:
            assert second.status_code in (200, 409, 422), second.text

    fuzz()
    return statuses


async def _fuzz(
    client: httpx.AsyncClient, database: Database, system: str, path: str
) -> Counter[int]:
    strategy = requests(system, path)
    statuses = await anyio.to_thread.run_sync(run_fuzz, client, database, system, strategy)
    # The generator must reach the service's rules, not only its parser.
    assert statuses[201] > 0, f"no body was accepted: {dict(statuses)}"
    assert statuses[422] > 0, f"no body was rejected: {dict(statuses)}"
    return statuses


@pytest.mark.parametrize("system", GAME_SYSTEMS)
async def test_post_games_body_fuzz(
    client: httpx.AsyncClient, database: Database, system: str
) -> None:
    await _fuzz(client, database, system, "/games")


@pytest.mark.parametrize("system", TOURNAMENT_SYSTEMS)
async def test_post_tournaments_body_fuzz(
    client: httpx.AsyncClient, database: Database, system: str
) -> None:
    await _fuzz(client, database, system, "/tournaments")
