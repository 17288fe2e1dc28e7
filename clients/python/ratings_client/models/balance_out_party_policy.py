from enum import StrEnum

class BalanceOutPartyPolicy(StrEnum):
    SPREAD = "spread"
    TOGETHER = "together"

    def __str__(self) -> str:
        return str(self.value)
