"""A property of issue 20 for both team systems: the order in which sides, and members within a
side, are listed changes nothing, ties included (a free-for-all being sides of one, this covers
it too). Tied sides with identical contents are interchangeable and may swap results, so the
sides drawn here differ (``gaussian.rank_order``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import trueskill, weng_lin
from app.engine.gaussian import Gaussian, Member, Ratings, Side

CONFIGS: list[object] = [trueskill.TrueSkillConfig()] + [
    weng_lin.WengLinConfig(model=model) for model in weng_lin.MODELS
]

members = st.builds(
    Member,
    st.builds(Gaussian, st.floats(0.0, 50.0), st.floats(0.5, 9.0)),
    st.sampled_from([1.0, 1.0, 1.0, 0.5, 0.25]),
)
games = st.integers(2, 6).flatmap(
    lambda k: st.tuples(
        st.lists(
            st.lists(members, min_size=1, max_size=3).map(tuple),
            min_size=k,
            max_size=k,
            unique_by=lambda side: tuple(
                sorted((m.rating.mu, m.rating.sigma, m.weight) for m in side)
            ),
        ),
        st.lists(st.integers(1, 3), min_size=k, max_size=k),  # ties likely
        st.permutations(list(range(k))),
        st.randoms(use_true_random=False),
    )
)


def rate(config: object, sides: list[Side], ranks: list[int]) -> Ratings:
    if isinstance(config, trueskill.TrueSkillConfig):
        return trueskill.rate(config, sides, ranks)
    assert isinstance(config, weng_lin.WengLinConfig)
    return weng_lin.rate(config, sides, ranks)


def same(a: tuple[Gaussian, ...], b: tuple[Gaussian, ...]) -> None:
    for x, y in zip(a, b, strict=True):
        assert x.mu == pytest.approx(y.mu, abs=1e-9)
        assert x.sigma == pytest.approx(y.sigma, abs=1e-9)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: getattr(c, "model", "trueskill"))
@settings(max_examples=60, deadline=None)
@given(game=games)
def test_order_of_sides_and_members_changes_nothing(config: object, game: tuple) -> None:  # type: ignore[type-arg]
    sides, ranks, perm, rnd = game
    base = rate(config, sides, ranks)
    shuffled_members = []
    orders = []
    for i in perm:
        order = list(range(len(sides[i])))
        rnd.shuffle(order)
        orders.append(order)
        shuffled_members.append(tuple(sides[i][j] for j in order))
    moved = rate(config, shuffled_members, [ranks[i] for i in perm])
    for pos, i in enumerate(perm):
        unshuffled = [None] * len(orders[pos])
        for new_j, old_j in enumerate(orders[pos]):
            unshuffled[old_j] = moved[pos][new_j]
        same(tuple(unshuffled), base[i])  # type: ignore[arg-type]
