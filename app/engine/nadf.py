"""NADF ranking (North American Diplomacy Federation), as last described in print.

Source: seed 001_f1e33522112d1554.txt (Edi Birsan, "NADF Ranking", the nine-step
computation by Buz Eddy); SYSTEMS.md ``nadf``. Symbols follow the seed:

- base: starts at 1000 and rises by 2 per winner each game; ratings below it revert to it;
- W: number of winners (1 for a solo, the draw size otherwise);
- pot = 12 % of the total of the ratings in the game; each player's contribution c = 0.12 R;
- WS = pot / W, modified by LA / WA (losers' and winners' average ratings);
- country factors (R 16.1, E 16.3, F 16.2, T 15.1, G 13.2, A 12.1, I 10.4), mean M = 14.2;
- a winner gains WS × M / factor − c, at least 2 W + 2, at most (cap − R) / 2,
  cap = 3000 + 50 per power the player has soloed with;
- a loser loses c × factor / M.

Order of operations (the seed gives none; this module's reading, docs/systems/nadf.md):

1. every ``before`` rating below the pre-game base is first raised to it (lazy floor: a
   player's stored rating may predate base rises from games it did not play);
2. pot, shares and changes are computed from those ratings;
3. a winner's gain is raised to the minimum gain, *then* limited by the cap (the cap wins;
   a player at or above its cap gains 0 rather than losing);
4. the base rises by 2 W; every rating of the game below the new base is raised to it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from app.engine.base import BaseRater, RatingSystem
from app.engine.diplomacy import FULL_GAME_PLAYERS, POWERS, DiplomacyGame, read_game
from app.engine.params import SCALE_LIMIT, ParamSpec
from app.engine.protocols import SystemInfo
from app.engine.sources import BIRSAN_RANKING_SYSTEMS
from app.engine.types import (
    Change,
    Game,
    Json,
    Outcome,
    PlayerKey,
    PlayerState,
    frozen,
)

#: Seed 001: "All players start at 1000."
INITIAL_BASE = 1000.0
#: Seed 001: "The base is raised each game two points per number of winners."
BASE_STEP = 2.0
#: Seed 001 step 7: "Must get a minimum of game base adjustment plus two."
MINIMUM_GAIN_BONUS = 2.0
#: Seed 001 step 4: "compute game 'pot' which is 12% of the total ratings in the game".
POT_RATE = 0.12
#: Seed 001 step 9: "Individual Cap is 3000 ..."
CAP_BASE = 3000.0
#: Seed 001 step 9: "... and increased by 50 points for each country which a solo is rated".
CAP_PER_SOLO = 50.0
#: Seed 001 step 9: "Single game gain limited to one half the difference ... [to the] cap".
CAP_FRACTION = 0.5
#: Seed 001 step 1: "Current about R 16.1, E- 16.3, F-16.2, T- 15.1, G- 13.2 A-12.1, I- 10.4".
COUNTRY_FACTORS: dict[str, float] = {
    "Russia": 16.1,
    "England": 16.3,
    "France": 16.2,
    "Turkey": 15.1,
    "Germany": 13.2,
    "Austria": 12.1,
    "Italy": 10.4,
}
#: "country factor adjusted": multiply by M / factor (winners) and factor / M (losers).
ADJUST_MEAN_RATIO = "mean_ratio"
#: Switch the country adjustment off (multiplier 1).
ADJUST_NONE = "none"
#: NADF records games by country; fewer than seven players are accepted (the others unknown).
MIN_PLAYERS = 2
#: Not from the seed: the smallest country factor, a hundredth of a point (three orders of
#: magnitude below the published 10.4 to 16.3), so that M / factor stays far from overflow.
FACTOR_MIN = 0.01
#: Not from the seed: the smallest initial base, one point. Every rating is at least the base,
#: so the winners' average WA is too, and LA / WA stays finite (a base of 5e-324 made it
#: infinite).
BASE_MIN = 1.0

#: Ladder-state key of the current base.
BASE_KEY = "base"
#: PlayerState.extra key: the powers this player has soloed with in this ladder.
SOLOS_KEY = "solos"


def _check_factors(value: Json) -> None:
    """The country factors: exactly the seven powers (full names), each a positive number."""
    if not isinstance(value, dict):
        raise ValueError("must be an object")
    missing = [p for p in POWERS if p not in value]
    unknown = [k for k in value if k not in POWERS]
    if missing or unknown:
        raise ValueError(
            "needs exactly the seven powers "
            + ", ".join(POWERS)
            + (f"; missing {', '.join(missing)}" if missing else "")
            + (f"; unknown {', '.join(map(str, unknown))}" if unknown else "")
        )
    for power, factor in value.items():
        if isinstance(factor, bool) or not isinstance(factor, int | float):
            raise ValueError(f"{power}: must be a number")
        if not math.isfinite(factor) or factor <= 0:
            raise ValueError(f"{power}: must be a positive finite number, got {factor}")


PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec(
        "initial_base",
        "number",
        INITIAL_BASE,
        "The base before the first game; new players start at the current base.",
        minimum=BASE_MIN,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "base_step",
        "number",
        BASE_STEP,
        "Points the base rises per winner in each game (2 × W).",
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "minimum_gain_bonus",
        "number",
        MINIMUM_GAIN_BONUS,
        "A winner gains at least the game's base rise plus this (2 × W + 2).",
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "pot_rate",
        "number",
        POT_RATE,
        "Share of its rating each player puts into the pot (12 %).",
        minimum=0.0,
        maximum=1.0,
        exclusive_minimum=True,
    ),
    ParamSpec(
        "cap_base",
        "number",
        CAP_BASE,
        "A player's cap before any solo; one game's gain is at most half the distance to it.",
        minimum=0.0,
        exclusive_minimum=True,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "cap_per_solo",
        "number",
        CAP_PER_SOLO,
        "Cap increase per power the player has soloed with in this ladder.",
        minimum=0.0,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "country_factors",
        "object",
        dict(COUNTRY_FACTORS),
        "Country factor per power (all seven, positive); M is their mean.",
        check=_check_factors,
        minimum=FACTOR_MIN,
        maximum=SCALE_LIMIT,
    ),
    ParamSpec(
        "country_adjust",
        "string",
        ADJUST_MEAN_RATIO,
        "How factors adjust changes: mean_ratio (winner × M/factor, loser × factor/M) or none.",
        choices=(ADJUST_MEAN_RATIO, ADJUST_NONE),
    ),
)

INFO = SystemInfo(
    id="nadf",
    title="NADF ranking",
    kind="game",
    description=(
        "North American Diplomacy Federation game ranking: a pot of 12 % of the players'"
        " ratings goes to the winners (solo or draw), scaled by losers' over winners' average"
        " rating and by country factors; a rising base floors every rating."
    ),
    sources=(BIRSAN_RANKING_SYSTEMS,),
    params=PARAMS,
    ladder_scoped=True,
)


def solos_of(state: PlayerState) -> tuple[str, ...]:
    """The powers ``state``'s player has soloed with (extra["solos"], list or tuple)."""
    raw = state.extra.get(SOLOS_KEY, ())
    return tuple(str(p) for p in raw) if isinstance(raw, list | tuple) else ()


