"""The docs stand alone: every link in README.md, bench/README.md and docs/ resolves inside
the repository (a file, and a heading where it names one), and no text points to files kept
outside it (a clone has only the repository)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", ROOT / "bench" / "README.md", *(ROOT / "docs").rglob("*.md")])
#: An inline Markdown link or image: [text](target), the target without a title.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
#: Code, fenced or inline, where brackets are code and not links.
CODE = re.compile(r"^```.*?^```|`[^`\n]*`", re.MULTILINE | re.DOTALL)
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.MULTILINE)
#: Places that exist beside the repository on the machine it was written on, not in a clone.
OUTSIDE = ("../shared", "/work/")


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    return {_slug(heading) for heading in HEADING.findall(text)}


def _links(page: Path) -> list[str]:
    return LINK.findall(CODE.sub("", page.read_text(encoding="utf-8")))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves_inside_the_repository(page: Path) -> None:
    for target in _links(page):
        if re.match(r"^[a-z]+:", target):  # http:, https:, mailto: — not a file
            continue
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        assert resolved.is_relative_to(ROOT), f"{page.name}: {target} leaves the repository"
        assert resolved.exists(), f"{page.name}: {target} does not exist"
        if anchor and resolved.suffix == ".md":
            assert anchor in _anchors(resolved), f"{page.name}: no heading #{anchor}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_points_outside_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for place in OUTSIDE:
        assert place not in text, f"{page.name} names {place}, which a clone does not have"


def test_the_anchor_rule_reads_headings_as_github_does() -> None:
    assert _slug("Known deviations and open issues") == "known-deviations-and-open-issues"
    assert _slug("Predictions (the lobby)") == "predictions-the-lobby"
    assert _slug("Evaluation: how well a system predicts a ladder's history") == (
        "evaluation-how-well-a-system-predicts-a-ladders-history"
    )
    assert _slug("Dashboard, /docs and /metrics") == "dashboard-docs-and-metrics"
