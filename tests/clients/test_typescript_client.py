"""The TypeScript client (clients/typescript), run with Node: it compiles (tsc --strict over the
generated code, the helpers and the tour), its signature helper passes the Standard Webhooks
published vector (src/test/), and its tour (src/tour.ts) passes against a live server."""

from __future__ import annotations

import json
import os
import subprocess

from tests.api.live_server import Served
from tests.clients.conftest import TYPESCRIPT_CLIENT
from tests.conftest import ADMIN_TOKEN


def _run(command: list[str], **extra: str) -> str:
    done = subprocess.run(
        command,
        cwd=TYPESCRIPT_CLIENT,
        env={**os.environ, **extra},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_typescript_client_compiles_and_its_helpers_pass_their_tests(npm: str) -> None:
    output = _run([npm, "test"])
    assert "# fail 0" in output, output


def test_a_tour_of_the_typescript_client(npm: str, server: Served) -> None:
    _run([npm, "run", "--silent", "build"])
    output = _run(
        ["node", "dist/tour.js"],
        RATINGS_URL=server.url,
        RATINGS_TOKEN=ADMIN_TOKEN,
        RATINGS_TOUR_LADDER="ts-tour",
    )
    summary = json.loads(output.strip().splitlines()[-1])
    assert summary["tour"] == "ok"
    assert summary["cursor"] == 1  # the ladder's first write
