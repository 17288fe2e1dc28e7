"""``ratings serve``: migrate, make sure there is an admin token, then serve the application
with granian; and the ASGI factory (``served_app``) its workers load."""

from __future__ import annotations

import logging
import os
import secrets
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli.migrations import migrated
from app.core.settings import Settings, get_settings

if TYPE_CHECKING:
    import argparse

    from app.cli.common import Commands

#: prometheus_client's variable (as app/core/metrics.py reads it), not imported from there:
#: prometheus_client picks its value class when first imported, and this process sets it.
MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"
#: The ASGI application factory granian serves.
APP = "app.cli.serving:served_app"
#: Proxies whose X-Forwarded-For names the client (comma-separated addresses or networks,
#: or "*"): uvicorn's variable and default, kept for the deployments that set it.
FORWARDED_ALLOW_IPS = "FORWARDED_ALLOW_IPS"
#: Bytes of randomness in a generated admin token.
ADMIN_TOKEN_BYTES = 32
#: Where a generated admin token is shown: the controlling terminal, whatever stderr is.
TERMINAL = Path("/dev/tty")
#: granian's own lines as JSON on stderr, like every other line of the service.
GRANIAN_LOGGING: dict[str, Any] = {
    "formatters": {"json": {"()": "app.core.logging.JsonFormatter"}},
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "stream": "ext://sys.stderr",
        }
    },
    "loggers": {"_granian": {"handlers": ["stderr"], "propagate": False}},
}

# The logger's name is the one docs/operations.md shows and log filters may match on.
log = logging.getLogger("ratings.cli")


def register(commands: Commands) -> None:
    parser = commands.add_parser("serve", help="migrate, then serve with granian")
    parser.set_defaults(run=serve_command)


def serve_command(args: argparse.Namespace) -> None:
    serve()


def ensure_admin_token(settings: Settings, terminal: Path = TERMINAL) -> str:
    """The configured admin token, or one generated once and kept for the next start."""
    if settings.admin_token:
        return settings.admin_token
    path = settings.admin_token_file
    if path.exists():
        token = path.read_text().strip()
        if token:
            return token
    token = secrets.token_urlsafe(ADMIN_TOKEN_BYTES)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600)
    path.write_text(token + "\n")
    _show_generated_token(path, token, terminal)
    return token


def _show_generated_token(path: Path, token: str, terminal: Path) -> None:
    """Show a new token on the terminal of whoever started the service, and only there:
    stderr is the JSON log stream, which ends up in log files and container logs. Without a
    terminal the log says where the token is kept."""
    try:
        with terminal.open("w") as tty:
            tty.write(f"Generated an admin token (kept in {path}):\n  {token}\n")
    except OSError:  # no controlling terminal (a service manager, a container)
        log.warning("generated an admin token; it is kept in %s", path, extra={"file": str(path)})


def serve() -> None:
    """Migrate, then serve with granian until SIGTERM or SIGINT (SIGHUP: replace the workers
    one at a time)."""
    import multiprocessing

    from granian.constants import HTTPModes, Interfaces
    from granian.http import HTTP1Settings
    from granian.log import LogLevels
    from granian.server import Server

    from app.core.database import where
    from app.core.logging import configure_logging

    settings = get_settings()
    configure_logging(settings.log_level)  # this command's own lines, as the app's
    logging.getLogger("alembic").setLevel(logging.WARNING)  # its setup chatter, at INFO
    done = migrated(settings.database_url)
    if isinstance(done, str):
        # One JSON line, as every line of the service's stream; a supervisor restarts it.
        log.error(done, extra={"database": where(settings.database_url)})
        sys.exit(1)
    for line in done.lines():
        log.info(line, extra={"database": where(settings.database_url)})
    # Generated once into the token file, which the workers' settings read: the token is
    # never put in the environment, where child processes and /proc/PID/environ show it.
    ensure_admin_token(settings)
    if settings.workers > 1 and not os.environ.get(MULTIPROCESS_ENV):
        # Worker processes write their metrics here; /metrics adds them up.
        os.environ[MULTIPROCESS_ENV] = tempfile.mkdtemp(prefix="ratings-metrics-")
    # Each worker a fresh interpreter: forked ones would keep the modules this process has
    # imported (settings, models, migrations), old code after a SIGHUP.
    multiprocessing.set_start_method("spawn", force=True)
    address = listening_address(settings.host, settings.port)
    log.info(
        "serving %s with %d worker(s)",
        address,
        settings.workers,
        extra={"address": address, "workers": settings.workers},
    )
    Server(
        APP,
        address=settings.host,
        port=settings.port,
        interface=Interfaces.ASGI,
        factory=True,
        workers=settings.workers,
        http=HTTPModes.http1,
        websockets=False,
        # granian's one read timeout: a request's headers must arrive within it, whether the
        # connection is new, idle between requests (keep-alive) or trickling them.
        http1_settings=HTTP1Settings(header_read_timeout=round(settings.keep_alive_timeout * 1000)),
        respawn_failed_workers=True,
        workers_kill_timeout=settings.shutdown_grace_seconds,
        log_level=LogLevels(settings.log_level.lower()),
        log_dictconfig=GRANIAN_LOGGING,
    ).serve()


def listening_address(host: str, port: int) -> str:
    """The URL the service answers at (an IPv6 address in brackets)."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def served_app() -> Any:
    """The application as ``ratings serve`` serves it: behind a trusted proxy, the client's
    address (which the public reads' limit counts) is the one the proxy forwards; at
    shutdown, what still runs near the end of the grace is answered 503 (app/api/shutdown.py)."""
    from granian.utils.proxies import wrap_asgi_with_proxy_headers

    from app.api.shutdown import Drain
    from app.main import create_app

    trusted = os.environ.get(FORWARDED_ALLOW_IPS, "127.0.0.1")
    drained = Drain(create_app(), get_settings().shutdown_grace_seconds)
    return wrap_asgi_with_proxy_headers(drained, trusted)
