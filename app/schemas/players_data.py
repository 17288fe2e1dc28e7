"""Bodies of the admin lifecycle of players (API.md "Communities": rename, merge, erasure)
and of the audit log."""

from __future__ import annotations

from datetime import datetime

from app.schemas.common import Identifier, RequestModel, ResponseModel


class RenameIn(RequestModel):
    #: The player's new id, in the same community (409 if the community has it already).
    to: Identifier


class MergeIn(RequestModel):
    #: The player that remains: the merged player's results become its results.
    into: Identifier


class PlayerActionOut(ResponseModel):
    action: str
    community: str
    #: The id the player has now: the new one, the one merged into, or the pseudonym.
    player: str
    #: The community's ladders that held the player (a merge recomputed them).
    ladders: list[str]


class AuditEntryOut(ResponseModel):
    id: int
    at: datetime
    #: The API key's id, or "admin".
    actor: str
    action: str
    community: str
    players: list[str]
    ladders: list[str]


class AuditList(ResponseModel):
    total: int
    entries: list[AuditEntryOut]
