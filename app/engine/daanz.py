"""``daanz`` — DAANZ masterpoints (Diplomacy Association of Australia and New Zealand).

Source: seed 001_f1e33522112d1554.txt ("DAANZ Master Point"), which gives two data points
only: "for a Veteran to get point you need to have a result with 10 centers to get 3 Master
points. However a Champion only gets points for centers if his ... final count is 16", and
that "placing in a tournament or number of solo's" moves a player to the next classification.
SYSTEMS.md "daanz" makes the rest configurable; the defaults below are the project's own
reading, anchored on those two points.

Each player holds a classification (novice, intermediate, veteran, champion). A tournament
result — the player's final (best) centre count at the event, ``Placement.centres`` — earns
masterpoints from a table keyed by the player's classification and that centre count, plus an
optional bonus by place (none by default). The rating is the total of masterpoints; once the
total reaches a classification's threshold, the player is promoted to it (never demoted).

Default table (``[lowest centre count, masterpoints]`` rows; a result earns the value of the
highest row it reaches, nothing below the first row): the masterpoints rise with the centre
count in bands (4–6: 1, 7–9: 2, 10–12: 3, 13–15: 4, 16–17: 5, 18+: 6) and each classification
earns from a minimum centre count on (novice 4, intermediate 7, veteran 10, champion 16).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

from app.engine.base import RatingSystem
from app.engine.errors import InvalidParameter
from app.engine.params import (
    SCALE_LIMIT,
    ParamSpec,
    non_increasing_entries,
    nonnegative_number,
)
from app.engine.placements import (
    Place,
    StandingRule,
    StandingsRater,
    by_place,
    validate_centres,
    validate_standings,
)
from app.engine.protocols import SystemInfo
from app.engine.sources import BIRSAN_RANKING_SYSTEMS
from app.engine.types import Json, Placement, PlayerState, Tournament, frozen

#: The ordered classifications, lowest first (SYSTEMS.md "daanz").
DEFAULT_CLASSIFICATIONS: tuple[str, ...] = ("novice", "intermediate", "veteran", "champion")

#: The centre bands of the project's reading: [lowest centre count, masterpoints].
#: Anchors (seed 001): a veteran's first paying row is 10 centres → 3 masterpoints; a champion's
#: first paying row is 16 centres. 18 centres is a solo in standard Diplomacy.
DEFAULT_MASTERPOINTS: dict[str, list[list[int]]] = {
    "novice": [[4, 1], [7, 2], [10, 3], [13, 4], [16, 5], [18, 6]],
    "intermediate": [[7, 2], [10, 3], [13, 4], [16, 5], [18, 6]],
    "veteran": [[10, 3], [13, 4], [16, 5], [18, 6]],
    "champion": [[16, 5], [18, 6]],
}
#: Total masterpoints at which a player is promoted to each classification (project's reading;
#: the seed only says promotion depends on results).
DEFAULT_PROMOTION: dict[str, float] = {"intermediate": 10.0, "veteran": 30.0, "champion": 60.0}
#: Bonus masterpoints by place (entry 1 for 1st, ...): none by default, so the seed's anchors
#: hold for every place.
DEFAULT_PLACING_BONUS: tuple[float, ...] = ()
#: The most supply centres a player can hold on the standard board.
MAX_CENTRES = 34
#: Masterpoints of a result below a classification's first row, or past the bonus table.
NOTHING = 0.0
#: A new player has no masterpoints.
INITIAL_TOTAL = 0.0
#: Where the classification lives in PlayerState.extra.
CLASSIFICATION = "classification"


def _check_classifications(value: Json) -> None:
    if not value:
        raise ValueError("must name at least one classification")
    for i, name in enumerate(value):
        if not isinstance(name, str) or not name:
            raise ValueError(f"entry {i} must be a non-empty string")
    if len(set(value)) != len(value):
        raise ValueError("classifications must be distinct")


def _check_masterpoints(value: Json) -> None:
    for name, rows in value.items():
        if not isinstance(rows, list):
            raise ValueError(f"{name!r} must be a list of [lowest centre count, masterpoints]")
        previous = -1
        for i, row in enumerate(rows):
            if not isinstance(row, list | tuple) or len(row) != 2:
                raise ValueError(f"{name!r} row {i} must be [lowest centre count, masterpoints]")
            low = row[0]
            if isinstance(low, bool) or not isinstance(low, int) or not 0 <= low <= MAX_CENTRES:
                raise ValueError(f"{name!r} row {i}: centre count must be an integer 0..34")
            if low <= previous:
                raise ValueError(f"{name!r}: rows must go up in centre count")
            previous = low
            nonnegative_number(row[1], f"{name!r} row {i}: masterpoints")
        points = [float(row[1]) for row in rows]
        if points != sorted(points):
            raise ValueError(f"{name!r}: masterpoints must not fall as centres rise")


def _check_promotion(value: Json) -> None:
    for name, v in value.items():
        nonnegative_number(v, f"the threshold of {name!r}")


PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec(
        "classifications",
        "array",
        list(DEFAULT_CLASSIFICATIONS),
        "The classifications, lowest first; new players hold the first.",
        check=_check_classifications,
    ),
    ParamSpec(
        "masterpoints",
        "object",
        {k: [list(r) for r in v] for k, v in DEFAULT_MASTERPOINTS.items()},
        "By classification: rows [lowest final centre count, masterpoints], rising; a result "
        "earns the value of the highest row it reaches, nothing below the first row. Default: "
        "the project's reading of seed 001 (a veteran earns 3 for 10 centres; a champion "
        "earns from 16 centres on).",
        check=_check_masterpoints,
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "promotion",
        "object",
        dict(DEFAULT_PROMOTION),
        "By classification (all but the first): the total masterpoints at which a player is "
        "promoted to it; thresholds rise with the classification.",
        check=_check_promotion,
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "placing_bonus",
        "array",
        [],
        "Bonus masterpoints by place (entry 1 for 1st, ...), tied players sharing the average; "
        "none by default.",
        check=non_increasing_entries("bonuses must not increase with the place"),
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
)

INFO = SystemInfo(
    id="daanz",
    title="DAANZ masterpoints",
    kind="tournament",
    description=(
        "DAANZ masterpoints: a tournament result earns masterpoints by the player's "
        "classification and final centre count (a veteran earns 3 for 10 centres, a champion "
        "only from 16); the rating is the total, and a total past a threshold promotes the "
        "player to the next classification. The default table is the project's own reading."
    ),
    sources=(BIRSAN_RANKING_SYSTEMS,),
    params=PARAMS,
)


def centre_points(rows: Sequence[Sequence[float]], centres: int) -> float:
    """The masterpoints of the highest row whose lowest centre count ``centres`` reaches."""
    earned = NOTHING
    for low, value in rows:
        if centres >= low:
            earned = float(value)
    return earned


@dataclass(frozen=True, slots=True)
class DaanzConfig:
    """A ladder's DAANZ parameters, checked and typed."""

    #: Lowest first; new players hold the first.
    classifications: tuple[str, ...]
    #: By classification: rows (lowest final centre count, masterpoints), rising.
    masterpoints: Mapping[str, tuple[tuple[int, float], ...]]
    #: By classification above the first: the total that promotes a player to it.
    promotion: Mapping[str, float]
    placing_bonus: tuple[float, ...]

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> DaanzConfig:
        """The typed configuration; InvalidParameter unless there is a masterpoints table for
        every classification and a threshold for every one above the first, the thresholds
        rising with the classification."""
        order = tuple(str(c) for c in params["classifications"])
        table = params["masterpoints"]
        if sorted(table) != sorted(order):
            raise InvalidParameter(
                "masterpoints", f"must give a table for each classification: {', '.join(order)}"
            )
        promotion = params["promotion"]
        if sorted(promotion) != sorted(order[1:]):
            raise InvalidParameter(
                "promotion",
                f"must give a threshold for each classification above the first: "
                f"{', '.join(order[1:]) or 'none'}",
            )
        thresholds = [float(promotion[name]) for name in order[1:]]
        if any(b <= a for a, b in pairwise(thresholds)):
            raise InvalidParameter("promotion", "thresholds must rise with the classification")
        return cls(
            classifications=order,
            masterpoints=frozen(
                {
                    name: tuple((int(low), float(points)) for low, points in rows)
                    for name, rows in table.items()
                }
            ),
            promotion=frozen({name: float(v) for name, v in promotion.items()}),
            placing_bonus=tuple(float(b) for b in params["placing_bonus"]),
        )


