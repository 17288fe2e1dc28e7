from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from app.api.deps import DB
from app.core import metrics

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


@router.get("/metrics", response_class=Response)
def get_metrics(db: DB) -> Response:
    """Prometheus text format. Open like /healthz: keep it on the internal network."""
    db.observe_pool()
    body, content_type = metrics.render()
    return Response(body, media_type=content_type)
