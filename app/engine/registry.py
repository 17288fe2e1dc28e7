"""The explicit registry of rating systems, in the order ``GET /systems`` lists them."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from app.engine import (
    cdiplo,
    daanz,
    dptr,
    elo,
    elo_mmr,
    fundox,
    glicko,
    glicko2,
    kinzett,
    nadf,
    naf,
    trueskill,
    ttt,
    weng_lin,
    whr,
    wpe,
)
from app.engine.protocols import System

SYSTEMS: Mapping[str, System] = MappingProxyType(
    {
        module.SYSTEM.info.id: module.SYSTEM
        for module in (
            elo,
            fundox,
            naf,
            glicko2,
            glicko,
            trueskill,
            weng_lin,
            nadf,
            kinzett,
            dptr,
            cdiplo,
            wpe,
            daanz,
            elo_mmr,
            ttt,
            whr,
        )
    }
)


def get_system(system_id: str) -> System | None:
    return SYSTEMS.get(system_id)
