from enum import StrEnum

class SeasonOutStatus(StrEnum):
    CLOSED = "closed"
    CURRENT = "current"
    UPCOMING = "upcoming"

    def __str__(self) -> str:
        return str(self.value)
