"""SQL for current ratings (``player_ratings``) and leaderboards."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal, cast

from sqlalchemy import Float, Table, and_, delete, func, select, text, tuple_
from sqlalchemy.engine import Row
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select, Subquery
from sqlalchemy.sql.expression import ColumnElement, TextualSelect

from app.models import Ladder, PlayerRating
from app.repositories.base import insert_ignoring_conflicts, is_postgres

RatingKey = tuple[str, str]  # (player, faction) with NO_FACTION for none
#: (player, faction) pairs per IN list on SQLite, within its bound-parameter limit.
PAIRS_PER_QUERY = 500

#: Escapes LIKE's wildcards in searched text, so "%" and "_" match themselves.
LIKE_ESCAPE = "\\"

#: What :meth:`RatingRepository.standings_of_ladder` reads of a rating: player, faction,
#: rating, deviation, volatility, ranking value, tiebreak.
StandingColumns = tuple[str, str, float, float | None, float | None, float | None, float | None]

SortField = Literal["rating", "name", "games"]
SortOrder = Literal["asc", "desc"]


#: What a board with ranked play reads of a rating (:meth:`RatingRepository.rated_of_ladder`).
_RATED_COLUMNS = (
    PlayerRating.player,
    PlayerRating.faction,
    PlayerRating.rating,
    PlayerRating.deviation,
    PlayerRating.volatility,
    PlayerRating.ranking_value,
    PlayerRating.tiebreak,
    PlayerRating.state,
    PlayerRating.games,
    PlayerRating.wins,
    PlayerRating.draws,
    PlayerRating.losses,
    PlayerRating.last_played_at,
)


class RatingRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def ensure(self, ladder_id: str, rows: list[dict[str, Any]]) -> None:
        """Create the rows that do not exist yet (concurrent creators are fine)."""
        insert_ignoring_conflicts(
            self.session, PlayerRating, [{"ladder_id": ladder_id, **row} for row in rows]
        )

    def rows(
        self,
        ladder_id: str,
        keys: Sequence[RatingKey],
        *,
        lock: bool = False,
        skip_locked: bool = False,
    ) -> dict[RatingKey, Row[Any]]:
        """The rating rows of ``keys`` that exist, as plain rows (the columns of
        ``player_ratings``, by attribute). ``lock``: locked for update in sorted order, so
        concurrent writers queue instead of deadlocking (PostgreSQL; SQLite's
        ``BEGIN IMMEDIATE`` has serialised every writer already). ``skip_locked``: rows
        another transaction holds are left out instead of waited for.

        PostgreSQL gets the keys as one JSON document joined to the table: a row-value IN
        list binds two parameters per key, and past a few thousand keys its parse tree
        exceeded the server's stack depth.
        """
        wanted = sorted(set(keys))
        if not wanted:
            return {}
        table = cast(Table, PlayerRating.__table__)
        if is_postgres(self.session):
            found = self.session.execute(
                keyed_rows_statement(table, lock=lock, skip_locked=skip_locked),
                {"ladder_id": ladder_id, "keys": json.dumps(wanted)},
            )
            return {(r.player, r.faction): r for r in found}
        result: dict[RatingKey, Row[Any]] = {}
        for begin in range(0, len(wanted), PAIRS_PER_QUERY):
            part = wanted[begin : begin + PAIRS_PER_QUERY]
            statement = select(table).where(
                table.c.ladder_id == ladder_id,
                tuple_(table.c.player, table.c.faction).in_(part),
            )
            result.update({(r.player, r.faction): r for r in self.session.execute(statement)})
        return result

    def of_player(self, ladder_id: str, player: str) -> list[PlayerRating]:
        return list(
            self.session.scalars(
                select(PlayerRating)
                .where(PlayerRating.ladder_id == ladder_id, PlayerRating.player == player)
                .order_by(PlayerRating.faction)
            )
        )

    def all_of_ladder(self, ladder_id: str) -> list[PlayerRating]:
        return list(
            self.session.scalars(select(PlayerRating).where(PlayerRating.ladder_id == ladder_id))
        )

    def rated_of_ladder(self, ladder_id: str) -> list[Row[Any]]:
        """Every rated player's row (one with a result), as plain rows: a board with ranked
        play reads them all, and as ORM objects 20,000 of them took most of its time."""
        statement = select(*_RATED_COLUMNS).where(
            PlayerRating.ladder_id == ladder_id, PlayerRating.last_change_id.is_not(None)
        )
        return list(self.session.execute(statement))

    def rated_by_value(
        self,
        ladder_id: str,
        *,
        rank_by: str,
        active_since: datetime | None,
        faction: str | None,
        min_games: int,
        limit: int,
        offset: int,
        players: Select[Any] | None = None,
    ) -> list[Row[Any]]:
        """A page of the rated rows (one with a result) that the filters keep, best first by
        the stored value (``rank_by``, then tiebreak, player, faction), as
        :meth:`rated_of_ladder` reads them: a ranked board reads its top rows this way and
        stops where no later row can reach its page (services/leaderboards.py)."""
        value, tiebreak = _rank_columns(rank_by)
        statement = (
            select(*_RATED_COLUMNS)
            .where(_rated_where(ladder_id, active_since, faction, min_games, players))
            .order_by(value.desc(), tiebreak.desc(), PlayerRating.player, PlayerRating.faction)
            .limit(limit)
            .offset(offset)
        )
        return list(self.session.execute(statement))

    def rated_count(
        self,
        ladder_id: str,
        *,
        active_since: datetime | None,
        faction: str | None,
        min_games: int,
        players: Select[Any] | None = None,
    ) -> int:
        """How many rated rows the filters of :meth:`rated_by_value` keep."""
        where = _rated_where(ladder_id, active_since, faction, min_games, players)
        return self.session.scalar(select(func.count()).select_from(PlayerRating).where(where)) or 0

    def standings_of_ladder(self, ladder_id: str) -> list[StandingColumns]:
        """Every rating's shown standing, as plain rows: a what-if reads 20,000 of them, and
        as ORM objects (:meth:`all_of_ladder`) they took 0.8 s of a profiled what-if."""
        statement = select(
            PlayerRating.player,
            PlayerRating.faction,
            PlayerRating.rating,
            PlayerRating.deviation,
            PlayerRating.volatility,
            PlayerRating.ranking_value,
            PlayerRating.tiebreak,
        ).where(PlayerRating.ladder_id == ladder_id)
        return list(self.session.connection().execute(statement))

    def delete_many(self, ladder_id: str, keys: Sequence[RatingKey]) -> None:
        if keys:
            self.session.execute(
                delete(PlayerRating).where(
                    PlayerRating.ladder_id == ladder_id,
                    tuple_(PlayerRating.player, PlayerRating.faction).in_(list(keys)),
                )
            )

    def position(self, ladder_id: str, row: PlayerRating, rank_by: str) -> int:
        """1 + the number of ratings strictly better (equal values share a position)."""
        value, tiebreak = _rank_columns(rank_by)
        mine = (
            row.ranking_value if rank_by == "ranking_value" else row.rating,
            row.tiebreak or 0.0,
        )
        if mine[0] is None:
            return 0
        better = self.session.scalar(
            select(func.count())
            .select_from(PlayerRating)
            .where(
                PlayerRating.ladder_id == ladder_id,
                (value > mine[0]) | ((value == mine[0]) & (tiebreak > mine[1])),
            )
        )
        return 1 + (better or 0)

    def leaderboard(
        self,
        ladder_id: str,
        *,
        rank_by: str,
        sort: SortField,
        order: SortOrder,
        active_since: datetime | None,
        faction: str | None,
        min_games: int,
        limit: int,
        offset: int,
        players: Select[Any] | None = None,
    ) -> tuple[int, list[tuple[int, PlayerRating]]]:
        """A page of the board; ``players``: only theirs (a national ranking), positions
        within them."""
        where = _board_where(ladder_id, active_since, faction, min_games, players)
        total = self.session.scalar(select(func.count()).select_from(PlayerRating).where(where))
        ranked = _ranked(where, rank_by)
        statement = (
            select(ranked.c.position, PlayerRating)
            .join(PlayerRating, _same_rating(ladder_id, ranked))
            .order_by(*_board_order(ranked, sort, order))
            .limit(limit)
            .offset(offset)
        )
        rows = self.session.execute(statement)
        return total or 0, [(row[0], row[1]) for row in rows]

    def index_in_board(
        self,
        ladder_id: str,
        player: str,
        *,
        rank_by: str,
        sort: SortField,
        order: SortOrder,
        active_since: datetime | None,
        faction: str | None,
        min_games: int,
        players: Select[Any] | None = None,
    ) -> int | None:
        """Where the player's first entry stands in ``leaderboard``'s order (0 = first), or
        None when the board (so filtered) has no entry of the player."""
        where = _board_where(ladder_id, active_since, faction, min_games, players)
        ranked = _ranked(where, rank_by)
        numbered = (
            select(
                PlayerRating.player,
                func.row_number().over(order_by=_board_order(ranked, sort, order)).label("n"),
            )
            .select_from(ranked)
            .join(PlayerRating, _same_rating(ladder_id, ranked))
            .subquery()
        )
        first = self.session.scalar(
            select(func.min(numbered.c.n)).where(numbered.c.player == player)
        )
        return None if first is None else int(first) - 1

    def players_page(
        self, ladder_id: str, search: str | None, limit: int, offset: int
    ) -> tuple[int, list[str]]:
        """The ladder's rated players by id, those whose id holds ``search`` (any case)."""
        condition = PlayerRating.ladder_id == ladder_id
        if search:
            pattern = f"%{_escape_like(search.lower())}%"
            condition = and_(
                condition, func.lower(PlayerRating.player).like(pattern, escape=LIKE_ESCAPE)
            )
        distinct = select(PlayerRating.player).where(condition).distinct().subquery()
        total = self.session.scalar(select(func.count()).select_from(distinct)) or 0
        rows = self.session.scalars(
            select(distinct.c.player).order_by(distinct.c.player).limit(limit).offset(offset)
        )
        return int(total), list(rows)

    def with_positions(
        self, ladder_id: str, players: Sequence[str], rank_by: str
    ) -> list[tuple[int, PlayerRating]]:
        """Every rating of ``players`` with its position in the whole ladder (as
        ``position``), by player and faction."""
        if not players:
            return []
        ranked = _ranked(PlayerRating.ladder_id == ladder_id, rank_by)
        statement = (
            select(ranked.c.position, PlayerRating)
            .join(PlayerRating, _same_rating(ladder_id, ranked))
            .where(ranked.c.player.in_(list(players)))
            .order_by(PlayerRating.player, PlayerRating.faction)
        )
        return [(row[0], row[1]) for row in self.session.execute(statement)]

    def of_player_everywhere(self, community: str, player: str) -> list[PlayerRating]:
        """The player's ratings in every ladder of ``community``, by ladder and faction."""
        in_community = select(Ladder.id).where(Ladder.community == community)
        return list(
            self.session.scalars(
                select(PlayerRating)
                .where(PlayerRating.player == player, PlayerRating.ladder_id.in_(in_community))
                .order_by(PlayerRating.ladder_id, PlayerRating.faction)
            )
        )

    def ladders_of_player(self, community: str, player: str) -> set[str]:
        """The ladders of ``community`` in which the player has a rating."""
        in_community = select(Ladder.id).where(Ladder.community == community)
        return set(
            self.session.scalars(
                select(PlayerRating.ladder_id)
                .where(PlayerRating.player == player, PlayerRating.ladder_id.in_(in_community))
                .distinct()
            )
        )


