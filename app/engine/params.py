"""Declared ladder parameters: defaults, descriptions, ranges and validation.

Each system declares a tuple of :class:`ParamSpec`; :func:`resolve` checks a client's
``params`` against it and fills in defaults, so a ladder's parameters are always complete.
Every numeric parameter, and every number inside a table, has a range (``GET /systems`` shows
it): within it a system's arithmetic stays finite (docs/systems/README.md, "Ranges").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from app.engine.errors import InvalidParameter
from app.engine.types import Json, frozen

#: The error of :func:`non_increasing_entries` for an empty list when entries are required.
NO_ENTRIES = "must have at least one entry"

#: The largest magnitude of a parameter on a rating's or a score's scale: an initial rating, K,
#: a divisor, a pot, a bonus, an entry of a points table. The published systems stay below
#: 10,000 (Elo 3,000, Glicko 1,500 +- 350, NADF's cap 3,350, WPE 216 points an event); a
#: million leaves room for any rescaling while every sum and product of an event's terms stays
#: hundreds of orders of magnitude below float overflow.
SCALE_LIMIT = 1e6

ParamType = Literal["number", "integer", "string", "boolean", "date", "object", "array"]


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """One parameter of a system."""

    name: str
    type: ParamType
    default: Json
    description: str
    #: The range of a number; for an ``object`` or ``array``, of every number it holds.
    minimum: float | None = None
    maximum: float | None = None
    #: The allowed values of a string parameter.
    choices: tuple[str, ...] | None = None
    #: Extra validation for structured values; raises ``ValueError`` with a message.
    check: Callable[[Json], None] | None = None
    #: Whether ``minimum`` is exclusive (for example a positive K).
    exclusive_minimum: bool = False

    def describe(self) -> dict[str, Json]:
        """The public description served by ``GET /systems``."""
        out: dict[str, Json] = {
            "type": self.type,
            "default": self.default,
            "description": self.description,
        }
        if self.minimum is not None:
            key = "exclusive_minimum" if self.exclusive_minimum else "minimum"
            out[key] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.choices is not None:
            out["choices"] = list(self.choices)
        return out

    def validate(self, value: Json) -> Json:
        """Return the value (ints widened to float for numbers) or raise InvalidParameter."""
        name = self.name
        if self.type == "number":
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InvalidParameter(name, "must be a number")
            if not _finite_number(value):
                raise InvalidParameter(name, "must be finite")
            value = float(value)
        elif self.type == "integer":
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidParameter(name, "must be an integer")
        elif self.type == "string" or self.type == "date":
            if not isinstance(value, str):
                raise InvalidParameter(name, "must be a string")
            if self.choices is not None and value not in self.choices:
                raise InvalidParameter(name, f"must be one of {', '.join(self.choices)}")
        elif self.type == "boolean":
            if not isinstance(value, bool):
                raise InvalidParameter(name, "must be true or false")
        elif self.type == "object":
            if not isinstance(value, dict):
                raise InvalidParameter(name, "must be an object")
        elif self.type == "array" and not isinstance(value, list):
            raise InvalidParameter(name, "must be an array")
        if isinstance(value, int | float) and not isinstance(value, bool):
            rule = self._out_of_range(value)
            if rule is not None:
                raise InvalidParameter(name, rule)
        if self.check is not None:
            try:
                self.check(value)
            # ArithmeticError: float() of an integer too large for a float (JSON has no limit).
            except (ValueError, TypeError, KeyError, ArithmeticError) as exc:
                raise InvalidParameter(name, str(exc)) from exc
        if isinstance(value, dict | list):
            for number in _numbers(value):
                rule = self._out_of_range(number)
                if rule is not None:
                    raise InvalidParameter(name, f"every number in it {rule}, got {number}")
        return value

    def _out_of_range(self, value: float) -> str | None:
        """The range rule ``value`` breaks ("must be at least 0"), or None within the range."""
        if self.minimum is not None:
            if self.exclusive_minimum and value <= self.minimum:
                return f"must be greater than {self.minimum:g}"
            if not self.exclusive_minimum and value < self.minimum:
                return f"must be at least {self.minimum:g}"
        if self.maximum is not None and value > self.maximum:
            return f"must be at most {self.maximum:g}"
        return None


def _finite_number(value: int | float) -> bool:
    """Whether ``value`` is a finite number a float can hold (an int past 1.8e308 cannot)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _numbers(value: Json) -> list[int | float]:
    """Every number inside a JSON value (values of objects, entries of arrays, nested)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [value]
    if isinstance(value, dict):
        return [n for item in value.values() for n in _numbers(item)]
    if isinstance(value, list | tuple):
        return [n for item in value for n in _numbers(item)]
    return []


def nonnegative_number(value: Json, what: str) -> float:
    """``value`` as a float; ValueError naming ``what`` unless it is a finite number >= 0."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not _finite_number(value):
        raise ValueError(f"{what} must be a finite number")
    if value < 0:
        raise ValueError(f"{what} must be at least 0, got {value}")
    return float(value)


def non_increasing_entries(increase: str, *, non_empty: bool = False) -> Callable[[Json], None]:
    """A :attr:`ParamSpec.check` for a table by place (entry 1 for 1st, ...): finite numbers
    >= 0 that never increase with the place. ``increase`` is the message for an entry larger
    than the one before; with ``non_empty`` the table needs an entry."""

    def check(value: Json) -> None:
        if non_empty and not value:
            raise ValueError(NO_ENTRIES)
        previous = math.inf
        for i, entry in enumerate(value):
            number = nonnegative_number(entry, f"entry {i}")
            if number > previous:
                raise ValueError(increase)
            previous = number

    return check


def resolve(specs: Sequence[ParamSpec], given: Mapping[str, Json] | None) -> Mapping[str, Json]:
    """Validate ``given`` against ``specs`` and return the complete, read-only parameters."""
    by_name = {spec.name: spec for spec in specs}
    given = given or {}
    for name in given:
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise InvalidParameter(name, f"unknown parameter (known: {known})")
    resolved: dict[str, Json] = {}
    for spec in specs:
        value = given.get(spec.name, spec.default)
        resolved[spec.name] = spec.validate(value)
    return frozen(resolved)
