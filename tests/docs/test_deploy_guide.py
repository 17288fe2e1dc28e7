"""docs/deploy.md lists every migration of migrations/versions (issue 40, item 9: it missed
0007), each once, in order, and names the newest in its summary."""

from __future__ import annotations

import re
from pathlib import Path

from tests.core.test_operator import revisions

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def test_deploy_md_lists_every_migration() -> None:
    text = DEPLOY.read_text()
    section = text.split("\n## Migrations\n")[1].split("\n## ")[0]
    listed = re.findall(r"^\| `(\w+)` \|", section, re.MULTILINE)
    every = revisions()
    assert listed == every
    assert f"revisions `{every[0]}`…`{every[-1]}`" in section