@functools.cache
def keyed_rows_statement(table: Table, *, lock: bool, skip_locked: bool = False) -> TextualSelect:
    """PostgreSQL: a ladder's rating rows given as a JSON array of [player, faction], in
    sorted order (locked as the sorted result is read, with ``lock``)."""
    locking = (" FOR UPDATE" + (" SKIP LOCKED" if skip_locked else "")) if lock else ""
    names = ", ".join(table.c.keys())
    return text(
        f"SELECT {names} FROM {table.name} WHERE ladder_id = :ladder_id "
        "AND (player, faction) IN "
        "(SELECT key ->> 0, key ->> 1 FROM json_array_elements(CAST(:keys AS json)) AS key) "
        "ORDER BY player, faction" + locking
    ).columns(*table.c)


def _rank_columns(rank_by: str) -> tuple[ColumnElement[float], ColumnElement[float]]:
    value: ColumnElement[float] = (
        func.coalesce(PlayerRating.ranking_value, PlayerRating.rating)
        if rank_by == "ranking_value"
        else PlayerRating.rating.expression
    )
    tiebreak = func.coalesce(PlayerRating.tiebreak, 0.0, type_=Float)
    return value, tiebreak


def _board_where(
    ladder_id: str,
    active_since: datetime | None,
    faction: str | None,
    min_games: int,
    players: Select[Any] | None,
) -> ColumnElement[bool]:
    conditions: list[ColumnElement[bool]] = [PlayerRating.ladder_id == ladder_id]
    if active_since is not None:
        conditions.append(PlayerRating.last_played_at >= active_since)
    if faction is not None:
        conditions.append(PlayerRating.faction == faction)
    if min_games > 0:
        conditions.append(PlayerRating.games >= min_games)
    if players is not None:
        conditions.append(PlayerRating.player.in_(players))
    return and_(*conditions)


