"""SQL for current ratings (``player_ratings``) and leaderboards."""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Literal, NamedTuple, cast

from sqlalchemy import (
    Float,
    String,
    Table,
    and_,
    any_,
    bindparam,
    delete,
    func,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Dialect, Row
from sqlalchemy.orm import Session
from sqlalchemy.sql.expression import ColumnElement, TextClause, TextualSelect

from app.models import PlayerRating
from app.repositories.base import driver_errors, insert_ignoring_conflicts, is_postgres, lock
from app.repositories.events import ChangeStream, as_dict, as_stored, json_encoder
from app.repositories.sqlite_inserts import rows_per_statement, variable_limit

RatingKey = tuple[str, str]  # (player, faction) with NO_FACTION for none
#: Players per array parameter (PostgreSQL), and (player, faction) pairs per IN list (SQLite).
PLAYERS_PER_ARRAY = 5_000
PAIRS_PER_QUERY = 500
#: The first SQLite with UPDATE ... FROM.
SQLITE_UPDATE_FROM = (3, 33, 0)
#: Distinct column sets of bulk rating updates whose statements are kept (there are a few).
UPDATE_STATEMENTS_CACHED = 32

SortField = Literal["rating", "name", "games"]
SortOrder = Literal["asc", "desc"]


class CurrentRow(NamedTuple):
    """What a replay starts a rating from: its row's state, chain and statistics."""

    state: dict[str, Any]
    last_change_id: int | None
    last_event_at: datetime | None
    last_event_seq: int | None
    games: int
    wins: int
    draws: int
    losses: int
    last_played_at: datetime | None


#: Read by a stream's thread (``ChangeStream.read_rows``): no float column among them.
_CURRENT_ROW_COLUMNS = ("player", "faction", *CurrentRow._fields)


class RatingRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def ensure(self, ladder_id: str, rows: list[dict[str, Any]]) -> None:
        """Create the rows that do not exist yet (concurrent creators are fine)."""
        insert_ignoring_conflicts(
            self.session, PlayerRating, [{"ladder_id": ladder_id, **row} for row in rows]
        )

    def lock_many(self, ladder_id: str, keys: Sequence[RatingKey]) -> dict[RatingKey, PlayerRating]:
        """Lock the rows in a fixed (sorted) order, so concurrent writers never deadlock."""
        statement = (
            select(PlayerRating)
            .where(
                PlayerRating.ladder_id == ladder_id,
                tuple_(PlayerRating.player, PlayerRating.faction).in_(sorted(set(keys))),
            )
            .order_by(PlayerRating.player, PlayerRating.faction)
        )
        rows = self.session.scalars(lock(self.session, statement)).all()
        return {(r.player, r.faction): r for r in rows}

    def lock_rows(self, ladder_id: str, keys: Sequence[RatingKey]) -> dict[RatingKey, Row[Any]]:
        """:meth:`lock_many` as plain rows (same columns, attribute access), for a writer that
        reads them once and writes them back itself: no ORM identity or state per row."""
        table = cast(Table, PlayerRating.__table__)
        if is_postgres(self.session):
            # The keys as one JSON parameter: an IN list binds two parameters per key, so
            # every group's statement was new text (uncacheable by psycopg once long), and
            # rendering and parsing its ~250 parameters cost milliseconds of Python.
            document = rating_keys_document(keys)
            rows = self.session.execute(
                lock_rows_statement(table), {"ladder_id": ladder_id, "keys": document}
            ).all()
            return {(r.player, r.faction): r for r in rows}
        statement = (
            select(table)
            .where(
                table.c.ladder_id == ladder_id,
                tuple_(table.c.player, table.c.faction).in_(sorted(set(keys))),
            )
            .order_by(table.c.player, table.c.faction)
        )
        rows = self.session.execute(lock(self.session, statement)).all()
        return {(r.player, r.faction): r for r in rows}

    def get_many(self, ladder_id: str, keys: Sequence[RatingKey]) -> dict[RatingKey, PlayerRating]:
        if not keys:
            return {}
        rows = self.session.scalars(
            select(PlayerRating).where(
                PlayerRating.ladder_id == ladder_id,
                tuple_(PlayerRating.player, PlayerRating.faction).in_(sorted(set(keys))),
            )
        ).all()
        return {(r.player, r.faction): r for r in rows}

    def current_rows(self, ladder_id: str, keys: Sequence[RatingKey]) -> dict[RatingKey, Any]:
        """Like ``get_many``, for many keys (a replay's page): plain rows with the columns of
        ``player_ratings``, no ORM objects. PostgreSQL is asked by player (one array
        parameter, which walks the primary key), as a row-value IN list of thousands of
        (player, faction) pairs is planned as an OR per pair and compared with every row;
        SQLite in slices of pairs, within its limit of bound parameters."""
        wanted = set(keys)
        found: dict[RatingKey, Any] = {}
        if not wanted:
            return found
        table = cast(Table, PlayerRating.__table__)
        if is_postgres(self.session):
            players = sorted({key[0] for key in wanted})
            for begin in range(0, len(players), PLAYERS_PER_ARRAY):
                part = players[begin : begin + PLAYERS_PER_ARRAY]
                rows = self.session.execute(
                    select(table).where(
                        table.c.ladder_id == ladder_id,
                        table.c.player == any_(bindparam("players", part, type_=ARRAY(String))),
                    )
                )
                for row in rows:
                    key = (row.player, row.faction)
                    if key in wanted:
                        found[key] = row
            return found
        ordered = sorted(wanted)
        for begin in range(0, len(ordered), PAIRS_PER_QUERY):
            rows = self.session.execute(
                select(table).where(
                    table.c.ladder_id == ladder_id,
                    tuple_(table.c.player, table.c.faction).in_(
                        ordered[begin : begin + PAIRS_PER_QUERY]
                    ),
                )
            )
            for row in rows:
                found[(row.player, row.faction)] = row
        return found

    def current_rows_beside(
        self, stream: ChangeStream, ladder_id: str, keys: Sequence[RatingKey]
    ) -> Callable[[], dict[RatingKey, CurrentRow]] | None:
        """SQLite: the rows of ``keys``, read by ``stream``'s thread after what it holds
        (``ChangeStream.read_rows``); returns a function that waits for them. The caller
        goes on meanwhile. None on PostgreSQL, which has no such thread."""
        if stream.postgres:
            return None
        table = cast(Table, PlayerRating.__table__)
        dialect = self.session.get_bind().dialect
        state_of, time_of = (
            table.c[name].type._cached_result_processor(dialect, None) or as_stored
            for name in ("state", "last_event_at")
        )
        ordered = sorted(set(keys))
        reads = []
        for begin in range(0, len(ordered), PAIRS_PER_QUERY):
            part = ordered[begin : begin + PAIRS_PER_QUERY]
            pairs = ", ".join(["(?, ?)"] * len(part))
            reads.append(
                stream.read_rows(
                    _CURRENT_ROW_COLUMNS,
                    f"{table.name} WHERE ladder_id = ? AND (player, faction) IN (VALUES {pairs})",
                    [ladder_id, *(value for key in part for value in key)],
                )
            )

        def rows() -> dict[RatingKey, CurrentRow]:
            found: dict[RatingKey, CurrentRow] = {}
            for read in reads:
                for row in read():
                    key, values = (row[0], row[1]), row[2:]
                    state, change, event_at, seq, games, wins, draws, losses, at = values
                    found[key] = CurrentRow(
                        cast(dict[str, Any], state_of(state)), change, time_of(event_at), seq,
                        games, wins, draws, losses, time_of(at),
                    )  # fmt: skip
            return found

        return rows

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

    def update_many(self, ladder_id: str, values: list[dict[str, Any]]) -> None:
        """Write new current states; each dict holds ``player``, ``faction`` and the columns.

        Rows with the same columns go out together: on PostgreSQL as one UPDATE joined to the
        rows (a single statement, where an executemany runs an UPDATE per row); on SQLite as
        UPDATEs joined to a list of VALUES (a lone row, or an SQLite before 3.33, as an
        executemany).
        """
        for columns, rows in update_groups(values).items():
            if is_postgres(self.session):
                self._update_from_json(ladder_id, columns, rows)
            elif len(rows) > 1 and sqlite3.sqlite_version_info >= SQLITE_UPDATE_FROM:
                self._update_joined(ladder_id, columns, rows)
            else:
                self._update_each(ladder_id, columns, rows)

    def _update_joined(
        self, ladder_id: str, columns: tuple[str, ...], rows: list[dict[str, Any]]
    ) -> None:
        """SQLite: UPDATEs joined to the rows as a list of VALUES, as many rows per statement
        as the bound-variable limit allows. Values are bound as the columns' types bind them
        (the same stored values as ``_update_each``). An import chunk's 10,000 rows took
        0.13-0.15 s, against 0.20-0.22 s as an executemany through SQLAlchemy."""
        table = cast(Table, PlayerRating.__table__)
        connection = self.session.connection()
        driver = connection.connection.driver_connection
        assert isinstance(driver, sqlite3.Connection)
        names = ("player", "faction", *columns)
        binds = [table.c[name].type._cached_bind_processor(connection.dialect) for name in names]
        # One variable of the limit is the ladder's.
        per_statement = rows_per_statement(variable_limit(driver) - 1, len(names))
        head = f"WITH given ({', '.join(names)}) AS (VALUES "
        one = f"({', '.join('?' * len(names))})"
        tail = (
            f") UPDATE {table.name} SET {', '.join(f'{c} = given.{c}' for c in columns)} "
            f"FROM given WHERE {table.name}.ladder_id = ? "
            f"AND {table.name}.player = given.player AND {table.name}.faction = given.faction"
        )
        cursor = driver.cursor()
        try:
            for begin in range(0, len(rows), per_statement):
                part = rows[begin : begin + per_statement]
                values = [
                    value if bind is None else bind(value)
                    for row in part
                    for bind, value in zip(binds, [row[name] for name in names], strict=True)
                ]
                statement = head + ", ".join([one] * len(part)) + tail
                with driver_errors(connection, f"UPDATE {table.name} … FROM given"):
                    cursor.execute(statement, [*values, ladder_id])
        finally:
            cursor.close()

    def _update_each(
        self, ladder_id: str, columns: tuple[str, ...], rows: list[dict[str, Any]]
    ) -> None:
        table = cast(Table, PlayerRating.__table__)
        statement = (
            update(table)
            .where(
                table.c.ladder_id == bindparam("key_ladder"),
                table.c.player == bindparam("key_player"),
                table.c.faction == bindparam("key_faction"),
            )
            .values({column: bindparam(column) for column in columns})
        )
        self.session.execute(
            statement,
            [
                {
                    "key_ladder": ladder_id,
                    "key_player": row["player"],
                    "key_faction": row["faction"],
                    **{column: row[column] for column in columns},
                }
                for row in rows
            ],
        )

    def _update_from_json(
        self, ladder_id: str, columns: tuple[str, ...], rows: list[dict[str, Any]]
    ) -> None:
        """One UPDATE joined to the rows sent as a single JSON document
        (``json_to_recordset``): one C-encoded parameter instead of an array per column,
        which psycopg would quote element by element in Python."""
        statement = json_update_statement(self.session.get_bind().dialect, columns)
        self.session.execute(
            statement, {"ladder_id": ladder_id, "rows": update_document(columns, rows)}
        )

    def raise_to_floor(self, ladder_id: str, floor: float) -> None:
        self.session.execute(
            update(PlayerRating)
            .where(PlayerRating.ladder_id == ladder_id, PlayerRating.rating < floor)
            .values(rating=floor)
            .execution_options(synchronize_session=False)
        )

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
    ) -> tuple[int, list[tuple[int, PlayerRating]]]:
        conditions: list[ColumnElement[bool]] = [PlayerRating.ladder_id == ladder_id]
        if active_since is not None:
            conditions.append(PlayerRating.last_played_at >= active_since)
        if faction is not None:
            conditions.append(PlayerRating.faction == faction)
        if min_games > 0:
            conditions.append(PlayerRating.games >= min_games)
        where = and_(*conditions)
        total = self.session.scalar(select(func.count()).select_from(PlayerRating).where(where))
        value, tiebreak = _rank_columns(rank_by)
        ranked = (
            select(
                PlayerRating.player,
                PlayerRating.faction,
                func.rank().over(order_by=(value.desc(), tiebreak.desc())).label("position"),
            )
            .where(where)
            .subquery()
        )
        sort_columns: dict[str, list[Any]] = {
            "rating": [ranked.c.position.asc() if order == "desc" else ranked.c.position.desc()],
            "name": [PlayerRating.player.asc() if order == "asc" else PlayerRating.player.desc()],
            "games": [PlayerRating.games.desc() if order == "desc" else PlayerRating.games.asc()],
        }
        statement = (
            select(ranked.c.position, PlayerRating)
            .join(
                PlayerRating,
                and_(
                    PlayerRating.ladder_id == ladder_id,
                    PlayerRating.player == ranked.c.player,
                    PlayerRating.faction == ranked.c.faction,
                ),
            )
            .order_by(*sort_columns[sort], PlayerRating.player, PlayerRating.faction)
            .limit(limit)
            .offset(offset)
        )
        rows = self.session.execute(statement)
        return total or 0, [(row[0], row[1]) for row in rows]


