"""Who is calling: the admin token or an API key, with scopes and ladders.

Keys look like ``rk_<id>_<secret>``. Only HMAC-SHA256(key secret, key) is stored, compared in
constant time. Nothing is cached between requests, so a revocation takes effect on every
replica at once.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from dataclasses import dataclass

from sqlalchemy import update
from sqlalchemy.orm import Session

from app.core.database import Database
from app.core.errors import Forbidden, Invalid, NotFound, TooManyRequests, Unauthorized
from app.core.logging import note
from app.models import ApiKey, RateWindow
from app.repositories.keys import KeyRepository
from app.schemas.keys import KeyCreated, KeyIn, KeyList, KeyOut
from app.services.runtime import now

KEY_PREFIX = "rk_"
KEY_ID_BYTES = 6
KEY_SECRET_BYTES = 32
READ = "read"
RESULTS_WRITE = "results:write"
LADDERS_ADMIN = "ladders:admin"
SCOPES = (READ, RESULTS_WRITE, LADDERS_ADMIN)
ALL_LADDERS = "*"
#: The rate limit's fixed window (seconds).
RATE_WINDOW_SECONDS = 60
#: Label that derives the key-hash secret from the admin token when none is configured.
DERIVATION_LABEL = b"ratings api key hashing v1"


@dataclass(frozen=True, slots=True)
class Principal:
    """The caller. The admin holds every scope on every ladder, and manages keys."""

    scopes: frozenset[str]
    ladders: frozenset[str]
    key_id: str | None = None
    is_admin: bool = False

    def require_scope(self, scope: str) -> None:
        if not self.is_admin and scope not in self.scopes:
            raise Forbidden(f"this key lacks the {scope!r} scope")

    def sees(self, ladder_id: str) -> bool:
        return self.is_admin or ALL_LADDERS in self.ladders or ladder_id in self.ladders

    def check_ladder(self, ladder_id: str) -> None:
        """A key limited to other ladders sees this one as if it did not exist."""
        note(ladder=ladder_id)
        if not self.sees(ladder_id):
            raise NotFound(f"ladder {ladder_id!r} does not exist")


ADMIN = Principal(scopes=frozenset(SCOPES), ladders=frozenset({ALL_LADDERS}), is_admin=True)
PUBLIC_READER = Principal(scopes=frozenset({READ}), ladders=frozenset({ALL_LADDERS}))


def hashing_secret(admin_token: str | None, key_secret: str | None) -> bytes | None:
    if key_secret:
        return key_secret.encode()
    if admin_token:
        return hmac.new(admin_token.encode(), DERIVATION_LABEL, hashlib.sha256).digest()
    return None


def _digest(secret: bytes, token: str) -> str:
    return hmac.new(secret, token.encode(), hashlib.sha256).hexdigest()


def is_admin_token(admin_token: str | None, token: str) -> bool:
    return admin_token is not None and hmac.compare_digest(token.encode(), admin_token.encode())


def authenticate(db: Database, secret: bytes | None, token: str) -> Principal:
    """The key's principal, or 401 (unknown, malformed, revoked or expired key)."""
    if secret is None or not token.startswith(KEY_PREFIX) or token.count("_") < 2:
        raise Unauthorized("the bearer token is not valid")
    key_id = token[len(KEY_PREFIX) :].split("_", 1)[0]

    def work(session: Session) -> ApiKey | None:
        return KeyRepository(session).get(key_id)

    key = db.run(work, write=False)
    # Compare even when the key is unknown, so timing does not tell which ids exist.
    expected = key.secret_hash if key is not None else "0" * 64
    valid = hmac.compare_digest(expected, _digest(secret, token))
    if key is None or not valid:
        raise Unauthorized("the bearer token is not valid")
    moment = now()
    if key.revoked_at is not None:
        raise Unauthorized("this key has been revoked")
    if key.expires_at is not None and key.expires_at <= moment:
        raise Unauthorized("this key has expired")
    # The key's public id (never its secret): who made the request, in its log line.
    note(key_id=key.id)
    return Principal(scopes=frozenset(key.scopes), ladders=frozenset(key.ladders), key_id=key.id)


