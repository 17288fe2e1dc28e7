"""Input rules shared by the Diplomacy game systems (``nadf``, ``kinzett``).

A Diplomacy game is played by seven powers on a board of 34 supply centres; a power that
controls 18 centres wins alone (a *solo*), otherwise the game ends in a draw shared by the
rank-1 players (SYSTEMS.md "Diplomacy game systems"; seeds 001_f1e33522112d1554.txt and
002_d521cad107983002.txt).

:func:`read_game` checks a game against those rules and returns it as
:class:`DiplomacyPlayer` rows with canonical power names. Every violation is an
:class:`~app.engine.errors.InvalidEvent` whose ``loc`` points into the request body.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.errors import InvalidEvent
from app.engine.types import Game

#: The seven great powers of the standard map, in the rulebook's alphabetical order.
POWERS: tuple[str, ...] = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")

#: One-letter abbreviations (A E F G I R T) -> full names; the initials are unique.
POWER_BY_LETTER: dict[str, str] = {power[0]: power for power in POWERS}

#: Supply centres on the standard map (SYSTEMS.md: "centres summing past 34" is invalid).
MAX_CENTRES = 34

#: Centres that win the game alone (standard rules: 18 of 34).
SOLO_CENTRES = 18

#: The first game year (standard rules: Spring 1901).
START_YEAR = 1901

#: Rank of the winners (SYSTEMS.md: rank 1 = solo winner or draw participants).
WINNER_RANK = 1

#: Players in a full game (one per power).
FULL_GAME_PLAYERS = len(POWERS)


def canonical_power(name: str | None) -> str | None:
    """The full power name for ``name`` (a full name or its initial, any case), else None."""
    if name is None:
        return None
    text = name.strip()
    if len(text) == 1:
        return POWER_BY_LETTER.get(text.upper())
    for power in POWERS:
        if text.casefold() == power.casefold():
            return power
    return None


@dataclass(frozen=True, slots=True)
class DiplomacyPlayer:
    """One validated player of a Diplomacy game (``index`` is its position in the input)."""

    index: int
    player: str
    power: str
    centres: int
    rank: int
    eliminated_in: int | None

    @property
    def winner(self) -> bool:
        """Solo winner or draw participant."""
        return self.rank == WINNER_RANK

    @property
    def eliminated(self) -> bool:
        """Out of the game: no centres left."""
        return self.centres == 0


@dataclass(frozen=True, slots=True)
class DiplomacyGame:
    """A validated Diplomacy game: its players in input order."""

    players: tuple[DiplomacyPlayer, ...]
    end_year: int | None

    @property
    def winners(self) -> tuple[DiplomacyPlayer, ...]:
        return tuple(p for p in self.players if p.winner)

    @property
    def W(self) -> int:
        """Number of winners (NADF's W): 1 for a solo, the draw size otherwise."""
        return len(self.winners)

    @property
    def solo(self) -> bool:
        return self.W == 1


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_game(
    game: Game,
    *,
    min_players: int,
    max_players: int,
    start_year: int = START_YEAR,
    zero_centres_need_elimination: bool = False,
) -> DiplomacyGame:
    """Validate ``game`` as a Diplomacy result and return its players with canonical powers.

    Rules (each an InvalidEvent naming the offending field):

    - ``min_players`` to ``max_players`` players (``("players",)``);
    - every ``faction`` a known power, by full name or initial A E F G I R T; each power once;
    - ``centres`` given, an integer 0..34; the total at most 34 (``("players",)``);
    - at least one rank-1 player; a player with 18 or more centres is the only rank-1 player
      (the game ended in their solo); a lone rank-1 player (a solo) holds 18 or more centres;
    - a winner holds at least one centre (so is never eliminated);
    - ``eliminated_in`` only with 0 centres; between ``start_year`` and ``end_year``;
    - with ``zero_centres_need_elimination`` (Kinzett, which pays years survived), a player
      with 0 centres must give ``eliminated_in``;
    - ``end_year``, when given, is not before ``start_year``.
    """
    participants = game.participants
    count = len(participants)
    if count < min_players or count > max_players:
        rule = (
            f"exactly {min_players}"
            if min_players == max_players
            else (f"{min_players} to {max_players}")
        )
        raise InvalidEvent(("players",), f"a Diplomacy game here needs {rule} players, got {count}")

    end_year = game.end_year
    if end_year is not None and (not _is_int(end_year) or end_year < start_year):
        raise InvalidEvent(
            ("end_year",), f"end_year must be a year from {start_year}, got {end_year}"
        )

    seen: dict[str, int] = {}
    players: list[DiplomacyPlayer] = []
    for i, part in enumerate(participants):
        power = canonical_power(part.faction)
        if part.faction is None:
            raise InvalidEvent(
                ("players", i, "faction"),
                "faction is required: one of " + ", ".join(POWERS) + " (or A E F G I R T)",
            )
        if power is None:
            raise InvalidEvent(
                ("players", i, "faction"),
                f"unknown power {part.faction!r}: use one of "
                + ", ".join(POWERS)
                + " (or A E F G I R T)",
            )
        if power in seen:
            raise InvalidEvent(
                ("players", i, "faction"),
                f"each power plays once: {power} is also player {seen[power]}",
            )
        seen[power] = i

        centres = part.centres
        if centres is None:
            raise InvalidEvent(("players", i, "centres"), "centres is required")
        if not _is_int(centres) or centres < 0 or centres > MAX_CENTRES:
            raise InvalidEvent(
                ("players", i, "centres"),
                f"centres must be an integer from 0 to {MAX_CENTRES}, got {centres}",
            )
        if not _is_int(part.rank) or part.rank < WINNER_RANK:
            raise InvalidEvent(("players", i, "rank"), f"rank must be at least 1, got {part.rank}")

        eliminated_in = part.eliminated_in
        if eliminated_in is not None:
            if not _is_int(eliminated_in) or eliminated_in < start_year:
                raise InvalidEvent(
                    ("players", i, "eliminated_in"),
                    f"eliminated_in must be a year from {start_year}, got {eliminated_in}",
                )
            if end_year is not None and eliminated_in > end_year:
                raise InvalidEvent(
                    ("players", i, "eliminated_in"),
                    f"eliminated_in ({eliminated_in}) is after the game's end_year ({end_year})",
                )
            if centres != 0:
                raise InvalidEvent(
                    ("players", i, "centres"),
                    f"an eliminated player has 0 centres, got {centres}",
                )
        elif centres == 0 and zero_centres_need_elimination:
            raise InvalidEvent(
                ("players", i, "eliminated_in"),
                "a player with 0 centres is eliminated: give the year (eliminated_in)",
            )
        players.append(DiplomacyPlayer(i, part.player, power, centres, part.rank, eliminated_in))

    total = sum(p.centres for p in players)
    if total > MAX_CENTRES:
        raise InvalidEvent(("players",), f"centres must sum to at most {MAX_CENTRES}, got {total}")

    winners = [p for p in players if p.winner]
    if not winners:
        raise InvalidEvent(
            ("players",), "someone must have rank 1 (the solo winner or the draw participants)"
        )
    for p in winners:
        if p.eliminated_in is not None or p.centres == 0:
            raise InvalidEvent(
                ("players", p.index, "rank"),
                "a winner (rank 1) cannot be eliminated: it needs at least one centre",
            )
    for p in players:
        if p.centres >= SOLO_CENTRES and (not p.winner or len(winners) > 1):
            raise InvalidEvent(
                ("players", p.index, "rank"),
                f"a player with {SOLO_CENTRES} or more centres has soloed: it must be the only"
                f" rank-1 player (got {p.centres} centres, rank {p.rank},"
                f" {len(winners)} rank-1 players)",
            )
    if len(winners) == 1 and winners[0].centres < SOLO_CENTRES:
        w = winners[0]
        raise InvalidEvent(
            ("players", w.index, "centres"),
            f"a solo (the only rank-1 player) needs at least {SOLO_CENTRES} centres,"
            f" got {w.centres}; a draw has several rank-1 players",
        )
    return DiplomacyGame(players=tuple(players), end_year=end_year)