@dataclass(frozen=True, slots=True)
class NadfConfig:
    """A ladder's NADF parameters, checked and typed."""

    initial_base: float
    base_step: float
    minimum_gain_bonus: float
    pot_rate: float
    cap_base: float
    cap_per_solo: float
    #: By power (full names).
    country_factors: Mapping[str, float]
    #: M, the mean of the country factors.
    mean_factor: float
    #: Whether the factors adjust changes (``country_adjust`` "mean_ratio"; "none": no).
    country_adjust: bool

    @classmethod
    def from_params(cls, params: Mapping[str, Json]) -> NadfConfig:
        factors = {p: float(f) for p, f in params["country_factors"].items()}
        return cls(
            initial_base=float(params["initial_base"]),
            base_step=float(params["base_step"]),
            minimum_gain_bonus=float(params["minimum_gain_bonus"]),
            pot_rate=float(params["pot_rate"]),
            cap_base=float(params["cap_base"]),
            cap_per_solo=float(params["cap_per_solo"]),
            country_factors=frozen(factors),
            mean_factor=sum(factors.values()) / len(factors),
            country_adjust=params["country_adjust"] == ADJUST_MEAN_RATIO,
        )


@dataclass(frozen=True, slots=True)
class NadfRater(BaseRater[NadfConfig]):
    """NADF ranking with resolved parameters (seed 001)."""

    def _base(self, ladder_state: Mapping[str, Json]) -> float:
        return float(ladder_state.get(BASE_KEY, self.config.initial_base))

    def initial_ladder_state(self) -> Mapping[str, Json]:
        return frozen({BASE_KEY: self.config.initial_base})

    def initial_state(self, ladder_state: Mapping[str, Json]) -> PlayerState:
        """Seed 001: "Non-match equals 1000" — here the current base (1000 at the start)."""
        return PlayerState(rating=self._base(ladder_state), extra=frozen({SOLOS_KEY: []}))

    def rating_floor(self, ladder_state: Mapping[str, Json]) -> float | None:
        """Seed 001: "ratings falling below base revert to base rating" (the current base)."""
        return self._base(ladder_state)

    def floor_state(self, state: PlayerState, ladder_state: Mapping[str, Json]) -> PlayerState:
        """``state`` with its rating raised to the ladder's current base if below it.

        The base rises with every game, but only the players of a game are stored anew; a
        service showing a rating of a player who has not played since should apply this.
        ``rate_game`` applies it to every ``before`` state itself.
        """
        base = self._base(ladder_state)
        if state.rating >= base:
            return state
        return PlayerState(
            rating=base,
            deviation=state.deviation,
            volatility=state.volatility,
            extra=state.extra,
        )

    def cap(self, state: PlayerState) -> float:
        """cap = 3000 + 50 per power soloed with (seed 001 step 9)."""
        return self.config.cap_base + self.config.cap_per_solo * len(set(solos_of(state)))

    def validate_game(self, game: Game) -> None:
        self._read(game)

    def _read(self, game: Game) -> DiplomacyGame:
        return read_game(game, min_players=MIN_PLAYERS, max_players=FULL_GAME_PLAYERS)

    def rate_game(
        self,
        game: Game,
        before: Mapping[PlayerKey, PlayerState],
        ladder_state: Mapping[str, Json],
    ) -> Outcome:
        dip = self._read(game)
        config = self.config
        factors = config.country_factors
        M = config.mean_factor
        adjust = config.country_adjust
        pot_rate = config.pot_rate
        base_step = config.base_step

        base_before = self._base(ladder_state)
        W = dip.W
        base_after = base_before + base_step * W
        minimum_gain = base_step * W + config.minimum_gain_bonus

        keys = [PlayerKey(p.player) for p in dip.players]
        states = [before[k] for k in keys]
        # Step 1 (lazy floor): a rating below the pre-game base is raised to it.
        R = [max(s.rating, base_before) for s in states]
        c = [pot_rate * r for r in R]
        pot = sum(c)
        winners_R = [r for p, r in zip(dip.players, R, strict=True) if p.winner]
        losers_R = [r for p, r in zip(dip.players, R, strict=True) if not p.winner]
        WA = sum(winners_R) / len(winners_R)
        LA = sum(losers_R) / len(losers_R) if losers_R else None
        # Everyone drew: no losers to compare with, the share is not modified (ratio 1).
        ratio = LA / WA if LA is not None else 1.0
        share = pot / W * ratio

        changes: list[Change] = []
        for p, key, state, r, c_i in zip(dip.players, keys, states, R, c, strict=True):
            factor = factors[p.power]
            cap = self.cap(state)
            capped = False
            solos = list(solos_of(state))
            if p.winner:
                multiplier = M / factor if adjust else 1.0
                raw_gain = share * multiplier - c_i
                gain = max(raw_gain, minimum_gain)
                limit = max(0.0, CAP_FRACTION * (cap - r))
                if gain > limit:
                    gain = limit
                    capped = True
                if dip.solo and p.power not in solos:
                    solos = sorted({*solos, p.power})
            else:
                multiplier = factor / M if adjust else 1.0
                raw_gain = -c_i * multiplier
                gain = raw_gain
            rating = r + gain
            floored = rating < base_after
            if floored:
                rating = base_after
            extra = dict(state.extra)
            extra[SOLOS_KEY] = solos
            after = PlayerState(
                rating=rating,
                deviation=state.deviation,
                volatility=state.volatility,
                extra=frozen(extra),
            )
            details: dict[str, Json] = {
                "power": p.power,
                "winner": p.winner,
                "solo": p.winner and dip.solo,
                "rating": r,
                "floored_before": r > state.rating,
                "pot": pot,
                "contribution": c_i,
                "winners": W,
                "share": share,
                "losers_average": LA,
                "winners_average": WA,
                "factor": factor,
                "mean_factor": M,
                "country_multiplier": multiplier,
                "raw_change": raw_gain,
                "minimum_gain": minimum_gain,
                "cap": cap,
                "capped": capped,
                "floored": floored,
                "base_before": base_before,
                "base_after": base_after,
            }
            changes.append(Change(key=key, before=state, after=after, details=frozen(details)))
        return Outcome(changes=tuple(changes), ladder_state=frozen({BASE_KEY: base_after}))


SYSTEM = RatingSystem(info=INFO, config=NadfConfig.from_params, rater=NadfRater)
