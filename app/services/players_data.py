"""The admin lifecycle of a player id (API.md "Communities"): rename, merge, erasure, each
one transaction written to the audit log (docs/players-data.md).

One rewrite does them all (:meth:`PlayerDataRepository.rewrite`): a rename is that rewrite
to the new id; an erasure is that rewrite to a pseudonym, the profile dropped; a merge is that
rewrite of the results to the remaining id, refused when both played one result, and each
ladder where the merged player played replayed from its first result there (the replay
derives the changes and ratings under the remaining id).

Each holds every ladder of the community exclusively (a player spans them), taken in id
order so two of them never deadlock.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import Conflict, Forbidden, Invalid
from app.models import AuditEntry
from app.repositories.ladders import LadderRepository
from app.repositories.players_data import PlayerDataRepository, first_times, names
from app.schemas.players_data import AuditEntryOut, AuditList, PlayerActionOut
from app.services import feed
from app.services.auth import Principal
from app.services.history import recompute
from app.services.profiles import unknown_player
from app.services.runtime import body_hash, now
from app.services.unit_of_work import Lock, UnitOfWork, run_write

RENAME, MERGE, ERASE = "rename", "merge", "erase"
#: An erased player's id: this prefix and random hex (nothing derived from the old id).
PSEUDONYM_PREFIX = "erased-"
ADMIN_ACTOR = "admin"


def _authorize(caller: Principal, community: str, player: str) -> None:
    """A key of another community is told what it would of an unknown player (404); a key
    limited to ladders may not act on players at all (403), since a player spans its
    community's ladders, some of which such a key does not see."""
    if not caller.sees_community(community):
        raise unknown_player(community, player)
    if not caller.every_ladder:
        raise Forbidden(
            "a key limited to ladders may not rename, merge or erase players: a player spans "
            "every ladder of its community"
        )


def _locked_ladders(unit: UnitOfWork, community: str) -> list[str]:
    """The community's ladders, each locked exclusively (archived ones too: an erasure
    reaches them), in id order."""
    ids = sorted(LadderRepository(unit.session).ids_in_communities([community]))
    for ladder_id in ids:
        unit.ladder(ladder_id, archived=True)
    return ids


def _act(
    db: Database,
    caller: Principal,
    community: str,
    player: str,
    action: str,
    work: Callable[[UnitOfWork, PlayerDataRepository, list[str]], tuple[str, list[str], list[str]]],
) -> PlayerActionOut:
    """Run ``work`` (giving the player's id now, the ids to audit, the ladders touched) in
    one transaction holding the community's ladders, the player known, and audit it."""
    _authorize(caller, community, player)

    def attempt(unit: UnitOfWork) -> PlayerActionOut:
        repo = PlayerDataRepository(unit.session)
        ladders = _locked_ladders(unit, community)
        if not repo.is_known(community, ladders, player):
            raise unknown_player(community, player)
        result, audited, touched = work(unit, repo, ladders)
        actor = ADMIN_ACTOR if caller.is_admin or caller.key_id is None else caller.key_id
        entry = AuditEntry(
            at=now(),
            actor=actor,
            action=action,
            community=community,
            players=audited,
            ladders=touched,
        )
        repo.audit(entry)
        return PlayerActionOut(action=action, community=community, player=result, ladders=touched)

    return run_write(db, attempt, lock=Lock.EXCLUSIVE)


def _ladders_of(repo: PlayerDataRepository, ladders: list[str], player: str) -> list[str]:
    return sorted({e.ladder_id for e in repo.events_naming(ladders, player)})


