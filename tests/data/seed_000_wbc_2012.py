"""The WBC 2012 table of seed 000_284a3da9f95a5144.txt (DPTR), copied from the seed."""

from __future__ import annotations

# Seed 000: "World Boardgaming Championships 2012 ... Number of players33 Number of rounds3
# ... Coeff 111.43" — rank, name, published score, copied from the seed.
WBC_2012: list[tuple[int, str, float]] = [
    (1, "Christian PEDONE", 98.48),
    (2, "David ANDERSON", 95.45),
    (3, "Robbie MITCHELL", 92.42),
    (4, "Harald HENNING", 89.39),
    (5, "Sylvain LAROSE", 86.36),
    (6, "Paul KONKA", 83.33),
    (7, "Jean-François GAGNE", 80.30),
    (7, "Wally HNATIW", 80.30),
    (7, "John PANAGOTOPULOS", 80.30),
    (10, "Ted DROZD", 71.21),
    (11, "Steve CHAPIN", 68.18),
    (12, "Jonathan JONES", 65.15),
    (13, "Mark SMITH", 62.12),
    (14, "Evan WALTER", 59.09),
    (14, "Nathan WRIGHT", 59.09),
    (16, "Anthony LAINESSE", 53.03),
    (17, "Daniel BROH-KAHN", 50.00),
    (18, "Francois DE BELLEFEUILLE", 46.97),
    (19, "Romain JACQUES", 43.94),
    (20, "William AUSTIN", 40.91),
    (21, "Jay KELBLEY", 37.88),
    (21, "John LEATHERDALE", 37.88),
    (23, "Robert COURTRIGHT", 31.82),
    (24, "Nico PARAUDA", 28.79),
    (25, "Carl SHAPIRO", 25.76),
    (26, "Quang HUYNH", 22.73),
    (27, "Joseph COURTRIGHT", 19.70),
    (27, "Kevin LEWIS", 19.70),
    (29, "David RYNKOWSKI", 13.64),
    (30, "Kolbe DIGIULIO", 10.61),
    (31, "Kyle GREENWOOD", 7.58),
    (31, "Jef HING", 7.58),
    (31, "Ben SCHOLL", 7.58),
]

#: The seed's "Coeff 1 11.43": the tournament value of a 33-player, 3-round event.
WBC_2012_TOURNAMENT_VALUE = 11.43
