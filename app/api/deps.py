"""Dependencies: the process's database, and who is calling with which rights."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Annotated, TypeVar

import anyio.to_thread
from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.api.heavy import HeavySlots
from app.core.database import Database
from app.core.errors import Forbidden, Invalid, Unauthorized
from app.core.settings import Settings
from app.services import auth
from app.services.auth import Principal
from app.services.group_commit import GroupCommitter, LateCommitters
from app.services.runtime import refuse_future

T = TypeVar("T")
#: The address counted when the server does not know the client's (no socket peer).
UNKNOWN_ADDRESS = "unknown"
#: The status of a request whose client went away before the answer (nginx's convention).
CLIENT_CLOSED_REQUEST = 499

bearer = HTTPBearer(
    auto_error=False, description="The admin token (RATINGS_ADMIN_TOKEN) or an API key (rk_...)"
)


# The dependencies are coroutines: a plain ``def`` would cost each request a hop to the
# thread pool. What blocks (an API key lookup) goes to a thread itself.
async def get_db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


async def get_settings_dep(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


DB = Annotated[Database, Depends(get_db)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
AppSettings = Annotated[Settings, Depends(get_settings_dep)]


def _has_token(credentials: HTTPAuthorizationCredentials | None) -> bool:
    return credentials is not None and bool(credentials.credentials)


def _caller(
    settings: Settings, credentials: HTTPAuthorizationCredentials | None, scope: str
) -> auth.Caller:
    """Who the request says it is (401 when it says nothing usable)."""
    if credentials is None or not _has_token(credentials):
        raise Unauthorized("this request needs a bearer token")
    secret = auth.hashing_secret(settings.admin_token, settings.key_secret)
    per_minute = settings.rate_limit_per_minute
    return auth.claim(settings.admin_token, secret, credentials.credentials, scope, per_minute)


async def _verified(request: Request, caller: auth.Caller) -> Principal:
    """The caller, its key verified and counted now (a transaction of its own)."""
    if isinstance(caller, Principal):
        return caller
    request.state.claim = caller
    db: Database = request.app.state.db
    return await anyio.to_thread.run_sync(auth.authenticate, db, caller)


async def settle_claim(request: Request) -> None:
    """On a request's error path: verify and count a key that no committed transaction did
    (the request was refused before or inside its write, which rolled back), so that every
    request of a key counts once and an invalid key gets its 401 whatever else was wrong."""
    claim: auth.KeyClaim | None = getattr(request.state, "claim", None)
    if claim is not None and not claim.settled:
        await anyio.to_thread.run_sync(auth.authenticate, request.app.state.db, claim)


def _per_app(request: Request, name: str, make: Callable[[], T]) -> T:
    """A per-app object, made on first use (no await in between: one per app)."""
    value: T | None = getattr(request.app.state, name, None)
    if value is None:
        value = make()
        setattr(request.app.state, name, value)
    return value


async def _count_address(request: Request, weight: int = 1) -> None:
    """Count a read without a key against its client address (shared by the replicas)."""
    state = request.app.state
    limit = state.settings.public_reads_per_minute
    address = client_address(request)
    counted = await anyio.to_thread.run_sync(auth.count_address, state.db, address, limit, weight)
    request.state.rate_limit = counted


def client_address(request: Request) -> str:
    """The caller's address as the server sees it (behind a proxy: X-Forwarded-For, as far
    as uvicorn's ``FORWARDED_ALLOW_IPS`` trusts the proxy)."""
    return request.client.host if request.client is not None else UNKNOWN_ADDRESS


#: What an authenticating dependency is called with (settings and database come from the
#: app): one shape, so :func:`authenticate_early` can call any of them.
Authenticator = Callable[[Request, HTTPAuthorizationCredentials | None], Awaitable[object]]
#: Every authenticating dependency, for :func:`authenticate_early` to find in a route.
_AUTHENTICATORS: set[Authenticator] = set()


AuthenticatorT = TypeVar("AuthenticatorT", bound=Authenticator)


def _authenticator(function: AuthenticatorT) -> AuthenticatorT:
    _AUTHENTICATORS.add(function)
    return function


def requires(scope: str) -> Callable[..., Awaitable[Principal]]:
    """A dependency giving the caller, who must hold ``scope`` (401 / 403 otherwise), its key
    verified and counted at once."""

    @_authenticator
    async def dependency(request: Request, credentials: Credentials) -> Principal:
        settings = request.app.state.settings
        # Public reads are for callers without a token; one that shows a token is who the
        # token says (the admin is never limited, a key counts against its own limit).
        if scope == auth.READ and settings.public_reads and not _has_token(credentials):
            await _count_address(request)
            return auth.PUBLIC_READER
        principal = await _verified(request, _caller(settings, credentials, scope))
        principal.require_scope(scope)
        return principal

    return dependency


