"""The communities' authorisation matrix (issue 37): every route of the app x every kind of
key, aimed at another community's ladders, players and webhooks: nothing of it is readable
(no response carries its data), nothing of it is writable (the database is unchanged), and
what is refused answers as an unknown target would (a foreign id is not told from a missing
one).

The routes are enumerated from the app itself: a new route without a line in ``ROUTES`` (or
``PAGES``, for the pages outside the API) fails the test, so it cannot be left out.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select
from starlette.routing import Route

from app.core.database import Database
from app.main import create_app
from app.models import Base
from tests.conftest import AUTH, make_settings
from tests.helpers import at, game

pytestmark = pytest.mark.anyio

COMMUNITIES = ("site", "fed")
HOOK_URL = "http://127.0.0.1:9/hook"
#: Tables a refused request may change: its key's rate-limit window is counted.
COUNTERS = {"rate_windows", "address_windows"}

OPEN = "open"  # no key needed, no community data
GLOBAL = "global"  # no target: must show nothing foreign
SCOPED = "scoped"  # aimed at a ladder, player or webhook: foreign answers as unknown
KEYS = "keys"  # the admin token's only (keys, deleting a ladder)


@dataclass(frozen=True)
class Call:
    method: str
    path: str
    body: Any
    kind: str
    #: Statuses the admin and the community's own key get besides 2xx (e.g. tournament
    #: standings of a system that scores no points: 422, still past the ladder check).
    allowed: frozenset[int] = frozenset()


def _game(ladder: str, game_id: str, minutes: int, ranks: dict[str, int] | None = None) -> Any:
    return game(ladder, game_id, ranks or {"p1": 1, "p2": 2}, minutes=minutes)


def _tournament(ladder: str, tournament_id: str) -> dict[str, Any]:
    return {
        "ladder": ladder,
        "id": tournament_id,
        "held_on": "2025-01-10",
        "standings": [{"player": "p1", "rank": 1}, {"player": "p2", "rank": 2}],
    }


NOT_POINTS = frozenset({422})
# Placeholders: <L> an elo ladder, <T> a dptr (tournament) ladder, <P> a player, <C> the
# community, <W> a webhook, <K> a spare key, <N> a number new at each call.
ROUTES: list[Call] = [
    Call("GET", "/healthz", None, OPEN),
    Call("GET", "/readyz", None, OPEN),
    Call("GET", "/metrics", None, OPEN),
    Call("GET", "/systems", None, GLOBAL),
    Call("GET", "/systems/elo", None, GLOBAL),
    Call("GET", "/ladders", None, GLOBAL),
    Call("POST", "/ladders", {"id": "<L>-n<N>", "system": "elo", "community": "<C>"}, SCOPED),
    Call("GET", "/ladders/<L>", None, SCOPED),
    Call("PATCH", "/ladders/<L>", {"title": "<C>-secret"}, SCOPED),
    Call("POST", "/ladders/<L>/whatif", {"system": "elo"}, SCOPED),
    Call("POST", "/ladders/<L>/evaluate", {}, SCOPED),
    Call("POST", "/ladders/<L>/tune", {"grid": {"k": [16, 32]}}, SCOPED),
    Call("POST", "/games", _game("<L>", "n<N>", 20), SCOPED),
    Call("POST", "/games/batch", {"games": [_game("<L>", "n<N>", 21)]}, SCOPED),
    Call("GET", "/ladders/<L>/games/g1", None, SCOPED),
    Call("PUT", "/ladders/<L>/games/g1", _game("<L>", "g1", 1), SCOPED),
    Call("GET", "/ladders/<L>/games", None, SCOPED),
    Call("GET", "/ladders/<L>/feed", None, SCOPED),
    Call("GET", "/ladders/<L>/players/<P>", None, SCOPED),
    Call("GET", "/ladders/<L>/players/<P>/history", None, SCOPED),
    Call("GET", "/ladders/<L>/players/<P>/opponents", None, SCOPED),
    # <L> is an elo ladder: a curve is a whole-history system's (422), past the ladder check.
    Call("GET", "/ladders/<L>/players/<P>/curve", None, SCOPED, frozenset({422})),
    Call("PUT", "/ladders/<L>/players/<P>", {"rating": 1700, "at": at(30)}, SCOPED),
    Call("GET", "/ladders/<L>/leaderboard", None, SCOPED),
    Call("GET", "/ladders/<L>/players?search=p", None, SCOPED),
    Call("PUT", "/players/<P>?community=<C>", {"name": "<C>-secret one"}, SCOPED),
    Call("GET", "/players/<P>?community=<C>", None, SCOPED),
    Call("POST", "/predictions", {"ladder": "<L>", "players": [{"player": "<P>"},
                                                                {"player": "p2"}]}, SCOPED),
    Call("POST", "/ladders/<L>/balance", {"players": [{"player": "<P>"}, {"player": "p2"}]},
         SCOPED),
    Call("POST", "/ladders/<L>/seasons", {"id": "s<N>", "starts_at": at(-700)}, SCOPED),
    Call("GET", "/ladders/<L>/seasons", None, SCOPED),
    Call("GET", "/ladders/<L>/seasons/s0", None, SCOPED),
    Call("PUT", "/ladders/<L>/seasons/s0", {"id": "s0", "starts_at": at(-500)}, SCOPED),
    Call("DELETE", "/ladders/<L>/seasons/s0", None, SCOPED),
    Call("POST", "/tournaments", _tournament("<T>", "t<N>"), SCOPED),
    Call("POST", "/tournaments/batch", {"tournaments": [_tournament("<T>", "u<N>")]}, SCOPED),
    Call("GET", "/ladders/<T>/tournaments/t1", None, SCOPED),
    Call("PUT", "/ladders/<T>/tournaments/t1", _tournament("<T>", "t1"), SCOPED),
    Call("GET", "/ladders/<T>/tournaments", None, SCOPED),
    Call("GET", "/ladders/<T>/tournaments/t1/standings", None, SCOPED, NOT_POINTS),
    Call("PUT", "/ladders/<T>/tournaments/t1/teams", {"teams": {"x": ["p1"]}}, SCOPED,
         NOT_POINTS),
    Call("GET", "/ladders/<T>/tournaments/t1/teams", None, SCOPED, NOT_POINTS),
    Call("DELETE", "/ladders/<T>/tournaments/t1", None, SCOPED),
    Call("DELETE", "/ladders/<L>/games/g1", None, SCOPED),
    Call("POST", "/webhooks", {"url": HOOK_URL, "ladders": ["<L>"]}, SCOPED),
    Call("GET", "/webhooks", None, GLOBAL),
    Call("GET", "/webhooks/<W>", None, SCOPED),
    Call("GET", "/webhooks/<W>/deliveries", None, SCOPED),
    Call("POST", "/webhooks/<W>/replay", {"after": 0}, SCOPED),
    Call("DELETE", "/webhooks/<W>", None, SCOPED),
    # A merge of players who played one game together: refused, past the player check.
    Call("POST", "/players/<P>/merge?community=<C>", {"into": "p2"}, SCOPED, frozenset({409})),
    # Last of the player's calls: the rename, then the erasure of the renamed player.
    Call("POST", "/players/<P>/rename?community=<C>", {"to": "<P>-renamed"}, SCOPED),
    Call("DELETE", "/players/<P>-renamed?community=<C>", None, SCOPED),
    Call("GET", "/audit", None, KEYS),
    Call("POST", "/keys", {"name": "x", "scopes": ["read"], "communities": ["<C>"]}, KEYS),
    Call("GET", "/keys", None, KEYS),
    Call("DELETE", "/keys/<K>", None, KEYS),
    # Last: the admin's run deletes the ladder.
    Call("DELETE", "/ladders/<L>?confirm=<L>", None, KEYS),
]  # fmt: skip

#: The pages outside the API (their data comes from the API routes above).
PAGES = {
    "/openapi.json": "/openapi.json",
    "/dashboard": "/dashboard",
    "/dashboard/static/{path:path}": "/dashboard/static/app.js",
    "/docs": "/docs",
    "/redoc": "/redoc",
    "/docs/static/{path:path}": None,  # the docs' own assets: no community data
}


def _template(call: Call) -> tuple[str, str]:
    path = call.path.split("?")[0]
    for name, value in (("<L>", "{ladder}"), ("<T>", "{ladder}"), ("<W>", "{webhook_id}")):
        path = path.replace(name, value)
    replacements = {
        "/games/g1": "/games/{game_id}",
        "/tournaments/t1": "/tournaments/{tournament_id}",
        "/seasons/s0": "/seasons/{season}",
        "/players/<P>-renamed": "/players/{player}",
        "/players/<P>": "/players/{player}",
        "/systems/elo": "/systems/{system_id}",
        "/keys/<K>": "/keys/{key_id}",
    }
    for concrete, template in replacements.items():
        path = path.replace(concrete, template)
    return call.method, path


def _pages(app: FastAPI) -> Iterator[Route]:
    pending: list[Any] = list(app.routes)
    while pending:
        route = pending.pop()
        if isinstance(route, Route):
            yield route
        else:
            pending.extend(getattr(getattr(route, "original_router", route), "routes", ()))


def test_every_route_is_in_the_matrix() -> None:
    app = create_app(make_settings())
    api = {(m.upper(), p) for p, ops in app.openapi()["paths"].items() for m in ops}
    assert {_template(call) for call in ROUTES} == api
    outside = {r.path for r in _pages(app) if not r.include_in_schema}
    assert outside == set(PAGES)


def _fill(value: Any, values: dict[str, str]) -> Any:
    if isinstance(value, str):
        for name, concrete in values.items():
            value = value.replace(name, concrete)
        return value
    if isinstance(value, list):
        return [_fill(v, values) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, values) for k, v in value.items()}
    return value


def _snapshot(database: Database) -> dict[str, list[Any]]:
    with database.engine.connect() as connection:
        return {
            table.name: sorted(map(repr, connection.execute(select(table)).all()))
            for table in Base.metadata.sorted_tables
            if table.name not in COUNTERS
        }


class Matrix:
    def __init__(self, http: httpx.AsyncClient, database: Database) -> None:
        self.http, self.database = http, database
        self.counter = 0
        self.webhooks: dict[str, str] = {}
        self.spare_key = ""

    async def send(
        self, call: Call, token: str, values: dict[str, str], again: bool = False
    ) -> httpx.Response:
        """``call`` with ``values``; ``again``: with the previous call's number."""
        self.counter += 0 if again else 1
        values = {**values, "<N>": str(self.counter), "<K>": self.spare_key}
        return await self.http.request(
            call.method,
            _fill(call.path, values),
            json=_fill(call.body, values),
            headers={"Authorization": f"Bearer {token}"},
        )

    def target(self, community: str) -> dict[str, str]:
        return {
            "<L>": f"{community}-l",
            "<T>": f"{community}-t",
            "<P>": "p1",
            "<C>": community,
            "<W>": self.webhooks[community],
        }