@dataclass(frozen=True, slots=True)
class DaanzRater(StandingsRater[DaanzConfig]):
    """A DAANZ ladder with resolved parameters."""

    def classification_of(self, state: PlayerState) -> str:
        """The held classification; a state without one (or with an unknown one) holds the
        first."""
        held = state.extra.get(CLASSIFICATION)
        order = self.config.classifications
        return str(held) if held in order else order[0]

    def promoted(self, held: str, total: float) -> str:
        """The highest classification above ``held`` whose threshold ``total`` reaches."""
        order = self.config.classifications
        promotion = self.config.promotion
        result = held
        for name in order[order.index(held) + 1 :]:
            if total >= promotion[name]:
                result = name
        return result

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        return PlayerState(
            rating=INITIAL_TOTAL, extra=frozen({CLASSIFICATION: self.config.classifications[0]})
        )

    def validate_tournament(self, tournament: Tournament) -> None:
        validate_standings(tournament)
        validate_centres(tournament, MAX_CENTRES)

    def standing_rule(self, tournament: Tournament) -> StandingRule:
        table = self.config.masterpoints
        bonus = self.config.placing_bonus

        def rule(s: Placement, p: Place, old: PlayerState) -> tuple[PlayerState, dict[str, Json]]:
            held = self.classification_of(old)
            centres = s.centres if s.centres is not None else 0
            from_centres = centre_points(table[held], centres)
            from_place = p.mean_over(lambda k: by_place(bonus, k))
            masterpoints = from_centres + from_place
            total = old.rating + masterpoints
            now = self.promoted(held, total)
            extra = dict(old.extra)
            extra[CLASSIFICATION] = now
            return PlayerState(rating=total, extra=frozen(extra)), {
                "classification": held,
                "centres": centres,
                "masterpoints": masterpoints,
                "centre_points": from_centres,
                "placing_bonus": from_place,
                "place": p.rank,
                "promoted_to": now if now != held else None,
            }

        return rule

    def adjusted_rating(
        self, previous: PlayerState | None, rating: float, at: datetime
    ) -> PlayerState:
        """Sets the total; the classification is kept, promoted if the new total reaches a
        higher threshold (never demoted)."""
        state = previous if previous is not None else self.initial_state({})
        extra = dict(state.extra)
        extra[CLASSIFICATION] = self.promoted(self.classification_of(state), rating)
        return PlayerState(rating=rating, extra=frozen(extra))


SYSTEM = RatingSystem(info=INFO, config=DaanzConfig.from_params, rater=DaanzRater)
