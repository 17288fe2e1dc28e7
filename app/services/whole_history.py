"""The stored fit of a whole-history ladder (``ttt``, ``whr``: API.md "Whole-history and
large-field systems"), and the live history it is a fit of.

Version 1 refits the whole live history at every write, synchronously, under the ladder's
exclusive lock, warm-started from the stored fit (``rater.fit(games, warm)``); the served
ratings are each player's last curve point (:meth:`app.services.replay.Replay.finish`).
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
    plain,
    require_ladder,
)

#: Events read per page when the live history is read for a fit.
PAGE = 5_000
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
        curves[PlayerKey(row.player)] = tuple(
            CurvePoint(date.fromordinal(int(d)), float(r), float(s)) for d, r, s in row.curve
        )
        players[row.player] = row.state
    return Fit(
        curves=curves,
        converged=head.converged,
        sweeps=head.sweeps,
        max_step=head.max_step,
        state={**head.state, "players": players},
    )


def store_fit(session: Session, ladder_id: str, fit: Fit, at: datetime) -> None:
    """Store ``fit`` in place of the ladder's previous one: the engine's state split into its
    per-player part (``state["players"]``, by player) and the rest."""
    state = dict(plain(fit.state))  # a copy: the fit's own state is not touched
    by_player: dict[str, Any] = state.pop("players", {})
    curves = {key.player: curve for key, curve in fit.curves.items()}
    rows = [
        {
            "player": player,
            "curve": [[p.day.toordinal(), p.rating, p.deviation] for p in curves.get(player, ())],
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
    players' served estimates now and after a refit of the live history with ``game`` in
    its place (after every stored game of its time or earlier); nothing is stored."""
    rater = whole_history(runtime)
    assert rater is not None
    games = live_games(session, ladder_id, runtime.info.per_faction)
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
    at = bisect_right([g.played_at for g in games], game.played_at)
    fit = fit_games(rater, [*games[:at], game, *games[at:]], load_fit(session, ladder_id))
    return [
        Change(k, before[k], rater.state_of(fit.curves[k][-1]), WHOLE_HISTORY_DETAILS) for k in keys
    ]