def _ghost(community: str) -> dict[str, str]:
    """Targets that do not exist, in the same community."""
    return {
        "<L>": "ghost-l",
        "<T>": "ghost-t",
        "<P>": "ghost",
        "<C>": community,
        "<W>": "wh_" + "0" * 24,
    }


def _as_ghost(text: str, target: dict[str, str]) -> str:
    for name, ghost in _ghost(target["<C>"]).items():
        quoted = target[name]
        text = text.replace(quoted, ghost)
    return text


async def _key(http: httpx.AsyncClient, **body: Any) -> str:
    response = await http.post("/keys", json={"name": "k", **body}, headers=AUTH)
    assert response.status_code == 201, response.text
    token: str = response.json()["key"]
    return token


async def _ok(response: httpx.Response, *statuses: int) -> None:
    assert response.status_code in (statuses or (200, 201)), response.text


async def _community(matrix: Matrix, community: str, own_key: str) -> None:
    """Two ladders, games, a tournament, a season, profiles and a webhook of ``community``,
    its secrets marked ``<community>-secret`` and ``<community>only``."""
    http, admin = matrix.http, AUTH
    for ladder, system in ((f"{community}-l", "elo"), (f"{community}-t", "dptr")):
        body = {"id": ladder, "system": system, "community": community}
        await _ok(await http.post("/ladders", json={**body, "title": f"{community}-secret"}))
    await _ok(await http.post("/games", json=_game(f"{community}-l", "g1", 1), headers=admin))
    only = {f"{community}only": 1, "p1": 2}
    await _ok(await http.post("/games", json=_game(f"{community}-l", "g2", 2, only)))
    await _ok(await http.post("/tournaments", json=_tournament(f"{community}-t", "t1")))
    season = {"id": "s0", "starts_at": at(-600)}
    await _ok(await http.post(f"/ladders/{community}-l/seasons", json=season))
    for player, name in (("p1", "one"), (f"{community}only", "two")):
        profile = {"name": f"{community}-secret {name}", "country": "FR"}
        await _ok(await http.put(f"/players/{player}?community={community}", json=profile))
    hook = {"url": HOOK_URL, "ladders": [f"{community}-l"], "description": f"{community}-secret"}
    created = await http.post(
        "/webhooks", json=hook, headers={"Authorization": f"Bearer {own_key}"}
    )
    await _ok(created)
    matrix.webhooks[community] = created.json()["id"]


