"""Query parameters shared by several routes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import Path, Query
from pydantic import BeforeValidator

from app.core.errors import Invalid
from app.schemas.common import (
    IDENTIFIER_PATTERN,
    MAX_OFFSET,
    MAX_PAGE_SIZE,
    in_utc,
    query_time_text,
)

LadderId = Annotated[str, Path(pattern=IDENTIFIER_PATTERN)]
PlayerId = Annotated[str, Path(pattern=IDENTIFIER_PATTERN)]
Limit = Annotated[
    int, Query(ge=1, le=MAX_PAGE_SIZE, description=f"Entries per page (at most {MAX_PAGE_SIZE}).")
]
Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET, description="Entries to skip.")]
#: A query time: RFC 3339 text only (not pydantic's numbers of seconds).
QueryTime = Annotated[
    datetime | None,
    BeforeValidator(lambda value: None if value is None else query_time_text(value)),
]


def utc(value: datetime | None, name: str) -> datetime | None:
    """Query times without an offset are refused rather than guessed."""
    if value is None:
        return None
    if value.tzinfo is None:
        raise Invalid.at(
            ("query", name),
            f"must carry a timezone, e.g. 2026-11-29T10:00:00Z, got {value.isoformat()!r}",
        )
    try:
        return in_utc(value)
    except ValueError as exc:
        raise Invalid.at(("query", name), str(exc)) from None
