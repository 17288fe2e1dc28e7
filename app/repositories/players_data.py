"""SQL for rewriting a player's id everywhere it is stored (rename, merge, erasure; API.md
"Communities"), and for the audit log of those actions.

A player id is stored in plain columns (``changes``, ``player_ratings``, ``tournament_teams``,
``player_fits``, ``player_profiles``), in the results' bodies (``events.body``: a game's
``players[].player`` and ``teams[].players[].player``, a tournament's
``standings[].player``, an adjustment's ``player``), and in JSON the engines and the feed
write (changes' ``details`` and ``state_after``, ratings' ``state``, ``voided_changes``,
``ladder_state_after``, ladders' ``state``, fits, ``feed_items.ratings``): there every string
equal to the id, as a value or a key, is the player (an engine names players by their ids).
docs/players-data.md lists them.

Rows are found by a pattern on the JSON's text (``"id"`` quoted, as JSON writes a string on
both databases) and rewritten here; the pattern is only a filter (``_`` is a wildcard of LIKE),
what changes is decided on the parsed value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from sqlalchemy import Text, cast, delete, func, select, update
from sqlalchemy.orm import InstrumentedAttribute, Session

from app.models import (
    AuditEntry,
    Change,
    Event,
    FeedItem,
    Ladder,
    LadderFit,
    PlayerFit,
    PlayerProfile,
    PlayerRating,
    TournamentTeam,
)

#: Where a result's body names its players (app/schemas/events.py).
GAME, TOURNAMENT = "game", "tournament"


def body_players(kind: str, body: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The parts of a stored body that name a player, each with its ``"player"`` key."""
    if kind == GAME:
        yield from body.get("players") or ()
        for side in body.get("teams") or ():
            yield from side.get("players") or ()
    elif kind == TOURNAMENT:
        yield from body.get("standings") or ()
    else:  # an adjustment
        yield body


def names(kind: str, body: dict[str, Any], player: str) -> bool:
    return any(part.get("player") == player for part in body_players(kind, body))


