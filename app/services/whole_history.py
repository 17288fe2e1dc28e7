"""The stored fit of a whole-history ladder (``ttt``, ``whr``: API.md "Whole-history and
large-field systems"), and the live history it is a fit of.

A write of new games after everything stored (at most :data:`EXTEND_MAX` rated ones) is
answered after the engine's bounded update (``rater.add_game``) of the stored fit's parts it
reads (:func:`extend_fit`): only the games' players move, and the fit is marked unconverged.
The service's background work (:mod:`app.services.convergence`) then refits the whole live
history, warm from the stored fit, and serves the converged fit. Every other write (a
correction, a void, a late game, a larger batch, a ladder's first game) refits the whole live
history synchronously, warm, under the ladder's exclusive lock. The served ratings are each
player's last curve point (:meth:`app.services.replay.Replay.finish`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any, cast

from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import Invalid, NotFound
from app.engine.errors import arithmetic_refused
from app.engine.ledger import PLAYERS, UNRATED_DETAILS
from app.engine.protocols import CurvePoint, Fit, WholeHistoryRater, key_for
from app.engine.registry import SYSTEMS
from app.engine.types import Change, Game, PlayerKey, frozen
from app.repositories.events import EventRepository
from app.repositories.fits import FitRepository
from app.repositories.ladders import LadderRepository
from app.repositories.ratings import RatingRepository
from app.schemas.ladders import CurveOut, CurvePointOut, FitOut
from app.services.conversion import stored_to_engine
from app.services.runtime import (
    Runtime,
    db_key,
    decode_state,
    engine_refusals,
    now,
    plain,
    require_ladder,
)

#: Events read per page when the live history is read for a fit.
PAGE = 5_000
#: Not from the sources: a write of more new rated games than this refits the whole history
#: instead of extending the fit game by game (a bounded update costs about a thousandth of a
#: full fit of a large ladder; a large batch or an import chunk costs as much either way, and
#: its refit leaves the ladder converged).
EXTEND_MAX = 100
#: Details of a change in a whole-history ladder: its before and after are the player's served
#: estimates around the write (no formula's terms: the fit is of the whole history).
WHOLE_HISTORY_DETAILS = frozen({"whole_history": True})


def whole_history(runtime: Runtime) -> WholeHistoryRater | None:
    """The ladder's rater if its system is a whole-history one, else None."""
    if not runtime.info.whole_history:
        return None
    return cast(WholeHistoryRater, runtime.rater)


def live_games(session: Session, ladder_id: str, per_faction: bool = False) -> list[Game]:
    """The ladder's live rated games in history order (time, then arrival): what the fit is
    of. Voided and unrated games are not in it."""
    games: list[Game] = []
    for page in EventRepository(session).live_rows(ladder_id, None, PAGE):
        for row in page:
            if row.rated:
                games.append(cast(Game, stored_to_engine(row.kind, row.body, per_faction)))
    return games


def fit_games(rater: WholeHistoryRater, games: Sequence[Game], warm: Fit | None) -> Fit:
    """``rater.fit``, a failure of its arithmetic a 422 (as any engine's, ledger.rate_event)."""
    with engine_refusals(), arithmetic_refused(PLAYERS):
        return rater.fit(games, warm)


def load_fit(session: Session, ladder_id: str) -> Fit | None:
    """The ladder's stored fit, or None when it has none yet."""
    repo = FitRepository(session)
    head = repo.head(ladder_id)
    if head is None:
        return None
    curves: dict[PlayerKey, tuple[CurvePoint, ...]] = {}
    players: dict[str, Any] = {}
    for row in repo.players(ladder_id):
        curves[PlayerKey(row.player)] = _curve_of(row)
        players[row.player] = row.state
    return Fit(
        curves=curves,
        converged=head.converged,
        sweeps=head.sweeps,
        max_step=head.max_step,
        state={**head.state, "players": players},
    )


def _curve_of(row: Any) -> tuple[CurvePoint, ...]:
    return tuple(CurvePoint(date.fromordinal(int(d)), float(r), float(s)) for d, r, s in row.curve)


def _curve_json(curve: Sequence[CurvePoint]) -> list[list[Any]]:
    return [[p.day.toordinal(), p.rating, p.deviation] for p in curve]


