"""Bodies of ``POST /ladders/{ladder}/evaluate`` and ``/tune`` (API.md "Evaluation and
tuning"; the metrics are SYSTEMS.md "Evaluation")."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from app.schemas.common import (
    MAX_COUNT_FILTER,
    MAX_TITLE_LENGTH,
    PartModel,
    RequestModel,
    ResponseModel,
    UtcDateTime,
)

#: API.md: a tuning grid holds at most 200 points; an evaluation compares at most as many
#: candidates (each is a replay of the whole history, like a grid point).
MAX_POINTS = 200
#: The metrics a tuning may sort by; the first is the default.
Metric = Literal["log_loss", "brier", "accuracy"]


#: One parameter's values in a grid.
Values = Annotated[list[Any], Field(min_length=1, max_length=MAX_POINTS)]


class CandidateIn(PartModel):
    """A system and parameters to evaluate. ``system`` defaults to the ladder's; the ladder's
    own system keeps the ladder's parameters under ``params``, another starts from its
    defaults (as a what-if does)."""

    label: str | None = Field(default=None, min_length=1, max_length=MAX_TITLE_LENGTH)
    system: str | None = Field(default=None, min_length=1, max_length=32)
    params: dict[str, Any] | None = None


class _Window(RequestModel):
    """Which games are scored (all earlier ones still rate)."""

    min_games: int = Field(
        default=0,
        ge=0,
        le=MAX_COUNT_FILTER,
        description="A pair counts when every player of both sides had this many rated games.",
    )
    from_: UtcDateTime | None = Field(
        default=None, alias="from", description="Score only games played at or after this time."
    )
    to: UtcDateTime | None = Field(
        default=None, description="Score only games played at or before this time."
    )


class EvaluateIn(_Window):
    candidates: list[CandidateIn] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_POINTS,
        description="Default: the ladder's own system and parameters.",
    )


class TuneIn(_Window):
    system: str | None = Field(default=None, min_length=1, max_length=32)
    grid: dict[str, Values] = Field(
        min_length=1,
        description=f"Values of each parameter; every combination is a point (at most "
        f"{MAX_POINTS}).",
        examples=[{"k": [16, 24, 32, 40]}],
    )
    metric: Metric = "log_loss"


class CalibrationBinOut(ResponseModel):
    low: float
    high: float
    count: int
    predicted: float | None
    observed: float | None


class MetricsOut(ResponseModel):
    games: int
    pairs: int
    log_loss: float | None
    brier: float | None
    accuracy: float | None
    calibration: list[CalibrationBinOut]


class EvaluationResult(MetricsOut):
    label: str
    system: str
    params: dict[str, Any]


class EvaluateOut(ResponseModel):
    ladder: str
    baseline: MetricsOut
    results: list[EvaluationResult]


class TunePoint(ResponseModel):
    params: dict[str, Any]
    log_loss: float | None
    brier: float | None
    accuracy: float | None
    games: int
    pairs: int


class TuneOut(ResponseModel):
    ladder: str
    system: str
    metric: Metric
    results: list[TunePoint]
