"""Schemathesis against the app's own OpenAPI document, in process, on SQLite and PostgreSQL.

Every operation of ``/openapi.json`` is exercised with schema-valid (positive) and
schema-violating (negative) data, the admin token attached (negative cases also drop it), against
a database seeded with ladders of six systems, games and tournaments (``seed.py``); a hook points
most schema-valid cases at the seeded rows. Every response goes through Schemathesis' default
checks: no 5xx, status code, content type, body and headers as documented, negative data
rejected, valid data accepted (a semantic 422 counts as handled), authentication not ignored,
unsupported methods refused.

Held back, each pinned by a failing test in ``test_findings.py`` until the service is fixed:

- ``allow_header_conformance``: a 405 names only one route's method in ``Allow``;
- an undocumented 400 for a request body that is not UTF-8 (``PENDING_STATUSES``).

``RATINGS_FUZZ_STRICT=1`` runs without holding anything back.
"""

from __future__ import annotations

import os
import tempfile
from typing import TYPE_CHECKING, Any

import anyio
import httpx
import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis import Response
from schemathesis.config import SchemathesisConfig
from schemathesis.core.failures import Failure
from schemathesis.core.parameters import ParameterLocation
from schemathesis.openapi.checks import UndefinedStatusCode

from app.core.database import Database
from app.main import create_app
from tests.conftest import AUTH, make_settings
from tests.fuzz.seed import GAME_IDS, LADDERS, PLAYERS, TOURNAMENT_IDS, seed_requests

if TYPE_CHECKING:
    from schemathesis.specs.openapi.schemas import OpenApiCase

#: Per operation (fuzzing phase; the examples and coverage phases add their own cases).
MAX_EXAMPLES = 40

STRICT = os.environ.get("RATINGS_FUZZ_STRICT") == "1"
#: Failing checks and undocumented statuses of known, reported service bugs (see the docstring).
KNOWN_FAILING_CHECKS = () if STRICT else ("allow_header_conformance",)
PENDING_STATUSES = frozenset() if STRICT else frozenset({400})

#: Values of seeded rows for the path parameters of the document.
KNOWN_PATH_VALUES: dict[str, tuple[str, ...]] = {
    "ladder": tuple(LADDERS),
    "player": PLAYERS,
    "game_id": GAME_IDS,
    "tournament_id": TOURNAMENT_IDS,
    "system_id": tuple(sorted(set(LADDERS.values()))),
}

CONFIG: dict[str, Any] = {
    "headers": dict(AUTH),
    "generation": {"mode": "all", "max-examples": MAX_EXAMPLES},  # positive and negative
    "checks": {
        **{name: {"enabled": False} for name in KNOWN_FAILING_CHECKS},
        # A schema-violating body may be too large for the body limit: 413 is a fine refusal.
        "negative_data_rejection": {
            "expected-statuses": [
                *("400", "401", "403", "404", "405", "409", "413", "415"),
                *("422", "428", "429", "5xx"),
            ]
        },
        # Schema-valid is not valid: a player twice, an unknown system, an expiry in the past,
        # ... are semantic 422s the JSON Schema cannot express; a batch of 10,000 valid games is
        # over the body limit (413).
        "positive_data_acceptance": {
            "expected-statuses": [
                *("2xx", "401", "403", "404", "409", "413", "422", "429", "5xx"),
            ]
        },
    },
}

#: The document is served by an app like the tested ones: nothing touches a database to serve
#: it (SQLAlchemy connects lazily, so the file named here is never created). Each test then
#: sends its requests to its own app on its own seeded database (``app=``).
_UNUSED_DATABASE = Database(f"sqlite:///{tempfile.gettempdir()}/ratings-fuzz-never-opened.db")
DOCUMENT_APP = create_app(make_settings(), database=_UNUSED_DATABASE)
schema = schemathesis.openapi.from_asgi(
    "/openapi.json", DOCUMENT_APP, config=SchemathesisConfig.from_dict(CONFIG)
)


ROSTER = (*PLAYERS, "erin", "frank", "grace", "heidi", "ivan", "judy")


def _steer_body(body: dict[str, Any], ladder: str, event_id: str | None) -> None:
    """Same shape, real ladder, the path's id, distinct players (a player twice is a 422)."""
    if "ladder" in body:
        body["ladder"] = ladder
    if event_id is not None and "id" in body:
        body["id"] = event_id
    for key in ("players", "standings"):
        entries = body.get(key)
        if isinstance(entries, list):
            for index, entry in enumerate(entries):
                if isinstance(entry, dict) and "player" in entry:
                    entry["player"] = ROSTER[index] if index < len(ROSTER) else f"p{index}"
    games = body.get("games")
    if isinstance(games, list):
        for index, game in enumerate(games):
            if isinstance(game, dict):
                _steer_body(game, ladder, f"batch-{index}")


@schema.hook
def flatmap_case(
    _context: schemathesis.HookContext, case: OpenApiCase
) -> st.SearchStrategy[OpenApiCase]:
    """Two times in three, point the schema-valid parts of a case at the seeded rows (path
    parameters, and a body's ladder, id and players), so that operations run on real ladders,
    players, games and tournaments instead of answering 404 or "player twice"."""
    meta = case.meta
    path_names = [name for name in case.path_parameters or {} if name in KNOWN_PATH_VALUES]
    if meta is not None and meta.is_negative_at(ParameterLocation.PATH):
        path_names = []
    steer_body = isinstance(case.body, dict) and not (
        meta is not None and meta.is_negative_at(ParameterLocation.BODY)
    )
    if not path_names and not steer_body:
        return st.just(case)

    def steer(drawn: tuple[dict[str, str], str]) -> OpenApiCase:
        values, ladder = drawn
        case.path_parameters = {**(case.path_parameters or {}), **values}
        if steer_body and isinstance(case.body, dict):
            path = case.path_parameters
            event_id = path.get("game_id") or path.get("tournament_id")
            _steer_body(case.body, path.get("ladder", ladder), event_id)
        return case

    path_values = st.fixed_dictionaries(
        {name: st.sampled_from(KNOWN_PATH_VALUES[name]) for name in path_names}
    )
    steered = st.tuples(path_values, st.sampled_from(tuple(LADDERS))).map(steer)
    return st.one_of(st.just(case), steered, steered)


@schema.hook
def filter_failure(
    _context: schemathesis.HookContext, failure: Failure, _case: OpenApiCase, _response: Response
) -> bool:
    return not (
        isinstance(failure, UndefinedStatusCode) and failure.status_code in PENDING_STATUSES
    )


async def _seed(app: FastAPI) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://seed", headers=AUTH) as http:
        for method, path, body in seed_requests():
            response = await http.request(method, path, json=body)
            assert response.is_success, (method, path, response.status_code, response.text)


@pytest.fixture
def seeded_app(database: Database) -> FastAPI:
    app = create_app(make_settings(database_url=str(database.url)), database=database)
    anyio.run(_seed, app)
    return app


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case: OpenApiCase, seeded_app: FastAPI) -> None:
    if "follow" in (case.query or {}):
        # A followed feed streams until its client hangs up: tests/api/test_feed.py reads
        # one; every other shape of the request is fuzzed here.
        case.query = {**(case.query or {}), "follow": "false"}
    case.call_and_validate(app=seeded_app)
