"""Use cases for leaderboards: the board of now, as of a time, of a season (and its circuit),
with ranked play's filters; rating rows are shown as :mod:`app.services.players` shows them."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import Invalid, NotFound
from app.engine import ranked as ranked_play
from app.engine import schedule
from app.models import NO_FACTION, Ladder, PlayerRating
from app.repositories.changes import NO_STATISTICS, AsOfBoard, ChangeRepository
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.repositories.profiles import ProfileRepository, players_of_country
from app.repositories.ratings import RatingRepository
from app.schemas.players import (
    DecayOut,
    LeaderboardEntry,
    LeaderboardOut,
)
from app.services import snapshots
from app.services.history import ladder_state_as_of
from app.services.players import (
    days_before,
    faction_out,
    ranked_entries,
    win_share,
    with_event_statistics,
)
from app.services.profiles import name_and_country, profiles_of
from app.services.runtime import Runtime, now, require_ladder, runtime_for
from app.services.seasons import EVENT_POINTS


@dataclass(frozen=True, slots=True)
class BoardFilter:
    """Which ratings a leaderboard counts, and in which order it lists them."""

    sort: Literal["rating", "name", "games"]
    direction: Literal["asc", "desc"]
    active_since: datetime | None
    faction: str | None
    min_games: int
    #: A national ranking: only the players whose profile names this country.
    country: str | None
    #: Ranked play: list provisional players too; only one division.
    include_provisional: bool = False
    division: str | None = None


def _window_offset(index: int, limit: int, total: int) -> int:
    """The offset of the ``limit`` entries centred on entry ``index`` (``limit // 2``
    before it), kept within the board so a window near either end is still full."""
    return max(0, min(index - limit // 2, total - limit))


def _not_on_board(player: str) -> NotFound:
    return NotFound(f"player {player!r} has no entry on this leaderboard (with these filters)")


def _board_as_of(
    session: Session,
    ladder: Ladder,
    at: datetime,
    board_filter: BoardFilter,
    *,
    limit: int,
    offset: int,
    around: str | None,
) -> tuple[int, list[LeaderboardEntry]]:
    """The board as of ``at``: selected, ranked and paged in SQL where the system ranks by
    the stored rating (``snapshots.ranked_by_stored_rating``), else from every rating's
    state decoded and ranked here. Both order as the present board does."""
    runtime = runtime_for(ladder, at)
    if snapshots.ranked_by_stored_rating(runtime):
        total, page = _board_as_of_in_sql(
            session, ladder, runtime, at, board_filter, limit=limit, offset=offset, around=around
        )
    else:
        total, page = _board_as_of_decoded(
            session, ladder, runtime, at, board_filter, limit=limit, offset=offset, around=around
        )
    return total, [_board_entry(position, e) for position, e in page]


def _board_as_of_in_sql(
    session: Session,
    ladder: Ladder,
    runtime: Runtime,
    at: datetime,
    board_filter: BoardFilter,
    *,
    limit: int,
    offset: int,
    around: str | None,
) -> tuple[int, list[tuple[int, snapshots.Entry]]]:
    """Statistics and states are read for the page's ratings only."""
    changes = ChangeRepository(session)
    f = board_filter
    board = AsOfBoard(
        sort=f.sort,
        order=f.direction,
        active_since=f.active_since,
        faction=f.faction,
        min_games=f.min_games,
        players=None if f.country is None else players_of_country(ladder.community, f.country),
    )
    if around is not None:
        index = changes.index_in_board_as_of(ladder.id, at, board, around)
        if index is None:
            raise _not_on_board(around)
        total, _ = changes.board_as_of(ladder.id, at, board, limit=0, offset=0)
        offset = _window_offset(index, limit, total)
    total, rows = changes.board_as_of(ladder.id, at, board, limit=limit, offset=offset)
    stats = changes.statistics(ladder.id, until=at, players=sorted({c.player for _, c in rows}))
    ladder_state = ladder_state_as_of(session, ladder, runtime, at)
    return total, [
        (
            position,
            snapshots.entry_of(
                runtime,
                change,
                stats.get((change.player, change.faction), NO_STATISTICS),
                ladder_state,
            ),
        )
        for position, change in rows
    ]


