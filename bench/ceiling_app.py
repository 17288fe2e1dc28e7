"""The no-database ceiling for POST /games: the same framework path, without the database.

Served by granian as ``ratings serve`` serves (uvloop, HTTP/1, no access log, spawned workers
with a listening socket each, the same worker count), it parses the body with the service's
own model (``app.schemas.events.GameIn``, so the same validation), checks the bearer token
(FastAPI's ``HTTPBearer`` and a constant-time comparison with ``RATINGS_ADMIN_TOKEN``, as the
service does for the admin token), runs the endpoint in the thread pool (a plain ``def``, like
the service's), and answers 201 with a small JSON body. Whatever the real endpoint costs
beyond this is the database, the rating and the building of the full response.

Only ``GameIn`` comes from the app, so that the ceiling keeps working while the app's internals
(auth, error handling) change.

    RATINGS_ADMIN_TOKEN=... .venv/bin/python bench/ceiling_app.py --workers 2 --port 8001
"""

from __future__ import annotations

import argparse
import hmac
import os
import sys
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.schemas.events import GameIn

TOKEN = os.environ.get("RATINGS_ADMIN_TOKEN", "").encode()
bearer = HTTPBearer(auto_error=False)

app = FastAPI(title="Ratings POST /games ceiling (no database)")


def require_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> None:
    if credentials is None or not TOKEN:
        raise HTTPException(401, "this request needs a bearer token")
    if not hmac.compare_digest(credentials.credentials.encode(), TOKEN):
        raise HTTPException(401, "the bearer token is not valid")


@app.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@app.post("/games", status_code=201, dependencies=[Depends(require_token)])
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


def main() -> None:
    import multiprocessing

    from granian.constants import HTTPModes, Interfaces
    from granian.log import LogLevels
    from granian.server import Server

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    # The workers import this module by name (spawned processes inherit sys.path).
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    multiprocessing.set_start_method("spawn", force=True)  # as ratings serve
    Server(
        "ceiling_app:app",
        address=args.host,
        port=args.port,
        interface=Interfaces.ASGI,
        workers=args.workers,
        http=HTTPModes.http1,
        websockets=False,
        log_level=LogLevels.warning,
    ).serve()


if __name__ == "__main__":
    main()
