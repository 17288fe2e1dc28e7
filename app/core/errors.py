"""Domain errors. Each carries its HTTP status; the API renders them once as problem+json."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class FieldError:
    """One validation problem: where in the request, and which rule it breaks."""

    loc: tuple[str | int, ...]
    msg: str


class DomainError(Exception):
    """Base of every error a service raises on purpose."""

    status: int = 500
    title: str = "Internal error"
    type: str = "about:blank"

    def __init__(self, detail: str, *, errors: Sequence[FieldError] = ()) -> None:
        super().__init__(detail)
        self.detail = detail
        self.errors = tuple(errors)
        self.headers: dict[str, str] = {}

    def problem(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "type": self.type,
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
        }
        if self.errors:
            body["errors"] = [{"loc": list(e.loc), "msg": e.msg} for e in self.errors]
        return body


class NotFound(DomainError):
    status = 404
    title = "Not found"


class Conflict(DomainError):
    status = 409
    title = "Conflict"


class Invalid(DomainError):
    """The request is well-formed JSON but breaks a rule (422)."""

    status = 422
    title = "Invalid request"

    @classmethod
    def at(cls, loc: tuple[str | int, ...], msg: str) -> Invalid:
        return cls(f"{'.'.join(str(p) for p in loc)}: {msg}", errors=[FieldError(loc, msg)])


class PreconditionFailed(DomainError):
    """An If-Match that no longer matches the stored version (412): nothing was changed."""

    status = 412
    title = "Precondition failed"


class Unauthorized(DomainError):
    status = 401
    title = "Unauthorized"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.headers = {"WWW-Authenticate": "Bearer"}


class Forbidden(DomainError):
    status = 403
    title = "Forbidden"


class Unavailable(DomainError):
    """The database is unreachable or kept failing; the client may retry."""

    status = 503
    title = "Service unavailable"
    retry_after_seconds = 2

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.headers = {"Retry-After": str(self.retry_after_seconds)}


class StorageFull(Unavailable):
    """The database's storage is full (SQLite's SQLITE_FULL, PostgreSQL's SQLSTATE 53100
    disk_full): the transaction was rolled back; reads go on, writes resume once an operator
    has made room. Retry-After is longer than a busy database's: room is not made in
    seconds."""

    retry_after_seconds = 30


class TooManyRequests(DomainError):
    status = 429
    title = "Too many requests"

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.headers = {"Retry-After": str(max(1, retry_after))}


class PayloadTooLarge(DomainError):
    status = 413
    title = "Payload too large"
