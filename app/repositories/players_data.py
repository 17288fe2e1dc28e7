"""SQL for rewriting a player's id everywhere it is stored (rename, merge, erasure; API.md
"Communities"), and for the audit log of those actions.

A player id is stored in plain columns (``changes``, ``player_ratings``, ``tournament_teams``,
``player_fits``, ``player_profiles``), in the results' bodies (``events.body``: a game's
``players[].player`` and ``teams[].players[].player``, a tournament's
``standings[].player``, an adjustment's ``player``), and at a few places of the JSON the
engines and the feed write (:data:`DETAIL_PLAYERS`: changes' ``details`` and the voided
changes' copies of them, ``feed_items.ratings[].player``, and the opponent of each game in a
whr player's part of the fit's state). Only those places are rewritten: a player may be
called ``mu``, ``rating`` or ``opponent``, which are also the names of fields and values
elsewhere in that JSON. Other states, ladder states and fits name no player (their rows'
``player`` column does). docs/players-data.md lists them.

Rows are found by a pattern on the JSON's text (``"id"`` quoted, as JSON writes a string on
both databases) and rewritten here; the pattern is only a filter (``_`` is a wildcard of LIKE,
and ``"mu"`` is in every TrueSkill row), what changes is decided on the parsed value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Text, cast, delete, func, select, update
from sqlalchemy.orm import InstrumentedAttribute, Session

from app.models import (
    AuditEntry,
    Change,
    Event,
    FeedItem,
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


#: Where a change's ``details`` names a player: the whole of what the engines write, found by
#: rating ladders of every system (free-for-alls with draws, team games with and without
#: labels, weights, factions, rating periods, seasons, adjustments, voids) and reading their
#: code; the other engines' details name no one. Each entry: (the key of a list in
#: ``details``, the key of its items naming a player always, the key naming the opponent, the
#: key listing the opponent's players).
#:
#: - naf: ``opponent`` (top level), a player (a team game is rated as a free-for-all);
#: - fundox: ``pairs[].opponent``, a player (a team game is rated as a free-for-all);
#: - elo: ``duels[].opponent`` and ``duels[].opponent_players[]``;
#: - glicko, glicko2: ``opponents[].opponent`` and ``opponents[].players[]``.
#:
#: An elo duel's or a glicko opponent's ``opponent`` is a player in a free-for-all, and the
#: other side's label in a game posted as ``teams`` (labels default to "1", "2", ...; a label
#: equal to a player's id is not the player): hence ``sides`` below.
DETAIL_PLAYERS = (
    ("pairs", "opponent", None, None),
    ("duels", None, "opponent", "opponent_players"),
    ("opponents", None, "opponent", "players"),
)
#: naf's details name the one opponent at the top level (a player, teams or not).
DETAIL_OPPONENT = "opponent"


def renamed_details(details: Any, old: str, new: str, *, sides: bool) -> Any:
    """A copy of a change's ``details`` naming ``new`` where they named the player ``old``
    (:data:`DETAIL_PLAYERS`); ``sides``: the change is of a game posted as ``teams``."""
    if not isinstance(details, dict):
        return details
    copy: dict[str, Any] = _copy(details)
    _swap(copy, DETAIL_OPPONENT, old, new)
    for key, player, opponent, members in DETAIL_PLAYERS:
        entries = copy.get(key)
        for entry in entries if isinstance(entries, list) else ():
            if not isinstance(entry, dict):
                continue
            if player is not None:
                _swap(entry, player, old, new)
            if opponent is not None and not sides:
                _swap(entry, opponent, old, new)
            if members is not None and isinstance(entry.get(members), list):
                entry[members] = [new if p == old else p for p in entry[members]]
    return copy


def renamed_games(state: Any, old: str, new: str) -> Any:
    """A copy of a player's part of a whole-history fit's state naming ``new`` where it named
    the opponent ``old``: whr keeps each game as ``[day, opponent, score]``
    (app/engine/whr.py ``_state``); ttt's part holds numbers only."""
    if not isinstance(state, list):
        return state
    return [
        [entry[0], new, *entry[2:]]
        if isinstance(entry, list) and len(entry) == 3 and entry[1] == old
        else entry
        for entry in state
    ]


