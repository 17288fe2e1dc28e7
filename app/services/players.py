"""Use cases for players: current ratings, history, leaderboards and adjustments."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol, TypeVar

from sqlalchemy.orm import Session

from app.core import metrics
from app.core.database import Database
from app.core.errors import Invalid, NotFound
from app.engine import schedule
from app.engine.protocols import key_for
from app.models import NO_FACTION, Change, Event, Ladder, PlayerRating
from app.repositories.changes import NO_STATISTICS, AsOfBoard, ChangeRepository
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.repositories.profiles import ProfileRepository, players_of_country
from app.repositories.ratings import RatingRepository
from app.schemas.events import AdjustmentIn
from app.schemas.players import (
    DecayOut,
    EventStatisticsOut,
    HistoryEntry,
    HistoryOut,
    LeaderboardEntry,
    LeaderboardOut,
    PlayerOut,
    RatingOut,
)
from app.schemas.profiles import LadderRatingOut, PlayerProfileOut
from app.services import feed, snapshots
from app.services.auth import ADMIN, Caller, Principal
from app.services.conversion import ADJUSTMENT, adjustment_body, adjustment_to_engine
from app.services.history import NewEvent, ladder_state_as_of, record
from app.services.profiles import name_and_country, profiles_of, require_own, unknown_player
from app.services.runtime import Runtime, now, require_ladder, runtime_for
from app.services.seasons import EVENT_POINTS
from app.services.unit_of_work import UnitOfWork, run_write


def _faction_out(faction: str) -> str | None:
    return None if faction == NO_FACTION else faction


def _rate(part: int, counted: _Counted) -> float | None:
    """``part`` over the games decided (won, drawn or lost). A tournament's placings count in
    ``games`` and in none of these (API.md "Lists"): a tournament ladder's rates are null."""
    decided = counted.wins + counted.draws + counted.losses
    return part / decided if decided else None


def event_statistics(placings: Iterable[tuple[int, int]]) -> EventStatisticsOut:
    """A player's tournament statistics from its placings, each (rank, n): n the players
    that tournament ranked. The percentile of a placing is (n − rank) / (n − 1), the share
    of the other players it finished ahead of (ties counted as beaten by neither): 1 for
    first, 0 for last; 1 for the sole player of a tournament of one."""
    ranks, percentiles = [], []
    for rank, size in placings:
        ranks.append(rank)
        percentiles.append((size - rank) / (size - 1) if size > 1 else 1.0)
    return EventStatisticsOut(
        events=len(ranks),
        best_place=min(ranks) if ranks else None,
        top3=sum(rank <= 3 for rank in ranks),
        mean_percentile=sum(percentiles) / len(percentiles) if percentiles else None,
    )


def _with_event_statistics(
    session: Session,
    ladder: Ladder,
    ratings: Sequence[Any],
    player: str | None,
    until: datetime | None,
) -> None:
    """On a tournament ladder, attach its event statistics to each rating or board entry
    (of ``player``, or of its own player), from its placings up to ``until``."""
    if runtime_for(ladder).info.kind != "tournament" or not ratings:
        return

    def key(rating: Any) -> tuple[str, str]:
        return (player or rating.player, rating.faction or NO_FACTION)

    placings: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    players = sorted({key(r)[0] for r in ratings})
    for name, faction, rank, size in ChangeRepository(session).placings(ladder.id, players, until):
        placings[(name, faction)].append((rank, size))
    for rating in ratings:
        rating.event_statistics = event_statistics(placings.get(key(rating), ()))


class _Shown(Protocol):
    """What a rating shows: a rating row, or a standing as of a time."""

    @property
    def rating(self) -> float: ...
    @property
    def deviation(self) -> float | None: ...
    @property
    def volatility(self) -> float | None: ...
    @property
    def ranking_value(self) -> float | None: ...


class _Counted(Protocol):
    """A rating's statistics: a rating row, or an entry of a board as of a time."""

    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def draws(self) -> int: ...
    @property
    def losses(self) -> int: ...
    @property
    def last_played_at(self) -> datetime | None: ...


RatingT = TypeVar("RatingT", bound=RatingOut)


