"""A rename or an erasure of a player whose id is also a field name or a fixed value of the
engines' JSON (``mu``, ``rating``, ``opponent``, a default team label ``2`` ...) changes
that player only (docs/players-data.md "One rewrite"), on every system of the registry.

Two independent checks, on both databases:

- every stored row of the ladder differs from before only where a string was the old id and
  is now the new one (keys included: a key renamed is a failure), so nothing but names moved;
- the ladder then equals a fresh ladder built by the same requests under the new ids (the
  player positions of the bodies renamed by this test, team labels kept), column for column
  but for ids, times and hashes: so exactly the player positions were renamed.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.core.database import Database
from app.engine.registry import SYSTEMS
from app.models import Base

pytestmark = pytest.mark.anyio

#: Players named like the fields and fixed values the engines write, as the survey behind
#: app/repositories/players_data.py found them in the JSON of every system: keys of states
#: and details (``mu``, ``rating``, ``opponent``, ``opponents``, ``duels``, ``pairs``,
#: ``period``, ``side``, ``games`` ...), Fundox's ``winner``/``loser``, NADF's ``power``, the
#: default team labels "1", "2". Renamed to other such names (none of them a player yet).
RENAMED = {"opponent": "score", "rating": "extra", "2": "1"}
ERASED = "mu"
#: The others: what each player's rows must keep bit for bit.
BYSTANDERS = [
    "sigma",
    "deviation",
    "player",
    "win",
    "loss",
    "draw",
    "period",
    "games",
    "opponents",
    "duels",
    "pairs",
    "opponent_players",
    "players",
    "winner",
    "loser",
    "side",
    "power",
]
POWERS = ["A", "E", "F", "G", "I", "R", "T"]
BASE = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
#: Hours apart where rating periods or daily curves should hold several games.
UNIT = {"glicko": timedelta(hours=3), "glicko2": timedelta(hours=3), "ttt": timedelta(hours=9)}
UNIT["whr"] = UNIT["ttt"]
#: Rating periods for the Glicko family (their details name opponents per period).
PARAMS: dict[str, dict[str, Any]] = {
    "glicko": {"period": "week"},
    "glicko2": {"period": "day", "decay": None},
}

#: The whole-history systems fit in an order of the players' ids, so a fresh ladder under
#: other ids stops a sweep apart: equal to their stopping rules (SYSTEMS.md; the tolerances
#: of tests/stateful/test_history_machine.py), others bit for bit.
FIT_TOLERANCE = {"ttt": 1e-5, "whr": 1e-6}

Op = tuple[str, Any]


def _time(system: str, units: float) -> str:
    at = BASE + UNIT.get(system, timedelta(minutes=1)) * units
    return at.isoformat().replace("+00:00", "Z")


def script(system: str, n: Callable[[str], str]) -> list[Op]:
    """The requests of the ladder, each player id passed through ``n`` (team labels not)."""
    info = SYSTEMS[system].info
    whole = info.whole_history
    ops: list[Op] = []

    def players(*entries: tuple[str, int], **extra: Any) -> list[dict[str, Any]]:
        return [{"player": n(p), "rank": r, **extra} for p, r in entries]

    def game(gid: str, units: float, **body: Any) -> None:
        if system == "naf":  # NAF's K: the event's coaches
            body["event"] = {"coaches": 20, "major": gid == "g1"}
        ops.append(("game", {"id": gid, "played_at": _time(system, units), **body}))

    if info.kind == "tournament":
        for index, (tid, standings) in enumerate(
            [
                ("t1", [("mu", 1), ("opponent", 2), ("rating", 2), ("2", 4), ("sigma", 5)]),
                ("t2", [("opponent", 1), ("2", 2), ("mu", 3), ("player", 3), ("win", 5)]),
                ("t3", [("rating", 1), ("loss", 2), ("opponent", 3), ("draw", 4)]),
            ]
        ):
            body: dict[str, Any] = {
                "id": tid,
                "held_on": (datetime(1997, 1, 1) + timedelta(days=40 * index)).date().isoformat(),
                "rounds": 2,
                "standings": [{"player": n(p), "rank": r} for p, r in standings],
            }
            if system == "daanz":
                for i, entry in enumerate(body["standings"]):
                    entry["centres"] = 10 - i
            if system == "wpe":
                body["class"] = "main"
            ops.append(("tournament", body))
            if tid == "t2":
                ops.append(
                    (
                        "adjust",
                        (
                            n("opponent"),
                            {"rating": 1600.0, "at": "1997-02-01T00:00:00Z", "reason": "rating"},
                        ),
                    )
                )
        crowd = ["opponent", *BYSTANDERS]
        body = {
            "id": "t4",
            "held_on": "1997-06-01",
            "standings": [{"player": n(p), "rank": 1 + i - i % 2} for i, p in enumerate(crowd)],
        }
        if system == "daanz":
            for entry in body["standings"]:
                entry["centres"] = 5
        if system == "wpe":
            body["class"] = "main"
        ops.append(("tournament", body))
        ops.append(("void", ("tournaments", "t1")))
        return ops

    if system in ("nadf", "kinzett"):
        seven = ["mu", "opponent", "rating", "2", "sigma", "deviation", "player"]
        for gid, units, names, solo in [
            ("g1", 1, seven, True),
            ("g2", 2, [*seven[3:], "win", "loss", "opponent"], False),
            ("g3", 3, [seven[1], seven[0], *seven[2:]], False),
        ]:
            centres = [18, 5, 4, 3, 2, 1, 0] if solo else [8, 8, 6, 4, 3, 2, 0]
            winners = 1 if solo else 2
            entries = []
            for i, p in enumerate(names):
                entry: dict[str, Any] = {
                    "player": n(p),
                    "faction": POWERS[i],
                    "centres": centres[i],
                    "rank": 1 if i < winners else 2,
                }
                if centres[i] == 0:
                    entry["eliminated_in"] = 1905
                entries.append(entry)
            game(gid, units, end_year=1910, players=entries)
            if gid == "g2":
                ops.append(
                    ("adjust", (n("opponent"), {"rating": 1600.0, "at": _time(system, 2.5)}))
                )
        for gid, crowd in [("c1", BYSTANDERS[:7]), ("c2", BYSTANDERS[7:14])]:
            game(
                gid,
                4,
                end_year=1910,
                players=[
                    {"player": n(p), "faction": POWERS[i], "centres": 4, "rank": 1 if i < 2 else 2}
                    for i, p in enumerate(crowd)
                ],
            )
        ops.append(("void", ("games", "g1")))
        return ops

    draw = 3 if whole else 2  # ttt's default refuses draws
    faction: dict[str, Any] = {"faction": "Orc"} if info.per_faction else {}
    if system in ("naf", "whr"):  # two players a game
        game("g1", 1, players=players(("mu", 1), ("opponent", 2), **faction))
        game("g2", 2, players=players(("2", 1), ("opponent", 2), **faction))
        game("g3", 3, players=players(("rating", 1), ("2", 2), **faction))
    else:
        game("g1", 1, players=players(("mu", 1), ("opponent", 2), ("rating", draw)))
        game("g2", 2, players=players(("2", 2), ("opponent", 1), ("sigma", 3), ("winner", 4)))
        game("g3", 3, players=players(("rating", 1), ("2", 2), ("draw", draw + 1)))
    if system != "whr":  # whr rates no teams
        size = 2 if info.sides else 1
        pool = ["rating", "sigma", "2", "deviation", "opponent", "player", "mu", "win"]
        sides: list[dict[str, Any]] = []
        labels = [("opponent", 1), (None, 2), (None, 2 if not whole else 3)]
        if system == "naf":
            labels = labels[:2]
        for index, (label, rank) in enumerate(labels):
            members = [
                {"player": n(p), **faction} for p in pool[index * size : index * size + size]
            ]
            side: dict[str, Any] = {"rank": rank, "players": members}
            if label is not None:
                side["team"] = label
            sides.append(side)
        if info.weights:
            sides[0]["players"][0]["weight"] = 0.5
        game("s1", 4, teams=sides)
        # Labels "2" and "opponent" on sides that do not hold those players.
        relabelled = [dict(s) for s in sides]
        relabelled[0]["team"], relabelled[1]["team"] = "2", "opponent"
        game("s2", 5, teams=relabelled)
    if info.weights:  # a free-for-all of weights is rated side by side without labels
        weighted = players(("opponent", 1), ("mu", 2), ("2", 3))
        weighted[0]["weight"] = 0.5
        game("w1", 6, players=weighted)
    if not whole:
        adjustment = {"rating": 1600.0, "at": _time(system, 2.5), "reason": "rating", **faction}
        ops.append(("adjust", (n("opponent"), adjustment)))
    ops.append(("void", ("games", "g2")))
    if system != "whr":
        ops.append(("void", ("games", "s1")))
    game("g4", 1.5, players=players(("opponent", 1), ("2", 2), **faction))  # late
    if system in ("naf", "whr"):
        for index, other in enumerate(BYSTANDERS):
            game(
                f"c{index}", 7 + index / 20, players=players(("opponent", 1), (other, 2), **faction)
            )
    else:  # four a game (Fundox takes 2 to 4)
        ranks = (1, 2, 3, 4) if whole else (1, 1, 3, 4)
        for index in range(0, len(BYSTANDERS), 3):
            crowd = ["opponent", *BYSTANDERS[index : index + 3]]
            game(f"c{index}", 7 + index / 20, players=players(*zip(crowd, ranks, strict=False)))
    return ops


async def play(client: httpx.AsyncClient, ladder: str, ops: list[Op]) -> None:
    for kind, payload in ops:
        if kind in ("game", "tournament"):
            response = await client.post(f"/{kind}s", json={"ladder": ladder, **payload})
            assert response.status_code == 201, (payload, response.text)
        elif kind == "adjust":
            player, body = payload
            response = await client.put(f"/ladders/{ladder}/players/{player}", json=body)
            assert response.status_code == 200, (payload, response.text)
        else:
            route, external = payload
            response = await client.delete(f"/ladders/{ladder}/{route}/{external}")
            assert response.status_code == 200, (payload, response.text)


#: What two ladders of the same history may differ in: ids, times of writing, hashes (an
#: erasure rehashes; a rename keeps the hash of the body as posted).
IGNORED = {
    "ladders": {"id", "title", "created_at", "updated_at", "community", "archived_at"},
    "events": {"seq", "ladder_id", "body_hash", "created_at"},
    "changes": {"id", "ladder_id", "event_seq", "seq", "prev_change_id"},
    "player_ratings": {"ladder_id", "last_change_id", "last_event_seq"},
    "feed_items": {"id", "ladder_id", "at"},
    "player_fits": {"ladder_id"},
    "ladder_fits": {"ladder_id", "at"},
    "tournament_teams": {"ladder_id"},
}
ORDER = {
    "events": ("seq",),
    "changes": ("seq", "position"),
    "player_ratings": ("player", "faction"),
    "feed_items": ("cursor",),
    "player_fits": ("player",),
    "tournament_teams": ("tournament", "player"),
}


def ordered(table: str, row: dict[str, Any], names: dict[str, str]) -> list[Any]:
    """The row's place in its table: its ``ORDER`` columns, a name as renamed by ``names``."""
    return [
        names.get(v, v) if isinstance(v, str) else v for v in (row[c] for c in ORDER.get(table, ()))
    ]


