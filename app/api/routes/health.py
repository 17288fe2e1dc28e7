from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from app.api.deps import DB
from app.api.errors import problem_response
from app.core import metrics
from app.core.errors import Unavailable

router = APIRouter(tags=["operations"])


@router.get("/healthz")
def get_health() -> dict[str, str]:
    """200 while the process runs."""
    return {"status": "ok"}


@router.get("/readyz", responses={503: {"description": "The database does not answer"}})
def get_readiness(db: DB) -> JSONResponse:
    """200 when the database answers, 503 otherwise."""
    if db.ping():
        return JSONResponse({"status": "ready"})
    return problem_response(
        503,
        "Service unavailable",
        "the database does not answer",
        headers={"Retry-After": str(Unavailable.retry_after_seconds)},
    )


@router.get(
    "/metrics",
    response_class=Response,
    responses={
        200: {
            "description": "Prometheus text exposition format",
            "content": {"text/plain; version=0.0.4": {"schema": {"type": "string"}}},
        }
    },
)
def get_metrics(db: DB) -> Response:
    """Prometheus text format. Open like /healthz: keep it on the internal network."""
    db.observe_pool()
    body, content_type = metrics.render()
    return Response(body, media_type=content_type)
