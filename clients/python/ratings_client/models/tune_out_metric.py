from enum import StrEnum

class TuneOutMetric(StrEnum):
    ACCURACY = "accuracy"
    BRIER = "brier"
    LOG_LOSS = "log_loss"

    def __str__(self) -> str:
        return str(self.value)