def update_groups(values: list[dict[str, Any]]) -> dict[tuple[str, ...], list[dict[str, Any]]]:
    """Rating updates by the columns they set (sorted names, key columns left out)."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for row in values:
        columns = tuple(sorted(k for k in row if k not in ("player", "faction")))
        groups.setdefault(columns, []).append(row)
    return groups


@functools.lru_cache(maxsize=UPDATE_STATEMENTS_CACHED)
def json_update_statement(dialect: Dialect, columns: tuple[str, ...]) -> TextClause:
    """The UPDATE of ``_update_from_json`` for these columns, built once: compiling the
    columns' types and the text each time cost every group commit a little."""
    table = cast(Table, PlayerRating.__table__)
    names = ("player", "faction", *columns)
    shape = ", ".join(f"{name} {table.c[name].type.compile(dialect=dialect)}" for name in names)
    assignments = ", ".join(f"{name} = given.{name}" for name in columns)
    return text(
        f"UPDATE {table.name} SET {assignments} "
        f"FROM json_to_recordset(CAST(:rows AS json)) AS given({shape}) "
        f"WHERE {table.name}.ladder_id = :ladder_id "
        f"AND {table.name}.player = given.player AND {table.name}.faction = given.faction"
    )


@functools.cache
def lock_rows_statement(table: Table) -> TextualSelect:
    """PostgreSQL: lock a ladder's rating rows given as a JSON array of [player, faction],
    in sorted order (the rows are locked as the sorted result is read)."""
    names = ", ".join(table.c.keys())
    return text(
        f"SELECT {names} FROM {table.name} WHERE ladder_id = :ladder_id "
        "AND (player, faction) IN "
        "(SELECT key ->> 0, key ->> 1 FROM json_array_elements(CAST(:keys AS json)) AS key) "
        "ORDER BY player, faction FOR UPDATE"
    ).columns(*table.c)