def _rating(
    model: type[RatingT],
    faction: str | None,
    shown: _Shown,
    counted: _Counted,
    position: int | None,
    **extra: Any,
) -> RatingT:
    """The one mapping of a rating to what the API shows of it."""
    return model(
        faction=faction,
        rating=shown.rating,
        deviation=shown.deviation,
        volatility=shown.volatility,
        ranking_value=shown.ranking_value,
        games=counted.games,
        wins=counted.wins,
        draws=counted.draws,
        losses=counted.losses,
        win_rate=_rate(counted.wins, counted),
        loss_rate=_rate(counted.losses, counted),
        last_played_at=counted.last_played_at,
        position=position,
        **extra,
    )


def rating_out(row: PlayerRating, position: int | None) -> RatingOut:
    return _rating(RatingOut, _faction_out(row.faction), row, row, position)


def entry_out(entry: snapshots.Entry, position: int | None) -> RatingOut:
    return _rating(
        RatingOut, entry.faction, entry.standing, entry, position, **_ranked_fields(entry)
    )


def _ranked_fields(entry: snapshots.Entry) -> dict[str, Any]:
    decay = None if entry.decay is None else DecayOut(**entry.decay)
    return {"provisional": entry.provisional, "division": entry.division, "decay": decay}


def ranked_ratings(
    session: Session, ladder: Ladder, runtime: Runtime, players: set[str]
) -> list[tuple[snapshots.Entry, int | None]]:
    """The ratings of ``players`` as ranked play reads them now, each with its position
    among the ratings a board lists by default (None for a provisional one)."""
    entries = ranked_entries(session, ladder, runtime, now(), None)
    positions = _ranked_positions(entries, runtime.info.rank_by)
    mine = sorted(
        (e for e in entries if e.player in players), key=lambda e: (e.player, e.faction or "")
    )
    return [(e, positions.get((e.player, e.faction))) for e in mine]


def _ranked_positions(
    entries: list[snapshots.Entry], rank_by: str
) -> dict[tuple[str, str | None], int]:
    """Positions among the ratings a board lists by default (provisional ones are not)."""
    board = snapshots.ranked([e for e in entries if not e.provisional], rank_by)
    return {(e.player, e.faction): position for position, e in board}


def get_player(
    db: Database, ladder_id: str, player: str, as_of: datetime | None = None
) -> PlayerOut:
    def work(session: Session) -> PlayerOut:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        out = _player(session, ladder, player, as_of)
        _with_event_statistics(session, ladder, out.ratings, player, as_of)
        return out

    return db.run(work, write=False)


def _player(session: Session, ladder: Ladder, player: str, as_of: datetime | None) -> PlayerOut:
    ladder_id = ladder.id
    runtime = runtime_for(ladder, as_of)
    if not runtime.plain:
        entries = ranked_entries(session, ladder, runtime, as_of or now(), as_of)
        positions = _ranked_positions(entries, runtime.info.rank_by)
        found = sorted((e for e in entries if e.player == player), key=lambda e: e.faction or "")
        if not found:
            raise NotFound(f"player {player!r} has no rating in ladder {ladder_id!r}")
        return PlayerOut(
            player=player,
            ladder=ladder_id,
            ratings=[entry_out(e, positions.get((e.player, e.faction))) for e in found],
            **_profile_fields(session, ladder.community, player),
        )
    if as_of is not None:
        board = snapshots.ranked(
            snapshots.as_of(session, ladder, runtime, as_of), runtime.info.rank_by
        )
        mine = [(pos, e) for pos, e in board if e.player == player]
        if not mine:
            raise NotFound(f"player {player!r} had no rating in ladder {ladder_id!r} then")
        return PlayerOut(
            player=player,
            ladder=ladder_id,
            ratings=[entry_out(e, pos) for pos, e in sorted(mine, key=_by_faction)],
            **_profile_fields(session, ladder.community, player),
        )
    repo = RatingRepository(session)
    rows = repo.of_player(ladder_id, player)
    if not rows:
        raise NotFound(f"player {player!r} has no rating in ladder {ladder_id!r}")
    return PlayerOut(
        player=player,
        ladder=ladder_id,
        ratings=[
            rating_out(row, repo.position(ladder_id, row, runtime.info.rank_by)) for row in rows
        ],
        **_profile_fields(session, ladder.community, player),
    )


