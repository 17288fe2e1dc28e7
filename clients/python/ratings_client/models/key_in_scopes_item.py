from enum import StrEnum

class KeyInScopesItem(StrEnum):
    LADDERSADMIN = "ladders:admin"
    READ = "read"
    RESULTSWRITE = "results:write"

    def __str__(self) -> str:
        return str(self.value)
