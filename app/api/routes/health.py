from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.api.deps import DB

router = APIRouter(tags=["operations"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """200 while the process runs."""
    return {"status": "ok"}


@router.get("/readyz", responses={503: {"description": "The database does not answer"}})
def readyz(db: DB) -> JSONResponse:
    """200 when the database answers, 503 otherwise."""
    if db.ping():
        return JSONResponse({"status": "ready"})
    return JSONResponse({"status": "unavailable"}, status_code=503, headers={"Retry-After": "2"})