def count_request(db: Database, principal: Principal, per_minute: int, weight: int = 1) -> None:
    """Fixed-window rate limit per key, counted in the database so replicas share it.

    A request counts ``weight`` times (a heavy read by its cost, app.services.heavy).
    """
    if principal.key_id is None or per_minute <= 0:
        return
    moment = time.time()
    window = int(moment // RATE_WINDOW_SECONDS) * RATE_WINDOW_SECONDS
    key_id = principal.key_id

    def work(session: Session) -> int:
        repo = KeyRepository(session)
        count = repo.count_request(key_id, window)
        if count == 1:
            repo.forget_windows_before(key_id, window)
        if weight > 1:
            # The rest of the weight on the row just counted (one statement, atomic).
            count = int(
                session.scalar(
                    update(RateWindow)
                    .where(RateWindow.key_id == key_id, RateWindow.window_start == window)
                    .values(count=RateWindow.count + (weight - 1))
                    .returning(RateWindow.count)
                )
                or count
            )
        return count

    if db.run(work) > per_minute:
        retry_after = int(window + RATE_WINDOW_SECONDS - moment) + 1
        raise TooManyRequests(
            f"more than {per_minute} requests this minute for this key; retry later", retry_after
        )


class AddressLimit:
    """Fixed-window rate limit per client address, for reads without a key
    (``RATINGS_PUBLIC_READS``). Counted in this process: an address gets the limit from each
    replica, and nothing is stored for callers who hold no key."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._window = 0
        self._counts: dict[str, int] = {}

    def count(self, address: str, per_minute: int, weight: int = 1) -> None:
        """Count ``weight`` requests of ``address``; 429 past ``per_minute`` (0: no limit)."""
        if per_minute <= 0:
            return
        moment = time.time()
        window = int(moment // RATE_WINDOW_SECONDS) * RATE_WINDOW_SECONDS
        with self._lock:
            if window != self._window:
                # A new window forgets every address: the table holds one minute at most.
                self._window, self._counts = window, {}
            count = self._counts.get(address, 0) + weight
            self._counts[address] = count
        if count > per_minute:
            raise TooManyRequests(
                f"more than {per_minute} requests this minute from this address without a "
                "key; retry later, or use an API key",
                int(window + RATE_WINDOW_SECONDS - moment) + 1,
            )


def create_key(db: Database, secret: bytes | None, body: KeyIn) -> KeyCreated:
    if secret is None:
        raise Invalid.at((), "keys need RATINGS_KEY_SECRET or RATINGS_ADMIN_TOKEN to be set")
    key_id = secrets.token_hex(KEY_ID_BYTES)
    token = f"{KEY_PREFIX}{key_id}_{secrets.token_urlsafe(KEY_SECRET_BYTES)}"
    stamp = now()
    if body.expires_at is not None and body.expires_at <= stamp:
        raise Invalid.at(("expires_at",), "must be in the future")
    key = ApiKey(
        id=key_id,
        name=body.name,
        secret_hash=_digest(secret, token),
        scopes=sorted(set(body.scopes)),
        ladders=sorted(set(body.ladders)),
        created_at=stamp,
        expires_at=body.expires_at,
    )
    db.run(lambda session: KeyRepository(session).add(key))
    return KeyCreated(**_out(key).model_dump(), key=token)


def _out(key: ApiKey) -> KeyOut:
    return KeyOut(
        id=key.id,
        name=key.name,
        prefix=f"{KEY_PREFIX}{key.id}_",
        scopes=list(key.scopes),
        ladders=list(key.ladders),
        created_at=key.created_at,
        expires_at=key.expires_at,
        revoked_at=key.revoked_at,
    )


def list_keys(db: Database, limit: int, offset: int) -> KeyList:
    def work(session: Session) -> KeyList:
        total, keys = KeyRepository(session).page(limit, offset)
        return KeyList(total=total, keys=[_out(k) for k in keys])

    return db.run(work, write=False)


def revoke_key(db: Database, key_id: str) -> KeyOut:
    def work(session: Session) -> KeyOut:
        repo = KeyRepository(session)
        if repo.get(key_id) is None:
            raise NotFound(f"key {key_id!r} does not exist")
        repo.revoke(key_id, now())
        session.expire_all()
        key = repo.get(key_id)
        assert key is not None
        return _out(key)

    return db.run(work)