def _profile_fields(session: Session, community: str, player: str) -> dict[str, str | None]:
    name, country = name_and_country(profiles_of(session, community, [player]), player)
    return {"name": name, "country": country}


def _history_entry(change: Change, event: Event) -> HistoryEntry:
    return HistoryEntry(
        kind=event.kind,
        id=event.external_id,
        seq=event.seq,
        at=change.occurred_at,
        faction=_faction_out(change.faction),
        rank=change.rank,
        team=change.team,
        rating_before=change.rating_before,
        rating_after=change.rating_after,
        delta=change.rating_after - change.rating_before,
        deviation_before=change.deviation_before,
        deviation_after=change.deviation_after,
        volatility_before=change.volatility_before,
        volatility_after=change.volatility_after,
        details=change.details,
    )


def _team_of(body: dict[str, Any], player: str) -> str | None:
    """The side ``player`` was on in a stored team game, from its body (a void keeps its
    changes' values but not their side, and a player is on one side of a game)."""
    for side in body.get("teams") or ():
        if any(member["player"] == player for member in side["players"]):
            return str(side["team"])
    return None


def _voided_entry(event: Event, snapshot: dict[str, Any]) -> HistoryEntry:
    """A voided event as it was applied, flagged voided (it changes nothing now)."""
    return HistoryEntry(
        kind=event.kind,
        id=event.external_id,
        seq=event.seq,
        at=event.occurred_at,
        faction=_faction_out(snapshot["faction"]),
        rank=snapshot["rank"],
        team=_team_of(event.body, snapshot["player"]),
        rating_before=snapshot["rating_before"],
        rating_after=snapshot["rating_after"],
        delta=snapshot["rating_after"] - snapshot["rating_before"],
        deviation_before=snapshot["deviation_before"],
        deviation_after=snapshot["deviation_after"],
        volatility_before=snapshot["volatility_before"],
        volatility_after=snapshot["volatility_after"],
        details=snapshot["details"],
        voided=True,
    )


def get_history(
    db: Database,
    ladder_id: str,
    player: str,
    faction: str | None,
    limit: int,
    offset: int,
    as_of: datetime | None = None,
) -> HistoryOut:
    def work(session: Session) -> HistoryOut:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        if not RatingRepository(session).of_player(ladder_id, player):
            raise NotFound(f"player {player!r} has no rating in ladder {ladder_id!r}")
        voided = [
            _voided_entry(event, snapshot)
            for event in EventRepository(session).voided(ladder_id, as_of)
            for snapshot in event.voided_changes or []
            if snapshot["player"] == player and (faction is None or snapshot["faction"] == faction)
        ]
        # Voids are rare: without any, page in SQL; with some, merge in time order here.
        total, rows = ChangeRepository(session).history(
            ladder_id, player, faction, None if voided else limit, 0 if voided else offset, as_of
        )
        entries = [_history_entry(change, event) for change, event in rows]
        if voided:
            entries = sorted([*entries, *voided], key=lambda e: (e.at, e.seq))
            total += len(voided)
            entries = entries[offset : offset + limit]
        return HistoryOut(
            player=player,
            ladder=ladder_id,
            total=total,
            entries=entries,
            **_profile_fields(session, ladder.community, player),
        )

    return db.run(work, write=False)


def _by_faction(item: tuple[int, snapshots.Entry]) -> str:
    return item[1].faction or ""


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
        win_rate=_rate(e.wins, e),
        last_played_at=e.last_played_at,
        provisional=e.provisional,
        division=e.division,
        decay=None if e.decay is None else DecayOut(**e.decay),
        points=e.points,
    )


def ranked_entries(
    session: Session, ladder: Ladder, runtime: Runtime, at: datetime, as_of: datetime | None
) -> list[snapshots.Entry]:
    """Every rating as ranked play reads it at ``at`` (SYSTEMS.md "Ranked play"): the stored
    ones, or those of ``as_of``."""
    entries = (
        snapshots.as_of(session, ladder, runtime, as_of)
        if as_of is not None
        else snapshots.current(session, ladder, runtime)
    )
    ladder_state = ladder_state_as_of(session, ladder, runtime, as_of) if as_of else ladder.state
    games = season_games(session, ladder, runtime, at)
    return snapshots.read(runtime, entries, at, ladder_state, games)