def renamed_voided(voided: Any, old: str, new: str, *, sides: bool) -> Any:
    """A copy of an event's ``voided_changes`` (copies of its changes: ``player`` and
    ``details``, app/services/events.py) naming ``new`` where they named ``old``."""
    if not isinstance(voided, list):
        return voided
    copy = []
    for change in voided:
        if isinstance(change, dict):
            change = dict(change)
            _swap(change, "player", old, new)
            if "details" in change:
                change["details"] = renamed_details(change["details"], old, new, sides=sides)
        copy.append(change)
    return copy


def renamed_listed(items: Any, old: str, new: str) -> Any:
    """A copy of a list of ``{"player", ...}`` (a feed item's ``ratings``,
    app/services/feed.py) naming ``new`` where it named ``old``."""
    if not isinstance(items, list):
        return items
    copy = []
    for item in items:
        if isinstance(item, dict):
            item = dict(item)
            _swap(item, "player", old, new)
        copy.append(item)
    return copy


def _swap(part: dict[str, Any], key: str, old: str, new: str) -> None:
    if part.get(key) == old:
        part[key] = new


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
        self._json(
            Event.voided_changes,
            ladder_ids,
            old,
            lambda value, body: renamed_voided(value, old, new, sides="teams" in body),
            context=Event.body,
        )
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
        # A whole-history fit computed before this, by the background convergence without a
        # lock, names the old id: its new time tells the converger not to serve it.
        self.session.execute(
            update(LadderFit)
            .where(LadderFit.ladder_id.in_(ladder_ids))
            .values(at=datetime.now(UTC))
        )
        # A change's team is its side's label: set exactly when the game was posted as teams.
        self._json(
            Change.details,
            ladder_ids,
            old,
            lambda value, team: renamed_details(value, old, new, sides=team is not None),
            context=Change.team,
        )
        self._json(
            FeedItem.ratings, ladder_ids, old, lambda value, _: renamed_listed(value, old, new)
        )
        self._json(
            PlayerFit.state, ladder_ids, old, lambda value, _: renamed_games(value, old, new)
        )

    def _json(
        self,
        column: InstrumentedAttribute[Any],
        ladder_ids: list[str],
        old: str,
        renamed: Callable[[Any, Any], Any],
        *,
        context: InstrumentedAttribute[Any] | None = None,
        ladder: Any = None,
    ) -> None:
        """Rewrite one JSON column of the ladders' rows that hold ``old`` (the filter) to
        ``renamed(value, context)``, ``context`` another column of the row (or None)."""
        table = column.class_
        of_ladder = ladder if ladder is not None else table.ladder_id
        keys = list(table.__table__.primary_key.columns)
        more = [context] if context is not None else []
        query = select(*keys, column, *more).where(of_ladder.in_(ladder_ids), _quoted(column, old))
        for row in self.session.execute(query).all():
            key, value = row[: len(keys)], row[len(keys)]
            changed = renamed(value, row[len(keys) + 1] if more else None)
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
        """An erased id leaves the community's audit entries, and so do the ids the player had
        before: walking back from the newest entry, a rename to a name of the player, or a
        merge into one, makes its other id a name of the player too (each is personal data
        of the erased player; a name another player holds later is left in that one's
        entries)."""
        names = {old}
        entries = self.session.scalars(
            select(AuditEntry)
            .where(AuditEntry.community == community)
            .order_by(AuditEntry.id.desc())
        ).all()
        for entry in entries:
            players = list(entry.players)
            if entry.action in ("rename", "merge") and len(players) == 2 and players[1] in names:
                names.add(players[0])
            if any(p in names for p in players):
                entry.players = [new if p in names else p for p in players]

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