def _board_as_of_decoded(
    session: Session,
    ladder: Ladder,
    runtime: Runtime,
    at: datetime,
    board_filter: BoardFilter,
    *,
    limit: int,
    offset: int,
    around: str | None,
) -> tuple[int, list[tuple[int, snapshots.Entry]]]:
    f = board_filter
    nationals = (
        None
        if f.country is None
        else ProfileRepository(session).players_of(ladder.community, f.country)
    )
    entries = [
        e
        for e in snapshots.as_of(session, ladder, runtime, at)
        if (
            f.active_since is None
            or (e.last_played_at is not None and e.last_played_at >= f.active_since)
        )
        and (f.faction is None or e.faction == f.faction)
        and e.games >= f.min_games
        and (nationals is None or e.player in nationals)
    ]
    return _ordered_page(entries, runtime.info.rank_by, f, limit, offset, around)


def _ordered_page(
    entries: list[snapshots.Entry],
    rank_by: str,
    f: BoardFilter,
    limit: int,
    offset: int,
    around: str | None,
) -> tuple[int, list[tuple[int, snapshots.Entry]]]:
    """Entries ranked (competition positions), in the board's order, paged (or the window
    around a player)."""
    board = snapshots.ranked(entries, rank_by)
    # The present board's order (RatingRepository.leaderboard): the sort, then player and
    # faction ascending. Two stable sorts: reversing the second keeps ties in the first's.
    board.sort(key=lambda item: (item[1].player, item[1].faction or ""))
    primary: dict[str, Callable[[tuple[int, snapshots.Entry]], Any]] = {
        "rating": lambda item: item[0],
        "name": lambda item: item[1].player,
        "games": lambda item: item[1].games,
    }
    reverse = (f.direction == "asc") if f.sort == "rating" else (f.direction == "desc")
    board.sort(key=primary[f.sort], reverse=reverse)
    if around is not None:
        index = next((i for i, (_, e) in enumerate(board) if e.player == around), None)
        if index is None:
            raise _not_on_board(around)
        offset = _window_offset(index, limit, len(board))
    return len(board), board[offset : offset + limit]


def _board_entry(position: int, e: snapshots.Entry) -> LeaderboardEntry:
    return LeaderboardEntry(
        position=position,
        player=e.player,
        faction=e.faction,
        rating=e.standing.rating,
        deviation=e.standing.deviation,
        ranking_value=e.standing.ranking_value,
        tiebreak=e.standing.tiebreak,
        games=e.games,
        win_rate=win_share(e.wins, e),
        last_played_at=e.last_played_at,
        provisional=e.provisional,
        division=e.division,
        decay=None if e.decay is None else DecayOut(**e.decay),
        points=e.points,
    )


def _board_ranked(
    session: Session,
    ladder: Ladder,
    runtime: Runtime,
    at: datetime,
    as_of: datetime | None,
    board_filter: BoardFilter,
    limit: int,
    offset: int,
    around: str | None,
) -> tuple[int, list[LeaderboardEntry]]:
    """A board with ranked play: every rating read at ``at`` (decayed, provisional, its
    division), filtered, ranked among those listed, ordered and paged here; the board of now
    best first reads only its top rows where it can (:func:`_board_ranked_top`)."""
    f = board_filter
    if as_of is None and around is None:
        top = _board_ranked_top(session, ladder, runtime, at, f, limit, offset)
        if top is not None:
            total, page = top
            return total, [_board_entry(position, e) for position, e in page]
    nationals = (
        None
        if f.country is None
        else ProfileRepository(session).players_of(ladder.community, f.country)
    )
    entries = [
        e
        for e in ranked_entries(session, ladder, runtime, at, as_of)
        if (
            f.active_since is None
            or (e.last_played_at is not None and e.last_played_at >= f.active_since)
        )
        and (f.faction is None or e.faction == f.faction)
        and e.games >= f.min_games
        and (nationals is None or e.player in nationals)
        and (f.include_provisional or not e.provisional)
        and (f.division is None or e.division == f.division)
    ]
    total, page = _ordered_page(entries, runtime.info.rank_by, f, limit, offset, around)
    return total, [_board_entry(position, e) for position, e in page]


#: Rows a ranked board's scan reads beyond its page at first (then twice as many each time).
_SCAN_SLACK = 16


