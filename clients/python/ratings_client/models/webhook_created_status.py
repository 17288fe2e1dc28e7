from enum import StrEnum

class WebhookCreatedStatus(StrEnum):
    ACTIVE = "active"
    DISABLED = "disabled"
    FAILING = "failing"

    def __str__(self) -> str:
        return str(self.value)
