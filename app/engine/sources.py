"""Titles of the texts several systems cite (``SystemInfo.sources``, shown by ``GET /systems``).

A source only one system cites is written in that system's module. Pages without a title of
their own are named by their site and subject.
"""

from __future__ import annotations

#: The World Diplomacy Database's page on the Dip Pouch Tournament Rating, with the WBC 2012
#: table (dptr).
WDD_DPTR = "World Diplomacy Database, Dip Pouch Tournament Rating (Matt Shields, 2019)"
#: Edi Birsan's Diplomatic Pouch article on ranking systems: NADF, C-Diplo, DPTR, WPE, DAANZ.
BIRSAN_RANKING_SYSTEMS = (
    "Edi Birsan, on tournament and game ranking systems (The Diplomatic Pouch): NADF ranking, "
    "C-Diplo, DPTR, WPE, DAANZ masterpoints"
)
#: The NAF's explanation of its rankings: the Coach Rating (naf) and the Glicko ranking
#: (glicko2's ranking value).
NAF_RANKINGS = "NAF, the Coach Rating and the Glicko ranking explained (the NAF's rankings page)"