def _value_ceiling(
    session: Session, ladder: Ladder, runtime: Runtime, at: datetime
) -> Callable[[Any], float] | None:
    """A bound that no rating read at ``at`` exceeds, as a function of its stored row (as
    :meth:`RatingRepository.rated_by_value` reads it), never smaller for a row that order
    puts first; None where none is proven here (then the board reads every rating).

    - Read as stored (no decay, no reset by ``at``): the stored value itself.
    - Zero-K's point decay on a system ranked by its stored rating: every stored state
      carries the time of its last game or adjustment (``Timed`` stamps them), none later
      than the ladder's latest live event, so every player has been idle at least since
      then and has lost at least what that idle time takes (``point_fall`` never takes
      less for longer), and ``rating - fall`` is monotone in the rating.
    - Otherwise none: a soft or hard reset raises the ratings below the initial one, and a
      deviation's growth lowers ranking values by system-specific formulas.
    """
    rank_by = runtime.info.rank_by
    rater = runtime.rater
    if isinstance(rater, ranked_play.Timed):
        if any(season.at <= at for season in rater.seasons):
            return None
        decay = rater.decay
        if decay is not None:
            if not (
                isinstance(decay, ranked_play.PointDecay)
                and snapshots.ranked_by_stored_rating(runtime)
            ):
                return None
            latest = EventRepository(session).latest(ladder.id)
            idle = 0.0 if latest is None else ranked_play.days_between(latest[0], at)
            fall = ranked_play.point_fall(decay, idle)
            return lambda row: float(row.rating - fall)
    if rank_by == "ranking_value":
        return lambda row: float(row.rating if row.ranking_value is None else row.ranking_value)
    return lambda row: float(row.rating)


def _board_ranked_top(
    session: Session,
    ladder: Ladder,
    runtime: Runtime,
    at: datetime,
    f: BoardFilter,
    limit: int,
    offset: int,
) -> tuple[int, list[tuple[int, snapshots.Entry]]] | None:
    """The ranked board of now, best first, from its top rows only: the rows are read in
    the order of their stored values, each read at ``at`` as :func:`_board_ranked` reads
    it, until the page's last entry is better than the bound (:func:`_value_ceiling`) of
    every row not read. Every entry better than one of the page is then read, so the
    positions (among those listed) are the whole board's. The filters must be the SQL
    ones: provisional by games (placement outside a season) and the stored filters; a
    division, another order, or a bound not proven: None (the caller reads every rating)."""
    policy = runtime.policy
    if f.sort != "rating" or f.direction != "desc" or f.division is not None:
        return None
    if policy.provisional_deviation is not None and not f.include_provisional:
        return None
    if policy.placement_games and runtime.season_at(at) is not None:
        return None  # placement counts the season's games
    ceiling = _value_ceiling(session, ladder, runtime, at)
    if ceiling is None:
        return None
    rank_by = runtime.info.rank_by
    repo = RatingRepository(session)
    filters: dict[str, Any] = {
        "active_since": f.active_since,
        "faction": f.faction,
        # Provisional by placement: fewer rated games than placement_games.
        "min_games": f.min_games
        if f.include_provisional
        else max(f.min_games, policy.placement_games),
        "players": None if f.country is None else players_of_country(ladder.community, f.country),
    }
    total = repo.rated_count(ladder.id, **filters)
    wanted = offset + limit
    entries: list[snapshots.Entry] = []
    batch = wanted + _SCAN_SLACK
    while wanted:
        rows = repo.rated_by_value(
            ladder.id, rank_by=rank_by, limit=batch, offset=len(entries), **filters
        )
        stored = [snapshots.stored_entry(row) for row in rows]
        entries += snapshots.read(runtime, stored, at, ladder.state)
        if len(rows) < batch or len(entries) >= total:
            break
        if len(entries) >= wanted:
            values = sorted(snapshots.sort_value(e.standing, rank_by)[0] for e in entries)
            # The rows are read best first, so the last one read bounds every later one.
            if ceiling(rows[-1]) < values[-wanted]:
                break
        batch *= 2
    _, page = _ordered_page(entries, rank_by, f, limit, offset, None)
    return total, page