def writes(scope: str) -> Callable[..., Awaitable[auth.Caller]]:
    """A dependency for a write to history: the caller as claimed, its key verified, checked
    for ``scope`` and the ladder, and counted inside the write's own transaction (no
    transaction of its own; app/services/unit_of_work.py). 401 at once without a token."""

    @_authenticator
    async def dependency(request: Request, credentials: Credentials) -> auth.Caller:
        caller = _caller(request.app.state.settings, credentials, scope)
        if isinstance(caller, auth.KeyClaim):
            request.state.claim = caller
        return caller

    return dependency


@_authenticator
async def requires_admin(request: Request, credentials: Credentials) -> None:
    """Key management is for the admin token only (a valid key gets 403, anything else 401)."""
    caller = _caller(request.app.state.settings, credentials, auth.READ)
    if not (await _verified(request, caller)).is_admin:
        raise Forbidden("only the admin token manages API keys")


async def authenticate_early(request: Request) -> None:
    """Run the matched route's authentication now (401 / 403 as its dependency would).

    FastAPI decodes a JSON body before it resolves any dependency, so a body that is not JSON
    would otherwise get its 422 before the token is looked at: an invalid token must get its
    401 whatever the body. Called by the error handler only when the body failed to decode,
    so each request is still authenticated (and counted against its rate limit) once.
    """
    dependant = getattr(request.scope.get("route"), "dependant", None)
    pending = list(dependant.dependencies) if dependant is not None else []
    while pending:
        dependency = pending.pop()
        if dependency.call in _AUTHENTICATORS:
            await dependency.call(request, await bearer(request))
        pending.extend(dependency.dependencies)


@dataclass(frozen=True, slots=True)
class WriteContext:
    """What ``POST /games`` needs: the caller (to hold ``results:write``), the database, the
    settings and the app's group committers (new games; late games)."""

    caller: auth.Caller
    db: Database
    settings: Settings
    committer: GroupCommitter
    late: LateCommitters


@_authenticator
async def results_write_context(request: Request, credentials: Credentials) -> WriteContext:
    """The caller, ``DB``, ``AppSettings`` and the committer as one dependency, for the
    busiest endpoint: FastAPI resolved each of them separately at every request (a tenth of a
    worker's CPU went to resolving dependencies under load)."""
    state = request.app.state
    settings, db = state.settings, state.db
    caller = _caller(settings, credentials, auth.RESULTS_WRITE)
    if isinstance(caller, auth.KeyClaim):
        request.state.claim = caller
    committer = _per_app(request, "committer", lambda: GroupCommitter(db, settings.write_group_max))
    late = _per_app(
        request, "late_committers", lambda: LateCommitters(db, settings.write_group_max)
    )
    return WriteContext(caller, db, settings, committer, late)


async def heavy_slots(request: Request, settings: AppSettings) -> HeavySlots:
    return _per_app(request, "heavy_slots", lambda: HeavySlots(settings.heavy_concurrency))


async def charge(request: Request, caller: Principal, settings: Settings, weight: int) -> None:
    """Count a heavy read by its ``weight`` in the caller's rate limit (the dependency that
    identified the caller counted it once already)."""
    extra = weight - 1
    if extra <= 0 or caller.is_admin:
        return
    if caller is auth.PUBLIC_READER:
        await _count_address(request, extra)
        return
    db: Database = request.app.state.db
    per_minute = settings.rate_limit_per_minute
    counted = await anyio.to_thread.run_sync(auth.count_request, db, caller, per_minute, extra)
    if counted is not None:
        request.state.rate_limit = counted


Reader = Annotated[Principal, Depends(requires(auth.READ))]
LadderAdmin = Annotated[Principal, Depends(requires(auth.LADDERS_ADMIN))]
#: Writers of history: verified inside the write's transaction.
ResultsWriter = Annotated[auth.Caller, Depends(writes(auth.RESULTS_WRITE))]
HistoryAdmin = Annotated[auth.Caller, Depends(writes(auth.LADDERS_ADMIN))]
AdminOnly = Depends(requires_admin)
ResultsWriteContext = Annotated[WriteContext, Depends(results_write_context)]
Heavy = Annotated[HeavySlots, Depends(heavy_slots)]


def check_sizes(
    settings: Settings,
    *,
    players: int | None = None,
    standings: int | None = None,
    games: int | None = None,
    tournaments: int | None = None,
) -> None:
    """The configurable request limits (422 naming the field and the limit)."""
    limits = (
        ("players", players, settings.max_field_players),
        ("standings", standings, settings.max_standings),
        ("games", games, settings.max_batch_games),
        # A batch of tournaments takes as many events as one of games.
        ("tournaments", tournaments, settings.max_batch_games),
    )
    for field, count, limit in limits:
        if count is not None and count > limit:
            raise Invalid.at((field,), f"at most {limit} {field} per request, got {count}")


def check_times(
    settings: Settings, *times: tuple[tuple[str | int, ...], datetime | date | None]
) -> None:
    """Results' times not in the future (422 naming each field and the server's time)."""
    refuse_future(times, settings.future_tolerance_seconds)
