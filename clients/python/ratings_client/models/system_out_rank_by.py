from enum import StrEnum

class SystemOutRankBy(StrEnum):
    RANKING_VALUE = "ranking_value"
    RATING = "rating"

    def __str__(self) -> str:
        return str(self.value)