def season_games(
    session: Session, ladder: Ladder, runtime: Runtime, at: datetime
) -> dict[tuple[str, str], int] | None:
    """Each rating's rated games in the season running at ``at``, which placement counts
    (SYSTEMS.md "Ranked play"); None before the first season (the whole ladder's count)."""
    season = runtime.season_at(at)
    if season is None or not runtime.policy.placement_games:
        return None
    stats = ChangeRepository(session).statistics(ladder.id, until=at, since=season.at)
    return {key: counts["games"] for key, counts in stats.items()}


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
    division), filtered, ranked among those listed, ordered and paged here."""
    f = board_filter
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
            faction=_faction_out(row.faction),
            rating=row.rating,
            deviation=row.deviation,
            ranking_value=row.ranking_value,
            tiebreak=row.tiebreak,
            games=row.games,
            win_rate=_rate(row.wins, row),
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
        active_since = None if not days else _days_before(reference, days)
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
        _with_event_statistics(session, ladder, entries, None, as_of)
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


def adjust_player(
    db: Database, ladder_id: str, player: str, body: AdjustmentIn, caller: Caller = ADMIN
) -> PlayerOut:
    """Record an administrator's adjustment as an event in the ladder's history."""
    at = body.at or now()

    def work(unit: UnitOfWork) -> str:
        unit.admit(caller, ladder_id)
        write = unit.ladder(ladder_id)
        info = write.runtime.info
        if info.per_faction and body.faction is None:
            raise Invalid.at(("faction",), "this ladder rates each faction separately: name one")
        key = key_for(info, player, body.faction)
        new = NewEvent(
            ladder_id=ladder_id,
            kind=ADJUSTMENT,
            external_id=None,
            occurred_at=at,
            body=adjustment_body(player, body, at),
            event=adjustment_to_engine(key, body, at),
        )
        record(write, new)
        write.publish(feed.RATING_ADJUSTED, None)
        return info.id

    system = run_write(db, work)
    metrics.record_applied(ladder_id, system, ADJUSTMENT)
    return get_player(db, ladder_id, player)


def _days_before(reference: datetime, days: int) -> datetime | None:
    """``days`` before ``reference``; None (no limit) when that is before year 1."""
    try:
        return reference - timedelta(days=days)
    except OverflowError:
        return None


def get_profile(db: Database, caller: Principal, community: str, player: str) -> PlayerProfileOut:
    """The player's profile in ``community`` and its ratings in every ladder of the community
    the caller sees: 404 for a player that is not the caller's (profiles.require_own) or has
    neither, the same answer as for an unknown id."""

    def work(session: Session) -> PlayerProfileOut:
        require_own(session, caller, community, player)
        profile = ProfileRepository(session).get(community, player)
        repo = RatingRepository(session)
        ladders = LadderRepository(session)
        ratings: list[LadderRatingOut] = []
        ranked_done: set[str] = set()
        for row in repo.of_player_everywhere(community, player):
            if not caller.sees(row.ladder_id):
                continue
            ladder = require_ladder(ladders.get(row.ladder_id), row.ladder_id)
            runtime = runtime_for(ladder)
            if not runtime.plain:
                if ladder.id not in ranked_done:  # every rating of the player in the ladder
                    ranked_done.add(ladder.id)
                    for entry, position in ranked_ratings(session, ladder, runtime, {player}):
                        fields = entry_out(entry, position).model_dump()
                        ratings.append(LadderRatingOut(ladder=ladder.id, **fields))
                continue
            position = repo.position(row.ladder_id, row, runtime.info.rank_by)
            faction = _faction_out(row.faction)
            rating = _rating(LadderRatingOut, faction, row, row, position, ladder=row.ladder_id)
            _with_event_statistics(session, ladder, [rating], player, None)
            ratings.append(rating)
        if profile is None and not ratings:
            raise unknown_player(community, player)
        return PlayerProfileOut(
            player=player,
            community=community,
            name=profile.name if profile else None,
            country=profile.country if profile else None,
            ratings=ratings,
        )

    return db.run(work, write=False)