@dataclass(frozen=True, slots=True)
class SeasonWindow:
    """A season's board: its events from ``start`` up to ``at`` (its end, or now while it
    runs); ``best_of``: a circuit's."""

    id: str
    start: datetime
    at: datetime
    best_of: int | None


def _season_window(ladder: Ladder, season_id: str) -> SeasonWindow:
    at = now()
    seasons = schedule.expand(ladder.seasons, at)
    index = next((i for i, s in enumerate(seasons) if s["id"] == season_id), None)
    if index is None:
        raise Invalid.at(("query", "season"), "is not one of the ladder's seasons")
    start = datetime.fromisoformat(seasons[index]["starts_at"])
    end = (
        datetime.fromisoformat(seasons[index + 1]["starts_at"])
        if index + 1 < len(seasons)
        else None
    )
    if end is not None and end <= at:
        # Just before the next season's start: its reset and results are the next season's.
        at = end - timedelta(microseconds=1)
    return SeasonWindow(season_id, start, at, seasons[index].get("best_of"))


def _board_season(
    session: Session,
    ladder: Ladder,
    runtime: Runtime,
    window: SeasonWindow,
    board_filter: BoardFilter,
    limit: int,
    offset: int,
    around: str | None,
) -> tuple[int, list[LeaderboardEntry]]:
    """A season's board (API.md "Seasons"): every rating as of the season's end (now while it
    runs), read as ranked play reads it then, of the players with a rated event in the season,
    with that season's statistics and placement; a circuit (``best_of`` N) ranks by the sum of
    each player's best N events' points in the season."""
    changes = ChangeRepository(session)
    stats = changes.statistics(ladder.id, until=window.at, since=window.start)
    in_season = []
    for e in snapshots.as_of(session, ladder, runtime, window.at):
        counts = stats.get((e.player, e.faction or NO_FACTION))
        if counts is not None and counts["games"]:
            in_season.append(replace(e, **counts))
    ladder_state = ladder_state_as_of(session, ladder, runtime, window.at)
    games = {key: counts["games"] for key, counts in stats.items()}
    entries = snapshots.read(runtime, in_season, window.at, ladder_state, games)
    rank_by: str = runtime.info.rank_by
    if window.best_of is not None:
        points = _circuit_points(changes, ladder, window, EVENT_POINTS[ladder.system])
        entries = [
            replace(e, points=points.get((e.player, e.faction or NO_FACTION), 0.0)) for e in entries
        ]
        rank_by = snapshots.POINTS
    f = board_filter
    nationals = (
        None
        if f.country is None
        else ProfileRepository(session).players_of(ladder.community, f.country)
    )
    listed = [
        e
        for e in entries
        if (
            f.active_since is None
            or (e.last_played_at is not None and e.last_played_at >= f.active_since)
        )
        and (f.faction is None or e.faction == f.faction)
        and e.games >= f.min_games
        and (nationals is None or e.player in nationals)
        and (f.include_provisional or not e.provisional)
        and (f.division is None or e.division == f.division)
    ]
    total, page = _ordered_page(listed, rank_by, f, limit, offset, around)
    return total, [_board_entry(position, e) for position, e in page]


def _circuit_points(
    changes: ChangeRepository, ladder: Ladder, window: SeasonWindow, detail: str
) -> dict[tuple[str, str], float]:
    """Each rating's best ``window.best_of`` events' points in the season, summed (the WDD's
    circuits: a player's N best results of the year)."""
    found: dict[tuple[str, str], list[float]] = {}
    for player, faction, details in changes.details_between(ladder.id, window.start, window.at):
        value = details.get(detail)
        if isinstance(value, int | float) and not isinstance(value, bool):
            found.setdefault((player, faction), []).append(float(value))
    best = window.best_of or 0
    return {key: math.fsum(sorted(v, reverse=True)[:best]) for key, v in found.items()}