def rows(
    database: Database, ladder: str, *, fresh: bool, names: dict[str, str] | None = None
) -> dict[str, list[dict[str, Any]]]:
    """Each table's rows of the ladder, in an order that does not depend on the ids'
    spelling (a player key ordered by its name under ``names``). ``fresh``: without what
    two ladders of one history may differ in, voided times as flags, the feed's ratings in
    player order (stored in the order of the names when written)."""
    rename = names or {}
    found: dict[str, list[dict[str, Any]]] = {}
    with database.engine.connect() as connection:
        for table in Base.metadata.sorted_tables:
            if table.name not in IGNORED:
                continue
            of = table.c.id if table.name == "ladders" else table.c.ladder_id
            listed = [
                dict(r._mapping) for r in connection.execute(select(table).where(of == ladder))
            ]
            listed.sort(key=lambda r: ordered(table.name, r, rename))
            for row in listed:
                if fresh:
                    for column in IGNORED[table.name]:
                        row.pop(column)
                    if table.name == "events":
                        row["voided_at"] = row["voided_at"] is not None
                        row["body"] = {k: v for k, v in row["body"].items() if k != "ladder"}
                    if table.name == "feed_items":
                        row["ratings"] = sorted(
                            row["ratings"], key=lambda r: (r["player"], r["faction"] or "")
                        )
                elif table.name == "events":
                    row.pop("body_hash")  # an erasure's rehash: checked by the fresh ladder
                elif table.name == "ladder_fits":
                    # Stamped anew by a rename, so that the converger does not serve a fit
                    # it made before it (tests/api/test_whole_history_convergence.py).
                    row.pop("at")
            found[table.name] = listed
    return found


