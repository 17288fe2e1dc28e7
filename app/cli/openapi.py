"""``ratings openapi``: the OpenAPI document of the application, as a file (``make openapi``
writes openapi/openapi.json, which the typed clients are generated from)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.cli.common import Commands


def register(commands: Commands) -> None:
    openapi = commands.add_parser("openapi", help="write the OpenAPI document")
    openapi.add_argument("--output", type=Path, default=Path("openapi/openapi.json"))
    openapi.set_defaults(run=lambda args: write_openapi(args.output))


def write_openapi(output: Path) -> None:
    from app.main import create_app

    document = create_app().openapi()
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")
