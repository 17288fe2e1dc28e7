from enum import StrEnum

class WebhookInTypesType0Item(StrEnum):
    FIT_CONVERGED = "fit.converged"
    GAME_CORRECTED = "game.corrected"
    GAME_RATED = "game.rated"
    GAME_VOIDED = "game.voided"
    LADDER_CHANGED = "ladder.changed"
    RATING_ADJUSTED = "rating.adjusted"
    SEASON_CHANGED = "season.changed"
    SEASON_STARTED = "season.started"
    TOURNAMENT_CORRECTED = "tournament.corrected"
    TOURNAMENT_RATED = "tournament.rated"
    TOURNAMENT_VOIDED = "tournament.voided"

    def __str__(self) -> str:
        return str(self.value)
