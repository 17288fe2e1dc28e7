"""Errors raised by the engine. The service layer maps them to 422 responses."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class EngineError(ValueError):
    """Base class of every engine error."""


class InvalidParameter(EngineError):
    """A ladder parameter is unknown or out of its range."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


class InvalidEvent(EngineError):
    """An event breaks a rule of the system (too many players, centres past 34, ...).

    ``loc`` points into the request body, for example ``("players", 2, "centres")``.
    """

    def __init__(self, loc: tuple[str | int, ...], message: str) -> None:
        super().__init__(f"{'.'.join(str(p) for p in loc)}: {message}")
        self.loc = loc
        self.message = message


class NonFiniteResult(InvalidEvent):
    """The system produced a rating, deviation or volatility that is not a finite number:
    the event's ratings or the ladder's parameters are too large for it (an overflow), or
    the system has a fault. Nothing of the event may be stored."""


class IterationLimit(ArithmeticError):
    """An iterative step of a system (Glicko-2's volatility) ran past its bound without
    converging. Like an overflow, :func:`app.engine.ledger.rate_event` reports it as a
    NonFiniteResult naming the event."""


@contextmanager
def arithmetic_refused(where: str) -> Iterator[None]:
    """A system's arithmetic failing inside (an overflow, a division by zero, a loop past its
    bound, a math domain error) as the NonFiniteResult of the event's ``where`` (its
    players, its standings): the one rule for every place the engine rates."""
    try:
        yield
    except EngineError:
        raise
    # ArithmeticError: OverflowError, ZeroDivisionError, IterationLimit; ValueError: a math
    # domain error (math.log of 0, math.sqrt of a negative).
    except (ArithmeticError, ValueError) as exc:
        raise NonFiniteResult(
            (where,),
            f"the system's arithmetic fails on this event ({type(exc).__name__}: {exc}): the "
            "ratings or the ladder's parameters involved are too large for the system",
        ) from exc