def rename(
    db: Database, caller: Principal, community: str, player: str, to: str
) -> PlayerActionOut:
    """The player's id becomes ``to`` in every ladder of the community, history and ratings
    as they are (409 if the community has ``to`` already)."""
    if to == player:
        raise Invalid.at(("body", "to"), "must differ from the player's id")

    def work(
        unit: UnitOfWork, repo: PlayerDataRepository, ladders: list[str]
    ) -> tuple[str, list[str], list[str]]:
        if repo.is_known(community, ladders, to):
            raise Conflict(f"player {to!r} already exists in community {community!r}")
        touched = _ladders_of(repo, ladders, player)
        repo.rewrite(ladders, player, to, derived=True)
        repo.move_profile(community, player, to)
        return to, [player, to], touched

    return _act(db, caller, community, player, RENAME, work)


def merge(
    db: Database, caller: Principal, community: str, player: str, into: str
) -> PlayerActionOut:
    """The player's results become ``into``'s, and each ladder where it played is replayed
    from its first result there (409 naming a result both played; 404 for an unknown
    ``into``). ``into`` keeps its profile; the merged player's is kept only if it had none."""
    if into == player:
        raise Invalid.at(("body", "into"), "must differ from the player's id")

    def work(
        unit: UnitOfWork, repo: PlayerDataRepository, ladders: list[str]
    ) -> tuple[str, list[str], list[str]]:
        if not repo.is_known(community, ladders, into):
            raise unknown_player(community, into)
        events = repo.events_naming(ladders, player)
        for event in events:
            if names(event.kind, event.body, into):
                raise Conflict(
                    f"players {player!r} and {into!r} both played {event.kind} "
                    f"{event.external_id!r} in ladder {event.ladder_id!r}: they cannot be one"
                )
        shared = repo.shared_tournament(ladders, player, into)
        if shared is not None:
            raise Conflict(
                f"players {player!r} and {into!r} are both on teams of tournament "
                f"{shared[1]!r} in ladder {shared[0]!r}: they cannot be one"
            )
        touched = sorted({e.ladder_id for e in events})
        starts = first_times(events)
        unit.flush()
        repo.rewrite(ladders, player, into, derived=False)
        for ladder_id in touched:
            write = unit.ladder(ladder_id, archived=True)
            repo.drop_derived(ladder_id, player)
            if ladder_id in starts:
                recompute(write, starts[ladder_id])
                if write.moved.listed():
                    write.publish(feed.LADDER_CHANGED, None)
        if repo.has_profile(community, into):
            repo.drop_profile(community, player)
        else:
            repo.move_profile(community, player, into)
        return into, [player, into], touched

    return _act(db, caller, community, player, MERGE, work)


def erase(db: Database, caller: Principal, community: str, player: str) -> PlayerActionOut:
    """The player's id becomes a pseudonym everywhere, its profile is dropped, and its id is
    free again. Every rating stays as it is: only a name changes. The results' hashes are of
    the rewritten bodies (nothing stored is derived from the old id)."""

    def work(
        unit: UnitOfWork, repo: PlayerDataRepository, ladders: list[str]
    ) -> tuple[str, list[str], list[str]]:
        pseudonym = PSEUDONYM_PREFIX + secrets.token_hex(8)
        while repo.is_known(community, ladders, pseudonym):  # 2^-64: but never two players
            pseudonym = PSEUDONYM_PREFIX + secrets.token_hex(8)
        touched = _ladders_of(repo, ladders, player)
        repo.rewrite(ladders, player, pseudonym, derived=True, rehash=body_hash)
        repo.drop_profile(community, player)
        repo.rewrite_audit(community, player, pseudonym)
        return pseudonym, [pseudonym], touched

    return _act(db, caller, community, player, ERASE, work)


def list_audit(db: Database, community: str | None, limit: int, offset: int) -> AuditList:
    """The audit log, newest first (of one community, or all)."""

    def work(session: Session) -> AuditList:
        total, rows = PlayerDataRepository(session).audit_page(community, limit, offset)
        return AuditList(
            total=total,
            entries=[
                AuditEntryOut(
                    id=r.id,
                    at=r.at,
                    actor=r.actor,
                    action=r.action,
                    community=r.community,
                    players=r.players,
                    ladders=r.ladders,
                )
                for r in rows
            ],
        )

    return db.run(work, write=False)
