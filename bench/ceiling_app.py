"""The no-database ceiling for POST /games: the same framework path, without the database.

Served by uvicorn exactly like ``ratings serve`` (uvloop + httptools, no access log, the same
worker count), it parses the body with the service's own model (``app.schemas.events.GameIn``,
so the same validation), checks the bearer token with the service's own dependency, runs the
endpoint in the thread pool (a plain ``def``, like the service's), and answers 201 with a small
JSON body. Whatever the real endpoint costs beyond this is the database, the rating and the
building of the full response.

    .venv/bin/python -m uvicorn --app-dir bench ceiling_app:app --workers 2 --port 8001
"""

from __future__ import annotations

import os
from typing import Any

from fastapi import FastAPI, Response

from app.api.deps import WriteAccess
from app.api.errors import install_error_handlers
from app.core.settings import Settings
from app.schemas.events import GameIn

app = FastAPI(title="Ratings POST /games ceiling (no database)")
# The service's auth dependency reads the token from app.state.settings.
app.state.settings = Settings(admin_token=os.environ.get("RATINGS_ADMIN_TOKEN"))
install_error_handlers(app)


@app.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@app.post("/games", status_code=201, dependencies=[WriteAccess])
def post_game(body: GameIn, response: Response) -> dict[str, Any]:
    response.status_code = 201
    return {
        "ladder": body.ladder,
        "id": body.id,
        "seq": 0,
        "played_at": body.played_at,
        "recomputed_events": 0,
        "players": [p.player for p in body.players],
    }
