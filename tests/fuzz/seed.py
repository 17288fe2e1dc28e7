"""A small, fixed population of ladders, games and tournaments for the fuzz tests.

Ladder ids are chosen so that the fuzzers' path parameters (``ladder=club``, ``player=alice``,
``game_id=g1``) hit real rows: one ladder per kind of system (duel, per-faction, period,
Diplomacy game, tournament).
"""

from __future__ import annotations

from typing import Any, Final

#: ladder id -> system
LADDERS: Final[dict[str, str]] = {
    "club": "fundox",
    "elo": "elo",
    "naf": "naf",
    "glicko2": "glicko2",
    "wdd": "dptr",
    "kinzett": "kinzett",
}
PLAYERS: Final[tuple[str, ...]] = ("alice", "bob", "carol", "dave")
GAME_IDS: Final[tuple[str, ...]] = ("g1", "g2")
TOURNAMENT_IDS: Final[tuple[str, ...]] = ("t1", "t2", "manorcon-2026")

_DIPLOMACY = [
    ("alice", "F", 17, 1, None),
    ("bob", "G", 16, 1, None),
    ("carol", "I", 1, 1, None),
    ("dave", "A", 0, 2, 1905),
    ("erin", "E", 0, 2, 1906),
    ("frank", "R", 0, 2, 1907),
    ("grace", "T", 0, 2, 1908),
]


def _game(
    ladder: str, game_id: str, minute: int, players: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    return {
        "ladder": ladder,
        "id": game_id,
        "played_at": f"2026-01-0{minute}T10:00:00Z",
        "players": players,
        **extra,
    }


def _ranked(*names: str) -> list[dict[str, Any]]:
    return [{"player": name, "rank": index + 1} for index, name in enumerate(names)]


def seed_requests() -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path, body) to replay against an empty database, each expecting a 2xx."""
    requests: list[tuple[str, str, dict[str, Any]]] = [
        ("POST", "/ladders", {"id": ladder, "system": system, "title": f"{system} ladder"})
        for ladder, system in LADDERS.items()
    ]
    for ladder in ("club", "elo", "glicko2"):
        requests.append(
            ("POST", "/games", _game(ladder, "g1", 1, _ranked("alice", "bob", "carol")))
        )
        requests.append(("POST", "/games", _game(ladder, "g2", 2, _ranked("bob", "dave"))))
    naf_players = [
        {"player": "alice", "faction": "Orc", "rank": 1},
        {"player": "bob", "faction": "Elf", "rank": 2},
    ]
    requests.append(("POST", "/games", _game("naf", "g1", 1, naf_players, event={"coaches": 48})))
    requests.append(
        (
            "POST",
            "/games",
            _game("naf", "g2", 2, naf_players[::-1], event={"coaches": 12, "major": True}),
        )
    )
    diplomacy = [
        {"player": p, "faction": f, "centres": c, "rank": r}
        | ({"eliminated_in": e} if e is not None else {})
        for p, f, c, r, e in _DIPLOMACY
    ]
    requests.append(
        (
            "POST",
            "/games",
            _game("kinzett", "g1", 1, diplomacy, end_year=1909, tournament="manorcon-2026"),
        )
    )
    requests.append(
        (
            "PUT",
            "/ladders/kinzett/tournaments/manorcon-2026/teams",
            {"teams": {"north": ["alice", "dave"], "south": ["bob"]}},
        )
    )
    for index, tid in enumerate(("t1", "t2")):
        standings = [{"player": p, "rank": r + 1} for r, p in enumerate(PLAYERS)]
        requests.append(
            (
                "POST",
                "/tournaments",
                {
                    "ladder": "wdd",
                    "id": tid,
                    "held_on": f"2012-0{index + 1}-04",
                    "rounds": 3,
                    "name": f"Tournament {tid}",
                    "standings": standings,
                },
            )
        )
    requests.append(("PUT", "/ladders/club/players/alice", {"rating": 1700, "reason": "seed"}))
    return requests
