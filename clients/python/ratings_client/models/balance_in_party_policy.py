from enum import StrEnum

class BalanceInPartyPolicy(StrEnum):
    SPREAD = "spread"
    TOGETHER = "together"

    def __str__(self) -> str:
        return str(self.value)
