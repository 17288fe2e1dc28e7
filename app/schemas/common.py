"""Shared pieces of the API models."""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, date, datetime
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StringConstraints,
    model_validator,
)
from pydantic_core import PydanticCustomError

#: Client-chosen identifiers (API.md): 1-100 characters of [A-Za-z0-9._:@-].
IDENTIFIER_PATTERN = r"^[A-Za-z0-9._:@-]{1,100}$"
Identifier = Annotated[
    str,
    StringConstraints(pattern=IDENTIFIER_PATTERN, min_length=1, max_length=100),
    Field(examples=["club-fundox"]),
]

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 500
#: Bounds of numeric query parameters (they reach SQL; past these, databases overflow).
MAX_OFFSET = 1_000_000_000
MAX_COUNT_FILTER = 1_000_000_000
#: Free text in query parameters: no NUL (PostgreSQL text cannot hold it).
QUERY_TEXT_PATTERN = r"^[^\x00]*$"
MAX_TITLE_LENGTH = 200
MAX_TEXT_LENGTH = 500


def _require_utc(value: datetime) -> datetime:
    if value.tzinfo is None:
        raise ValueError(
            "must carry a timezone (RFC 3339, e.g. 2026-11-29T10:00:00Z), "
            f"got {value.isoformat()!r}"
        )
    return in_utc(value)


def in_utc(value: datetime) -> datetime:
    """``value`` (timezone-aware) in UTC; ValueError when that falls outside years 1-9999
    (0001-01-01T00:00:00+01:00 is still year 0 in UTC)."""
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError("is outside years 1 to 9999 once converted to UTC") from None


#: RFC 3339's date-time, its offset left to ``_require_utc`` (which names it when missing).
RFC3339_DATE_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?"
)


#: A time whose "+" became a space: what a query string's "+01:00" decodes to.
_PLUS_DECODED = re.compile(r".*\d{2}:\d{2}(\.\d+)? \d{2}:\d{2}")
PLUS_HINT = " — a '+' in a query string must be sent as %2B"


def received(value: Any) -> str:
    """How an error names the value it was given: JSON text, shortened."""
    text = repr(value) if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def rfc3339_text(value: Any) -> Any:
    """Text times in RFC 3339 only: pydantic would also take a number (or its text) as
    seconds since 1970, which API.md does not allow. Times built in Python pass as they are.
    The refusal echoes what was received."""
    if isinstance(value, datetime):
        return value
    if not isinstance(value, str) or RFC3339_DATE_TIME.fullmatch(value) is None:
        raise ValueError(
            f"must be an RFC 3339 time, e.g. 2026-11-29T10:00:00Z, got {received(value)}"
        )
    return value


def query_time_text(value: Any) -> Any:
    """:func:`rfc3339_text` for a query parameter, where a "+" sent unescaped arrives as a
    space: the refusal says so."""
    try:
        return rfc3339_text(value)
    except ValueError as exc:
        hint = PLUS_HINT if isinstance(value, str) and _PLUS_DECODED.fullmatch(value) else ""
        raise ValueError(f"{exc}{hint}") from None


#: An RFC 3339 timestamp with an explicit offset, normalised to UTC. JSON has no time type,
#: so it is text even in strict bodies (``Strict(False)``: pydantic's strict mode refuses
#: text for a datetime in Python mode, which is how FastAPI validates bodies);
#: ``rfc3339_text`` still refuses everything but RFC 3339 text.
UtcDateTime = Annotated[
    datetime, Strict(False), BeforeValidator(rfc3339_text), AfterValidator(_require_utc)
]

ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def iso_date_text(value: Any) -> Any:
    """Dates as ISO text only (``2012-08-04``), not pydantic's numbers of seconds."""
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    if not isinstance(value, str) or ISO_DATE.fullmatch(value) is None:
        raise ValueError(f"must be an ISO date, e.g. 2012-08-04, got {received(value)}")
    return value


#: An ISO date in a strict body (text, as for :data:`UtcDateTime`).
IsoDate = Annotated[date, Strict(False), BeforeValidator(iso_date_text)]


def _unstorable(loc: tuple[str | int, ...], rule: str) -> PydanticCustomError:
    """The error for a refused part of the body. The check runs on the whole body at once,
    so the part's path travels in the context ("loc", with the bare "rule"), which the API's
    error renderer appends to the body's; the message names the path for other readers."""
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")
    return PydanticCustomError(
        "value_error", "{path}: {rule}", {"path": path or "value", "rule": rule, "loc": loc}
    )


def _reject_unstorable(value: Any, loc: tuple[str | int, ...] = ()) -> None:
    """NaN/Infinity anywhere (API.md), and NUL characters (no database stores them in text)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise _unstorable(loc, "NaN and Infinity are not allowed")
    if isinstance(value, str) and "\x00" in value:
        raise _unstorable(loc, "the NUL character is not allowed")
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and "\x00" in key:
                raise _unstorable(loc, "the NUL character is not allowed")
            _reject_unstorable(item, (*loc, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _reject_unstorable(item, (*loc, index))


def _surely_storable(value: Any) -> bool:
    """True when ``_reject_unstorable`` certainly finds nothing: a quick walk over plain JSON
    values that builds no paths. False means "let the exact check decide"."""
    kind = type(value)
    if kind is str:
        return "\x00" not in value
    if kind is int or kind is bool or value is None:
        return True
    if kind is float:
        return math.isfinite(value)
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str or "\x00" in key or not _surely_storable(item):
                return False
        return True
    if kind is list:
        return all(_surely_storable(item) for item in value)
    return False


class RequestModel(BaseModel):
    """Request bodies: unknown fields are rejected, NaN and infinities too, and types are
    strict: ``"rank": "1"`` is a 422, never read as 1 (API.md "Conventions")."""

    model_config = ConfigDict(
        extra="forbid", allow_inf_nan=False, str_strip_whitespace=False, strict=True
    )

    @model_validator(mode="before")
    @classmethod
    def _storable_values_only(cls, data: Any) -> Any:
        # Free-form parts (ladder params) bypass allow_inf_nan, so check the raw input.
        if not _surely_storable(data):
            _reject_unstorable(data)
        return data


class PartModel(BaseModel):
    """A part of a request body (a game's player, a standing): the rules of ``RequestModel``
    but for the storable-values walk, which the enclosing body already did over the raw
    input, this part included (walking each part again cost an import a tenth of its
    validation)."""

    model_config = RequestModel.model_config


class ResponseModel(BaseModel):
    model_config = ConfigDict(allow_inf_nan=False)


class Problem(BaseModel):
    """RFC 9457 problem details."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    errors: list[dict[str, Any]] | None = None
