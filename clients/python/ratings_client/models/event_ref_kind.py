from enum import StrEnum

class EventRefKind(StrEnum):
    GAME = "game"
    SEASON = "season"
    TOURNAMENT = "tournament"

    def __str__(self) -> str:
        return str(self.value)