def extend_fit(
    session: Session,
    ladder_id: str,
    rater: WholeHistoryRater,
    games: Sequence[Game],
    *,
    store: bool = True,
) -> list[dict[PlayerKey, CurvePoint]] | None:
    """The bounded update of the ladder's stored fit by ``games`` (validated, rated, new, in
    history order after every stored game): each added by ``rater.add_game`` to the parts of
    the fit it reads (its players' rows, and the curves of ``add_game_reads``), which alone
    are read; the moved players' parts are stored back and the fit marked unconverged. Per
    game, its players' last curve points just after it. None when the stored fit cannot be
    extended (none yet, or made by an older engine): the caller refits. ``store=False`` (a
    dry run): nothing is stored."""
    repo = FitRepository(session)
    head = repo.head(ladder_id)
    if head is None or not rater.extends(head.state):
        return None
    curves: dict[PlayerKey, tuple[CurvePoint, ...]] = {}
    players: dict[str, Any] = {}
    loaded: set[str] = set()

    def load(names: set[str]) -> None:
        wanted = names - loaded
        for row in repo.players_named(ladder_id, wanted):
            curves[PlayerKey(row.player)] = _curve_of(row)
            players[row.player] = row.state
        loaded.update(wanted)

    step = 0.0
    moved: set[str] = set()
    after: list[dict[PlayerKey, CurvePoint]] = []
    for game in games:
        names = {p.player for p in game.participants}
        load(names)
        fit = Fit(curves, False, 0, 0.0, {**head.state, "players": players})
        load({key.player for key in rater.add_game_reads(fit, game)})
        with engine_refusals(), arithmetic_refused(PLAYERS):
            fit = rater.add_game(fit, game)
        curves.update(fit.curves)
        players.update(cast(dict[str, Any], fit.state)["players"])
        step = max(step, fit.max_step)
        moved |= names
        after.append({PlayerKey(name): curves[PlayerKey(name)][-1] for name in names})
    if moved and store:
        rows = [
            {
                "player": name,
                "curve": _curve_json(curves[PlayerKey(name)]),
                "state": plain(players.get(name, [])),
            }
            for name in sorted(moved)
        ]
        repo.put_players(ladder_id, rows)
        repo.mark_unconverged(ladder_id, step, now())
    return after


def store_fit(session: Session, ladder_id: str, fit: Fit, at: datetime) -> None:
    """Store ``fit`` in place of the ladder's previous one: the engine's state split into its
    per-player part (``state["players"]``, by player) and the rest."""
    state = dict(plain(fit.state))  # a copy: the fit's own state is not touched
    by_player: dict[str, Any] = state.pop("players", {})
    curves = {key.player: curve for key, curve in fit.curves.items()}
    rows = [
        {
            "player": player,
            "curve": _curve_json(curves.get(player, ())),
            "state": by_player.get(player, []),
        }
        for player in sorted(curves.keys() | by_player.keys())
    ]
    head = {
        "converged": fit.converged,
        "sweeps": fit.sweeps,
        "max_step": fit.max_step,
        "state": state,
    }
    FitRepository(session).replace(ladder_id, head, rows, at)


def fit_out(session: Session, ladder_id: str) -> FitOut | None:
    """``GET /ladders/{ladder}``'s ``fit``: None where the ladder has none (another system,
    or no game yet)."""
    head = FitRepository(session).head(ladder_id)
    if head is None:
        return None
    return FitOut(converged=head.converged, sweeps=head.sweeps, max_step=head.max_step, at=head.at)


def get_curve(db: Database, ladder_id: str, player: str) -> CurveOut:
    """``GET /ladders/{ladder}/players/{player}/curve``: the player's curve in the stored fit
    (404 for an unknown ladder or a player without one; 422 on a ladder whose system keeps
    no curve)."""

    def work(session: Session) -> CurveOut:
        ladder = require_ladder(LadderRepository(session).get(ladder_id), ladder_id)
        info = SYSTEMS[ladder.system].info
        if not info.whole_history:
            raise Invalid.at(
                ("ladder",),
                f"ladder uses the system {info.id!r}: only whole-history systems (ttt, whr) "
                "keep a curve",
            )
        row = FitRepository(session).player(ladder_id, player)
        if row is None or not row.curve:
            raise NotFound(f"player {player!r} has no curve in ladder {ladder_id!r}")
        points = [
            CurvePointOut(day=date.fromordinal(int(d)), rating=float(r), deviation=float(s))
            for d, r, s in row.curve
        ]
        return CurveOut(player=player, points=points)

    return db.run(work, write=False)


def dry_run(session: Session, ladder_id: str, runtime: Runtime, game: Game) -> list[Change]:
    """A dry run's changes on a whole-history ladder: what the write would answer, the
    players' served estimates now and after the write's update (a new game: the bounded
    update of :func:`extend_fit`; a late one: a refit of the live history with ``game`` in
    its place, after every stored game of its time or earlier); nothing is stored."""
    rater = whole_history(runtime)
    assert rater is not None
    keys = [key_for(runtime.info, p.player, p.faction) for p in game.participants]
    rows = RatingRepository(session).rows(ladder_id, [db_key(k) for k in keys])
    initial = rater.initial_state({})
    before = {}
    for key in keys:
        row = rows.get(db_key(key))
        rated = row is not None and row.last_change_id is not None
        before[key] = decode_state(row.state) if row is not None and rated else initial
    if not game.rated:
        return [Change(k, before[k], before[k], UNRATED_DETAILS) for k in keys]
    latest = EventRepository(session).latest(ladder_id)
    if latest is None or latest[0] <= game.played_at:
        extended = extend_fit(session, ladder_id, rater, [game], store=False)
        if extended is not None:
            [points] = extended
            return [
                Change(k, before[k], rater.state_of(points[k]), WHOLE_HISTORY_DETAILS) for k in keys
            ]
    games = live_games(session, ladder_id, runtime.info.per_faction)
    at = bisect_right([g.played_at for g in games], game.played_at)
    fit = fit_games(rater, [*games[:at], game, *games[at:]], load_fit(session, ladder_id))
    return [
        Change(k, before[k], rater.state_of(fit.curves[k][-1]), WHOLE_HISTORY_DETAILS) for k in keys
    ]