def only_renamed(before: Any, after: Any, names: dict[str, str], path: str = "") -> None:
    """``after`` is ``before`` but for strings that were an old id and are its new one (a
    dict's keys are never renamed: no player id is a key of what is stored)."""
    if isinstance(before, str) and names.get(before) == after:
        return
    if isinstance(before, dict) and isinstance(after, dict):
        assert list(before) == list(after), (path, list(before), list(after))
        for key in before:
            only_renamed(before[key], after[key], names, f"{path}.{key}")
        return
    if isinstance(before, list) and isinstance(after, list):
        assert len(before) == len(after), path
        for index, (b, a) in enumerate(zip(before, after, strict=True)):
            only_renamed(b, a, names, f"{path}[{index}]")
        return
    assert type(before) is type(after), (path, before, after)
    assert before == after, (path, before, after)


def same(renamed: Any, fresh: Any, tolerance: float, path: str) -> None:
    """Equal, floats within ``tolerance``."""
    if isinstance(renamed, float) and isinstance(fresh, float) and tolerance:
        assert abs(renamed - fresh) <= tolerance, (path, renamed, fresh)
    elif isinstance(renamed, dict) and isinstance(fresh, dict):
        assert list(renamed) == list(fresh), (path, list(renamed), list(fresh))
        for key in renamed:
            same(renamed[key], fresh[key], tolerance, f"{path}.{key}")
    elif isinstance(renamed, list) and isinstance(fresh, list):
        assert len(renamed) == len(fresh), path
        for index, (r, f) in enumerate(zip(renamed, fresh, strict=True)):
            same(r, f, tolerance, f"{path}[{index}]")
    else:
        assert type(renamed) is type(fresh), (path, renamed, fresh)
        assert renamed == fresh, (path, renamed, fresh)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