def _board_now(
    session: Session,
    ladder_id: str,
    community: str,
    rank_by: str,
    board_filter: BoardFilter,
    *,
    limit: int,
    offset: int,
    around: str | None,
) -> tuple[int, list[LeaderboardEntry]]:
    """The stored (present) leaderboard, paged in SQL."""
    repo = RatingRepository(session)
    f = board_filter
    players = None if f.country is None else players_of_country(community, f.country)

    def page(limit: int, offset: int) -> tuple[int, list[tuple[int, PlayerRating]]]:
        return repo.leaderboard(
            ladder_id,
            rank_by=rank_by,
            sort=f.sort,
            order=f.direction,
            active_since=f.active_since,
            faction=f.faction,
            min_games=f.min_games,
            limit=limit,
            offset=offset,
            players=players,
        )

    if around is not None:
        index = repo.index_in_board(
            ladder_id,
            around,
            rank_by=rank_by,
            sort=f.sort,
            order=f.direction,
            active_since=f.active_since,
            faction=f.faction,
            min_games=f.min_games,
            players=players,
        )
        if index is None:
            raise _not_on_board(around)
        total, _ = page(0, 0)
        offset = _window_offset(index, limit, total)
    total, rows = page(limit, offset)
    return total, [
        LeaderboardEntry(
            position=position,
            player=row.player,
            faction=faction_out(row.faction),
            rating=row.rating,
            deviation=row.deviation,
            ranking_value=row.ranking_value,
            tiebreak=row.tiebreak,
            games=row.games,
            win_rate=win_share(row.wins, row),
            last_played_at=row.last_played_at,
        )
        for position, row in rows
    ]


def get_leaderboard(
    db: Database,
    ladder_id: str,
    *,
    limit: int,
    offset: int,
    sort: Literal["rating", "name", "games"],
    order: Literal["asc", "desc"] | None,
    active_within_days: int | None,
    faction: str | None,
    min_games: int,
    as_of: datetime | None = None,
    country: str | None = None,
    around: str | None = None,
    include_provisional: bool = False,
    division: str | None = None,
    season: str | None = None,
) -> LeaderboardOut:
    """The leaderboard page, or with ``around`` the ``limit`` entries centred on that
    player's first entry (404 when the filtered board has none); ``country``: the national
    ranking, positions counted among that country's players only. On a ladder with ranked
    play, provisional players are left out unless ``include_provisional``, ``division``
    keeps one division, and values that decay are read decayed (now, or as of)."""

    def work(session: Session) -> LeaderboardOut:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        runtime = runtime_for(ladder, as_of)
        info = runtime.info
        if division is not None and division not in {
            d.name for d in runtime.policy.divisions or ()
        }:
            raise Invalid.at(("query", "division"), "is not one of the ladder's divisions")
        window = None
        if season is not None:
            if as_of is not None:
                raise Invalid.at(
                    ("query", "season"),
                    "cannot be combined with as_of: a season's board is as of its end",
                )
            window = _season_window(ladder, season)
        days = active_within_days
        if days is None:
            days = info.default_active_within_days or 0
        reference = window.at if window is not None else as_of or now()
        active_since = None if not days else days_before(reference, days)
        board_filter = BoardFilter(
            sort=sort,
            direction=order or ("asc" if sort == "name" else "desc"),
            active_since=active_since,
            faction=faction,
            min_games=min_games,
            country=country,
            include_provisional=include_provisional,
            division=division,
        )
        total, entries = (
            _board_season(session, ladder, runtime, window, board_filter, limit, offset, around)
            if window is not None
            else _board_ranked(
                session, ladder, runtime, reference, as_of, board_filter, limit, offset, around
            )
            if not runtime.plain
            else _board_as_of(
                session, ladder, as_of, board_filter, limit=limit, offset=offset, around=around
            )
            if as_of is not None
            else _board_now(
                session,
                ladder_id,
                ladder.community,
                info.rank_by,
                board_filter,
                limit=limit,
                offset=offset,
                around=around,
            )
        )
        profiles = profiles_of(session, ladder.community, {e.player for e in entries})
        for entry in entries:
            entry.name, entry.country = name_and_country(profiles, entry.player)
        with_event_statistics(session, ladder, entries, None, as_of)
        # The filter is echoed so that a client can say why a board is short (or empty).
        return LeaderboardOut(
            ladder=ladder_id,
            total=total,
            country=country,
            season=season,
            active_within_days=days,
            active_since=active_since,
            entries=entries,
        )

    # As of a past time the board is replayed from the history: a heavy read, which a read
    # replica may serve (docs/deploy.md "Read replicas").
    return db.run(work, write=False, heavy=as_of is not None)
