from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import Reader
from app.schemas.systems import SystemOut
from app.services import ladders as service

router = APIRouter(tags=["systems"])


@router.get("/systems", response_model=list[SystemOut])
def list_systems(_caller: Reader) -> list[SystemOut]:
    """Every rating system the service offers, with its parameters and sources."""
    return service.list_systems()


@router.get("/systems/{system_id}", response_model=SystemOut)
def get_system(system_id: str, _caller: Reader) -> SystemOut:
    return service.get_system_out(system_id)