def rating_keys_document(keys: Sequence[RatingKey]) -> str:
    """The ``:keys`` of ``lock_rows_statement``: the distinct keys, sorted, as JSON."""
    return json.dumps(sorted(set(keys)))


def bulk_json_value(value: Any) -> Any:
    """What bulk writes' JSON holds beyond JSON's own types: times (ISO 8601 with the offset,
    which PostgreSQL reads back exactly) and the engine's read-only mappings (as dicts)."""
    if isinstance(value, datetime):
        return value.isoformat()
    return as_dict(value)


#: JSON documents of bulk writes.
dumps_bulk = json_encoder(bulk_json_value)


def update_document(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    """The JSON document of ``json_update_statement(…, columns)``: the rows' keys and columns."""
    names = ("player", "faction", *columns)
    return dumps_bulk([{name: row[name] for name in names} for row in rows])


def _rank_columns(rank_by: str) -> tuple[ColumnElement[float], ColumnElement[float]]:
    value: ColumnElement[float] = (
        func.coalesce(PlayerRating.ranking_value, PlayerRating.rating)
        if rank_by == "ranking_value"
        else PlayerRating.rating.expression
    )
    tiebreak = func.coalesce(PlayerRating.tiebreak, 0.0, type_=Float)
    return value, tiebreak
