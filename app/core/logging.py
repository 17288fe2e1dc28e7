"""Structured (JSON) logging: one object per line."""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

#: Attributes every LogRecord has; anything else passed in ``extra=`` is logged as a field.
_STANDARD_ATTRS = frozenset(vars(logging.makeLogRecord({})).keys()) | {"message", "asctime"}


#: ``json.dumps(entry, default=str)`` builds a new encoder at every call; one built once
#: writes the same text.
_encode = json.JSONEncoder(default=str).encode


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD_ATTRS and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return _encode(entry)


def configure_logging(level: str) -> None:
    # Every request logs a line: skip what each record would otherwise gather and no
    # formatter here prints (the caller's frame, found by walking the stack; thread and
    # process names). The logging HOWTO's "Optimization" section names these switches.
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


#: Fields the request's log line should carry, filled in by whoever learns them (the
#: ladder, the key id). The middleware sets a fresh dict per request; worker threads share it.
_request_fields: ContextVar[dict[str, Any] | None] = ContextVar("request_fields", default=None)


def start_request_fields() -> dict[str, Any]:
    fields: dict[str, Any] = {}
    _request_fields.set(fields)
    return fields


def note(**fields: Any) -> None:
    """Add fields to the current request's log line (no-op outside a request)."""
    current = _request_fields.get()
    if current is not None:
        current.update(fields)
