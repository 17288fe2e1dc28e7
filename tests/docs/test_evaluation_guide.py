"""docs/evaluation.md's worked example (three Elo games) shows the service's numbers: each
one, to the six decimals shown, is in the example's section."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

from app.engine import elo
from app.engine.evaluation import predictions, score
from app.engine.types import Game, Participant

PAGE = Path(__file__).resolve().parents[2] / "docs" / "evaluation.md"
START = datetime(2026, 12, 5, 18, 0, tzinfo=UTC)


def _example() -> str:
    text = PAGE.read_text(encoding="utf-8")
    return text[text.index("## Worked example") :]


def _games() -> list[Game]:
    """g1: a beats b; g2: a and c, c wins; g3: b and c draw (the example's order)."""
    ranks = [(("a", 1), ("b", 2)), (("a", 2), ("c", 1)), (("b", 1), ("c", 1))]
    return [
        Game(START + timedelta(hours=i), tuple(Participant(p, r) for p, r in game))
        for i, game in enumerate(ranks)
    ]


def test_the_worked_example_shows_the_services_numbers() -> None:
    rater = elo.SYSTEM.configure(None)
    pairs = list(predictions(elo.SYSTEM.info, rater, _games()))
    (p1, _), (p2, _), (p3, _) = (game[0] for game in pairs)
    scores = score(pairs)
    m, base = scores.candidate, scores.baseline
    assert base is not None
    bins = {b.low: b for b in m.calibration}
    c_after = 1500 + 32 * p2
    shown = [
        p1, p2, p3, 1 - p2, 1 - p3, c_after, c_after - 1484,
        -math.log(1 - p2), -(0.5 * math.log(p3) + 0.5 * math.log(1 - p3)), p2**2, (p3 - 0.5) ** 2,
        m.log_loss, m.brier, m.accuracy,
        bins[0.4].predicted, bins[0.4].observed, bins[0.5].predicted, bins[0.5].observed,
        base.log_loss, base.brier, base.accuracy,
    ]  # fmt: skip
    example = _example()
    for value in shown:
        assert value is not None
        assert f"{value:.6f}" in example, f"docs/evaluation.md's example lacks {value:.6f}"
    assert [b.count for b in m.calibration] == [0, 0, 0, 0, 2, 4, 0, 0, 0, 0]
    assert "| [0.4, 0.5) | 2 |" in example
    assert "| [0.5, 0.6) | 4 |" in example