async def test_players_named_like_fields_are_renamed_and_erased_alone(
    client: httpx.AsyncClient, database: Database, system: str
) -> None:
    params = PARAMS.get(system)
    created = await client.post("/ladders", json={"id": "l", "system": system, "params": params})
    assert created.status_code == 201, created.text
    await play(client, "l", script(system, lambda p: p))
    before = rows(database, "l", fresh=False)

    for old, new in RENAMED.items():
        response = await client.post(f"/players/{old}/rename", json={"to": new})
        assert response.status_code == 200, response.text
    erased = await client.delete(f"/players/{ERASED}")
    assert erased.status_code == 200, erased.text
    names = {**RENAMED, ERASED: erased.json()["player"]}

    after = rows(database, "l", fresh=False, names=names)
    for table, listed in before.items():
        # In the order of the new names, as ``after`` is.
        listed.sort(key=lambda r: ordered(table, r, names))
        only_renamed(listed, after[table], names, table)

    await client.post(
        "/ladders", json={"id": "fresh", "system": system, "params": params, "community": "f"}
    )
    await play(client, "fresh", script(system, lambda p: names.get(p, p)))
    renamed = rows(database, "l", fresh=True)
    fresh = rows(database, "fresh", fresh=True)
    for table in renamed:
        same(renamed[table], fresh[table], FIT_TOLERANCE.get(system, 0.0), table)