def _rated_where(
    ladder_id: str,
    active_since: datetime | None,
    faction: str | None,
    min_games: int,
    players: Select[Any] | None,
) -> ColumnElement[bool]:
    return and_(
        _board_where(ladder_id, active_since, faction, min_games, players),
        PlayerRating.last_change_id.is_not(None),
    )


def _ranked(where: ColumnElement[bool], rank_by: str) -> Subquery:
    """The ratings ``where`` holds with their competition positions among them."""
    value, tiebreak = _rank_columns(rank_by)
    return (
        select(
            PlayerRating.player,
            PlayerRating.faction,
            func.rank().over(order_by=(value.desc(), tiebreak.desc())).label("position"),
        )
        .where(where)
        .subquery()
    )


def _same_rating(ladder_id: str, ranked: Subquery) -> ColumnElement[bool]:
    return and_(
        PlayerRating.ladder_id == ladder_id,
        PlayerRating.player == ranked.c.player,
        PlayerRating.faction == ranked.c.faction,
    )


def _board_order(ranked: Subquery, sort: SortField, order: SortOrder) -> list[Any]:
    """A board's order: the sort, then player and faction (so pages never overlap)."""
    sort_columns: dict[str, Any] = {
        "rating": ranked.c.position.asc() if order == "desc" else ranked.c.position.desc(),
        "name": PlayerRating.player.asc() if order == "asc" else PlayerRating.player.desc(),
        "games": PlayerRating.games.desc() if order == "desc" else PlayerRating.games.asc(),
    }
    return [sort_columns[sort], PlayerRating.player, PlayerRating.faction]


def _escape_like(text: str) -> str:
    for special in (LIKE_ESCAPE, "%", "_"):
        text = text.replace(special, LIKE_ESCAPE + special)
    return text
