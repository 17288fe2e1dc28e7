"""Use cases for players: current ratings, history and adjustments (leaderboards:
:mod:`app.services.leaderboards`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol, TypeVar

from sqlalchemy.orm import Session

from app.core import metrics
from app.core.database import Database
from app.core.errors import Invalid, NotFound
from app.engine.protocols import key_for
from app.models import NO_FACTION, Change, Event, Ladder, PlayerRating
from app.repositories.changes import ChangeRepository
from app.repositories.events import EventRepository
from app.repositories.ladders import LadderRepository
from app.repositories.profiles import ProfileRepository
from app.repositories.ratings import RatingRepository
from app.schemas.events import AdjustmentIn
from app.schemas.players import (
    DecayOut,
    EventStatisticsOut,
    HistoryEntry,
    HistoryOut,
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
from app.services.unit_of_work import UnitOfWork, run_write


def faction_out(faction: str) -> str | None:
    return None if faction == NO_FACTION else faction


def win_share(part: int, counted: _Counted) -> float | None:
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


def with_event_statistics(
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
        win_rate=win_share(counted.wins, counted),
        loss_rate=win_share(counted.losses, counted),
        last_played_at=counted.last_played_at,
        position=position,
        **extra,
    )


def rating_out(row: PlayerRating, position: int | None) -> RatingOut:
    return _rating(RatingOut, faction_out(row.faction), row, row, position)


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
        with_event_statistics(session, ladder, out.ratings, player, as_of)
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
            ratings=[entry_out(e, pos) for pos, e in sorted(mine, key=by_faction)],
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
        faction=faction_out(change.faction),
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
        faction=faction_out(snapshot["faction"]),
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


def by_faction(item: tuple[int, snapshots.Entry]) -> str:
    return item[1].faction or ""


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


def days_before(reference: datetime, days: int) -> datetime | None:
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
            faction = faction_out(row.faction)
            rating = _rating(LadderRatingOut, faction, row, row, position, ladder=row.ladder_id)
            with_event_statistics(session, ladder, [rating], player, None)
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
