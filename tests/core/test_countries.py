"""The ISO 3166-1 alpha-2 list (app/core/countries.py) against facts of the standard."""

from __future__ import annotations

import re

from app.core.countries import COUNTRY_CODES

#: ISO 3166-1 assigns 249 codes (since South Sudan, SS, in 2011).
ASSIGNED_COUNT = 249


def test_249_codes_of_two_capitals() -> None:
    assert len(COUNTRY_CODES) == ASSIGNED_COUNT
    assert all(re.fullmatch("[A-Z]{2}", code) for code in COUNTRY_CODES)


def test_assigned_codes_are_in() -> None:
    # The usual ones, the newest (SS 2011; BQ, CW, SX 2010) and some territories.
    for code in ("FR", "GB", "US", "DE", "NZ", "SS", "BQ", "CW", "SX", "AQ", "AX", "PS", "TW"):
        assert code in COUNTRY_CODES, code


def test_reserved_deleted_and_user_assigned_codes_are_out() -> None:
    # Exceptionally reserved (UK, EU), deleted (AN, YU, CS), user-assigned (AA, XK, ZZ, QM).
    for code in ("UK", "EU", "AN", "YU", "CS", "AA", "XK", "ZZ", "QM"):
        assert code not in COUNTRY_CODES, code
