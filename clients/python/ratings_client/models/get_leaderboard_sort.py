from enum import StrEnum

class GetLeaderboardSort(StrEnum):
    GAMES = "games"
    NAME = "name"
    RATING = "rating"

    def __str__(self) -> str:
        return str(self.value)