async def test_nothing_of_another_community_is_readable_or_writable(database: Database) -> None:
    app = create_app(
        make_settings(database_url=str(database.url), webhook_allowed_hosts="127.0.0.1"),
        database=database,
    )
    everything = ["read", "results:write", "ladders:admin"]
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://ratings.test", headers=AUTH
    ) as http:
        matrix = Matrix(http, database)
        own = {c: await _key(http, scopes=everything, communities=[c]) for c in COMMUNITIES}
        for community in COMMUNITIES:
            await _community(matrix, community, own[community])
        matrix.spare_key = (await http.get("/keys")).json()["keys"][0]["id"]
        # Each kind of limited key, and the community it must not reach.
        kinds = {
            "community key": (own["site"], "fed"),
            "ladder key": (
                await _key(http, scopes=everything, ladders=["site-l", "site-t"]),
                "fed",
            ),
            "read-only key": (await _key(http, scopes=["read"], communities=["site"]), "fed"),
            "another community's key": (own["fed"], "site"),
        }
        for call in ROUTES:
            for kind, (token, foreign) in kinds.items():
                before = _snapshot(database)
                target = matrix.target(foreign)
                response = await matrix.send(call, token, target)
                where = (call.method, call.path, kind)
                for secret in (f"{foreign}-secret", f"{foreign}only"):
                    assert secret not in response.text, (where, response.text)
                assert _snapshot(database) == before, where
                if call.kind == KEYS:
                    assert response.status_code == 403, (where, response.text)
                elif call.kind == SCOPED:
                    assert response.status_code in (403, 404), (where, response.text)
                    ghost = await matrix.send(call, token, _ghost(foreign), again=True)
                    assert ghost.status_code == response.status_code, where
                    seen = json.loads(_as_ghost(response.text, target))
                    assert seen == ghost.json(), where
                else:
                    assert response.status_code == 200 or call.kind == GLOBAL, where
        # The calls are right: the admin, and each community's own key, get them through.
        for call in ROUTES:
            runs = [(matrix.target("fed"), AUTH["Authorization"].removeprefix("Bearer "))]
            if call.kind != KEYS:
                runs.append((matrix.target("site"), own["site"]))
            for values, token in runs:
                response = await matrix.send(call, token, values)
                ok = response.is_success or response.status_code in call.allowed
                assert ok, (call.method, call.path, response.status_code, response.text)
        for path in filter(None, PAGES.values()):
            for token, foreign in kinds.values():
                page = await http.get(path, headers={"Authorization": f"Bearer {token}"})
                assert page.status_code == 200, path
                assert f"{foreign}-secret" not in page.text