def renamed_body(kind: str, body: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """A copy of ``body`` naming ``new`` where it named ``old`` (only where a player is)."""
    copy: dict[str, Any] = _copy(body)
    for part in body_players(kind, copy):
        if part.get("player") == old:
            part["player"] = new
    return copy


def renamed_json(value: Any, old: str, new: str) -> Any:
    """``value`` with every string equal to ``old``, as a value or a key, made ``new``."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [renamed_json(v, old, new) for v in value]
    if isinstance(value, dict):
        return {(new if k == old else k): renamed_json(v, old, new) for k, v in value.items()}
    return value


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


def _quoted(column: Any, player: str) -> Any:
    """The filter: the column's JSON text holds ``"player"``."""
    return cast(column, Text).like(f'%"{player}"%')


class PlayerDataRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    # What exists.

    def is_known(self, community: str, ladder_ids: list[str], player: str) -> bool:
        """Whether the community has the player: a profile, a rating in one of its
        ladders, or a stored result naming it (a voided one too: its body is kept)."""
        if self.session.get(PlayerProfile, (community, player)) is not None:
            return True
        rated = select(PlayerRating.player).where(
            PlayerRating.ladder_id.in_(ladder_ids), PlayerRating.player == player
        )
        if self.session.execute(rated.limit(1)).first() is not None:
            return True
        return bool(ladder_ids) and bool(self.events_naming(ladder_ids, player))

    def events_naming(self, ladder_ids: list[str], player: str) -> list[Event]:
        """Every result (live or voided) of the ladders whose body names the player, in
        history order."""
        query = (
            select(Event)
            .where(Event.ladder_id.in_(ladder_ids), _quoted(Event.body, player))
            .order_by(Event.ladder_id, Event.occurred_at, Event.seq)
        )
        return [e for e in self.session.scalars(query) if names(e.kind, e.body, player)]

    def shared_tournament(self, ladder_ids: list[str], a: str, b: str) -> tuple[str, str] | None:
        """A (ladder, tournament) where both players are on a team, if any."""

        def teams(player: str) -> set[tuple[str, str]]:
            query = select(TournamentTeam.ladder_id, TournamentTeam.tournament).where(
                TournamentTeam.ladder_id.in_(ladder_ids), TournamentTeam.player == player
            )
            return {(row[0], row[1]) for row in self.session.execute(query)}

        both = sorted(teams(a) & teams(b))
        return both[0] if both else None

    # The one rewrite.

    def rewrite(
        self,
        ladder_ids: list[str],
        old: str,
        new: str,
        *,
        derived: bool,
        rehash: Callable[[dict[str, Any]], str] | None = None,
    ) -> None:
        """Make ``new`` the player ``old`` was, in the ladders' rows: results' bodies (their
        ``body_hash`` kept, so that a retry of a result sent before is still the same
        result; with ``rehash``, the hash of the new body: an erasure keeps nothing derived
        from the old id), voided changes, tournament teams, and, if ``derived``, what a
        replay derives (changes, ratings, fits, ladder states) and the feed's items (so that
        applying them still gives the stored ratings). A merge replays instead, and its feed
        item says the merged player's ratings are gone."""
        if not ladder_ids:
            return
        for event in self.events_naming(ladder_ids, old):
            body = renamed_body(event.kind, event.body, old, new)
            values: dict[str, Any] = {"body": body}
            if rehash is not None:
                values["body_hash"] = rehash(body)
            self.session.execute(update(Event).where(Event.seq == event.seq).values(**values))
        self._json(Event, Event.voided_changes, ladder_ids, old, new)
        self.session.execute(
            update(TournamentTeam)
            .where(TournamentTeam.ladder_id.in_(ladder_ids), TournamentTeam.player == old)
            .values(player=new)
        )
        if not derived:
            return
        for table in (Change, PlayerRating, PlayerFit):
            self.session.execute(
                update(table)
                .where(table.ladder_id.in_(ladder_ids), table.player == old)
                .values(player=new)
            )
        self._json(Change, Change.details, ladder_ids, old, new)
        self._json(Change, Change.state_after, ladder_ids, old, new)
        self._json(PlayerRating, PlayerRating.state, ladder_ids, old, new)
        self._json(PlayerFit, PlayerFit.curve, ladder_ids, old, new)
        self._json(PlayerFit, PlayerFit.state, ladder_ids, old, new)
        self._json(Event, Event.ladder_state_after, ladder_ids, old, new)
        self._json(LadderFit, LadderFit.state, ladder_ids, old, new)
        self._json(FeedItem, FeedItem.ratings, ladder_ids, old, new)
        self._json(Ladder, Ladder.state, ladder_ids, old, new, ladder=Ladder.id)

    def _json(
        self,
        table: Any,
        column: InstrumentedAttribute[Any],
        ladder_ids: list[str],
        old: str,
        new: str,
        *,
        ladder: Any = None,
    ) -> None:
        """Rewrite ``old`` to ``new`` in one JSON column of the ladders' rows."""
        of_ladder = ladder if ladder is not None else table.ladder_id
        keys = list(table.__table__.primary_key.columns)
        query = select(*keys, column).where(of_ladder.in_(ladder_ids), _quoted(column, old))
        for row in self.session.execute(query).all():
            *key, value = row
            changed = renamed_json(value, old, new)
            if changed != value:
                where = [k == v for k, v in zip(keys, key, strict=True)]
                self.session.execute(update(table).where(*where).values({column.key: changed}))

    def drop_derived(self, ladder_id: str, player: str) -> None:
        """The player's whole-history fit rows (a merge refits them under the other id)."""
        self.session.execute(
            delete(PlayerFit).where(PlayerFit.ladder_id == ladder_id, PlayerFit.player == player)
        )

    # Profiles.

    def move_profile(self, community: str, old: str, new: str) -> None:
        self.session.execute(
            update(PlayerProfile)
            .where(PlayerProfile.community == community, PlayerProfile.player == old)
            .values(player=new)
        )

    def has_profile(self, community: str, player: str) -> bool:
        return self.session.get(PlayerProfile, (community, player)) is not None

    def drop_profile(self, community: str, player: str) -> None:
        self.session.execute(
            delete(PlayerProfile).where(
                PlayerProfile.community == community, PlayerProfile.player == player
            )
        )

    # The audit log.

    def audit(self, entry: AuditEntry) -> None:
        self.session.add(entry)
        self.session.flush()

    def rewrite_audit(self, community: str, old: str, new: str) -> None:
        """An erased id leaves the community's audit entries too."""
        self._json(
            AuditEntry, AuditEntry.players, [community], old, new, ladder=AuditEntry.community
        )

    def audit_page(
        self, community: str | None, limit: int, offset: int
    ) -> tuple[int, list[AuditEntry]]:
        where = [] if community is None else [AuditEntry.community == community]
        total = self.session.scalar(select(func.count()).select_from(AuditEntry).where(*where))
        rows = self.session.scalars(
            select(AuditEntry)
            .where(*where)
            .order_by(AuditEntry.id.desc())
            .limit(limit)
            .offset(offset)
        )
        return total or 0, list(rows)


def first_times(events: Iterable[Event]) -> dict[str, Any]:
    """The time of each ladder's first live result among ``events``."""
    first: dict[str, Any] = {}
    for event in events:
        if event.voided_at is None and event.ladder_id not in first:
            first[event.ladder_id] = event.occurred_at
    return first
