"""Dependencies: the process's database, and authorisation."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.core.database import Database
from app.core.errors import Unauthorized
from app.core.settings import Settings

bearer = HTTPBearer(auto_error=False, description="Bearer token (RATINGS_ADMIN_TOKEN)")


def get_db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


def get_settings_dep(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def _is_admin(settings: Settings, credentials: HTTPAuthorizationCredentials | None) -> bool:
    if credentials is None or settings.admin_token is None:
        return False
    return hmac.compare_digest(credentials.credentials.encode(), settings.admin_token.encode())


def require_write(
    credentials: Credentials, settings: Annotated[Settings, Depends(get_settings_dep)]
) -> None:
    """Writes need the admin token."""
    if credentials is None:
        raise Unauthorized("this request needs a bearer token")
    if not _is_admin(settings, credentials):
        raise Unauthorized("the bearer token is not valid")


def require_read(
    credentials: Credentials, settings: Annotated[Settings, Depends(get_settings_dep)]
) -> None:
    """Reads are open when RATINGS_PUBLIC_READS=true, else they need a valid token."""
    if settings.public_reads:
        return
    require_write(credentials, settings)


DB = Annotated[Database, Depends(get_db)]
WriteAccess = Depends(require_write)
ReadAccess = Depends(require_read)
