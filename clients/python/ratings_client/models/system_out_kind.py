from enum import StrEnum

class SystemOutKind(StrEnum):
    GAME = "game"
    TOURNAMENT = "tournament"

    def __str__(self) -> str:
        return str(self.value)
