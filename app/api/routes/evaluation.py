"""Evaluation and tuning (API.md "Evaluation and tuning"): heavy reads, like a what-if."""

from __future__ import annotations

from typing import Annotated

import anyio.to_thread
from fastapi import APIRouter, Path, Request, Response

from app.api.costs import run_costed
from app.api.deps import DB, AppSettings, Heavy, Reader, charge
from app.schemas.common import IDENTIFIER_PATTERN
from app.schemas.evaluation import EvaluateIn, EvaluateOut, TuneIn, TuneOut
from app.services import evaluation, heavy

router = APIRouter(tags=["evaluation"])

LadderId = Annotated[str, Path(pattern=IDENTIFIER_PATTERN)]


async def _admit(
    request: Request,
    ladder: str,
    body: EvaluateIn | TuneIn,
    db: DB,
    caller: Reader,
    settings: AppSettings,
) -> int:
    """The caps and the rate limit of one evaluation, before it waits for a slot: at most
    RATINGS_MAX_EVALUATE_EVENTS events replayed in all, counted by them in the rate limit."""
    caller.check_ladder(ladder)
    events = await anyio.to_thread.run_sync(heavy.live_events, db, ladder)
    evaluation.check_cap(settings, events, body)
    weight = evaluation.weight(events, body)
    await charge(request, caller, settings, weight)
    return weight


@router.post("/ladders/{ladder}/evaluate", response_model=EvaluateOut)
async def evaluate_ladder(
    ladder: LadderId,
    body: EvaluateIn,
    request: Request,
    db: DB,
    caller: Reader,
    settings: AppSettings,
    slots: Heavy,
) -> EvaluateOut | Response:
    """Replay the ladder's history under each candidate system and parameters (default:
    the ladder's own), predicting each game before it is rated, and score the predictions
    (log loss, Brier, accuracy, calibration) beside the baseline p = 1/2. Nothing is stored.

    A heavy read (docs/operations.md "Heavy requests"), computed in one of the process's few
    slots and abandoned with its client."""
    weight = await _admit(request, ladder, body, db, caller, settings)
    return await run_costed(
        request,
        caller,
        settings,
        slots,
        lambda cancel: evaluation.evaluate(db, ladder, body, cancel),
        charged=weight,
        heavy=True,
    )


@router.post("/ladders/{ladder}/tune", response_model=TuneOut)
async def tune_ladder(
    ladder: LadderId,
    body: TuneIn,
    request: Request,
    db: DB,
    caller: Reader,
    settings: AppSettings,
    slots: Heavy,
) -> TuneOut | Response:
    """Evaluate every point of a grid of parameter values for one system (at most 200
    points), best first by ``metric``. A heavy read, like evaluate."""
    weight = await _admit(request, ladder, body, db, caller, settings)
    return await run_costed(
        request,
        caller,
        settings,
        slots,
        lambda cancel: evaluation.tune(db, ladder, body, cancel),
        charged=weight,
        heavy=True,
    )
