from enum import StrEnum

class WebhookOutStatus(StrEnum):
    ACTIVE = "active"
    DISABLED = "disabled"
    FAILING = "failing"

    def __str__(self) -> str:
        return str(self.value)
