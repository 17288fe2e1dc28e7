from enum import StrEnum

class SeasonChangedStatus(StrEnum):
    CLOSED = "closed"
    CURRENT = "current"
    UPCOMING = "upcoming"

    def __str__(self) -> str:
        return str(self.value)
