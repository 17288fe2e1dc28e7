"""Standings of tournaments made of games: total primary points, ties split by secondary.

Seed 002 (ManorCon 1986): "the winner of the individual tournament was the player with the
most Primary Points, again ties being split by Secondary Points"; a team's points are its
members' (the team tournament's winner was "the team with most Primary Points").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import Invalid, NotFound
from app.models import Ladder
from app.repositories.ladders import LadderRepository
from app.repositories.tournaments import TournamentRepository
from app.schemas.tournaments import PlayerStanding, StandingsOut, TeamsIn, TeamsOut, TeamStanding
from app.services.profiles import name_and_country, profiles_of
from app.services.runtime import refuse_archived, require_ladder, runtime_for

PRIMARY = "primary"
SECONDARY = "secondary"


def _points_ladder(session: Session, ladder_id: str) -> Ladder:
    ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
    info = runtime_for(ladder).info
    if not info.points_standings:
        raise Invalid.at(
            ("ladder",),
            f"system {info.id!r} scores no primary and secondary points; tournaments of games "
            "have standings on kinzett ladders (tournament systems: GET the tournament)",
        )
    return ladder


def _positions(keys: Iterable[tuple[float, float]]) -> list[int]:
    """Competition ranking over (primary, secondary), best first; equal keys share."""
    ordered = list(keys)
    return [1 + sum(1 for other in ordered if other > key) for key in ordered]


def standings(db: Database, ladder_id: str, tournament: str) -> StandingsOut:
    def work(session: Session) -> StandingsOut:
        ladder = _points_ladder(session, ladder_id)
        repo = TournamentRepository(session)
        changes = repo.game_changes(ladder_id, tournament)
        if not changes:
            raise NotFound(f"no rated games of tournament {tournament!r} in ladder {ladder_id!r}")
        teams = repo.teams(ladder_id, tournament)
        totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
        for player, details in changes:
            total = totals[player]
            total[0] += float(details.get(PRIMARY, 0.0))
            total[1] += float(details.get(SECONDARY, 0.0))
            total[2] += 1
        players = sorted(totals, key=lambda p: (-totals[p][0], -totals[p][1], p))
        positions = _positions((totals[p][0], totals[p][1]) for p in players)
        team_totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
        members: dict[str, list[str]] = defaultdict(list)
        for player, team in sorted(teams.items()):
            members[team].append(player)
            team_totals[team][0] += totals[player][0] if player in totals else 0.0
            team_totals[team][1] += totals[player][1] if player in totals else 0.0
        team_order = sorted(team_totals, key=lambda t: (-team_totals[t][0], -team_totals[t][1], t))
        team_positions = _positions((team_totals[t][0], team_totals[t][1]) for t in team_order)
        profiles = profiles_of(session, ladder.community, players)
        shown = {player: name_and_country(profiles, player) for player in players}
        return StandingsOut(
            ladder=ladder_id,
            tournament=tournament,
            players=[
                PlayerStanding(
                    position=position,
                    player=player,
                    name=shown[player][0],
                    country=shown[player][1],
                    team=teams.get(player),
                    games=int(totals[player][2]),
                    primary=totals[player][0],
                    secondary=totals[player][1],
                )
                for position, player in zip(positions, players, strict=True)
            ],
            teams=[
                TeamStanding(
                    position=position,
                    team=team,
                    members=members[team],
                    primary=team_totals[team][0],
                    secondary=team_totals[team][1],
                )
                for position, team in zip(team_positions, team_order, strict=True)
            ],
        )

    return db.run(work, write=False)


def set_teams(db: Database, ladder_id: str, tournament: str, body: TeamsIn) -> TeamsOut:
    """Declare (replace) the tournament's teams."""

    def work(session: Session) -> TeamsOut:
        refuse_archived(_points_ladder(session, ladder_id))
        members = {p: team for team, players in body.teams.items() for p in players}
        TournamentRepository(session).replace_teams(ladder_id, tournament, members)
        return TeamsOut(
            ladder=ladder_id,
            tournament=tournament,
            teams={team: sorted(players) for team, players in body.teams.items()},
        )

    return db.run(work)


def get_teams(db: Database, ladder_id: str, tournament: str) -> TeamsOut:
    def work(session: Session) -> TeamsOut:
        _points_ladder(session, ladder_id)
        grouped: dict[str, list[str]] = defaultdict(list)
        for player, team in sorted(
            TournamentRepository(session).teams(ladder_id, tournament).items()
        ):
            grouped[team].append(player)
        return TeamsOut(ladder=ladder_id, tournament=tournament, teams=dict(grouped))

    return db.run(work, write=False)
