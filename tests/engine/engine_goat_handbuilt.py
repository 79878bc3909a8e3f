"""A four-player deal built by hand for Goat and Sea Goat (RULES 9.1, 9.2), checked move by move.

No hand holds 5 doubles or 6 tiles of one number (the sports deals of engine_handbuilt do: they
would be void in Goat). Seat 1 holds 1-1: the first deal of a game is his, led with 1-1.

 #  seat  ends   legal moves (Goat)                        allowance  move
 1  1     -      1-1 only (the first lead)                  5         1-1 -> 1|1
 2  2     1|1    0-1 1-4                                   20         1-4 -> 4|1
 3  3     4|1    0-4 2-4 4-6 L, 1-6 R                      20         1-6 right -> 4|6
 4  4     4|6    3-4 4-4 L, 3-6 5-6 R                      20         3-6 right -> 4|3
 5  1     4|3    1-3 3-3 R                                 20         1-3 right -> 4|1
 6  2     4|1    4-5 L, 0-1 R                              20         0-1 right -> 4|0
 7  3     4|0    0-4 2-4 4-6 L, 0-3 0-4 R                  20         2-4 left -> 2|0
 8  4     2|0    1-2 2-5 L, 0-5 R                          20         2-5 left -> 5|0
 9  1     5|0    1-5 5-5 L, 0-6 R                          20         0-6 right -> 5|6
10  2     5|6    4-5 L, 6-6 R                              20         6-6 right -> 5|6
11  3     5|6    3-5 L, 4-6 R                              20         4-6 right -> 5|4
12  4     5|4    0-5 5-6 L, 3-4 4-4 R                      20         3-4 right -> 5|3

GOAT continues (one tile a move):
13  1     5|3    1-5 5-5 L, 3-3 R                          20         3-3 right -> 5|3
14  2     5|3    4-5 L, 2-3 R                              20         4-5 left -> 4|3
15  3     4|3    0-4 L, 0-3 3-5 R                          20         0-4 left -> 0|3
16  4     0|3    0-5 L                                      5         0-5 -> 5|3
17  1     5|3    1-5 5-5 L                                 20         5-5 left -> 5|3
18  2     5|3    2-3 R                                      5         2-3 -> 5|2
19  3     5|2    3-5 L, 2-2 R                              20         3-5 left -> 3|2
20  4     3|2    1-2 R                                      5         1-2 -> 3|1
21  1     3|1    1-5 R                                      5         1-5 -> 3|5
22  2     3|5    none (0-0 0-2): no bazaar with 4           5         pass
23  3     3|5    0-3 L                                      5         0-3 -> 0|5
24  4     0|5    5-6 R                                      5         5-6 -> 0|6
25  1     0|6    2-6 R, his last tile                       5         DOMINO seat 1

Left: seat 2 0-0 0-2 = 2 (0-0 is not alone), seat 3 2-2 = 4, seat 4 4-4 = 8.

SEA GOAT continues from move 12 (two doubles in a move allowed):
13  1     5|3    1-5 5-5 L, 3-3 R, and 5-5 L with 3-3 R    20         5-5 left + 3-3 -> 5|3
14  2     5|3    4-5 L, 2-3 R                              20         2-3 right -> 5|2
15  3     5|2    3-5 L, 2-2 R                              20         3-5 left -> 3|2
16  4     3|2    1-2 R                                      5         1-2 -> 3|1
17  1     3|1    1-5 R                                      5         1-5 -> 3|5
18  2     3|5    4-5 R                                      5         4-5 right -> 3|4
19  3     3|4    0-3 L, 0-4 R                              20         0-4 right -> 3|0
20  4     3|0    0-5 R                                      5         0-5 -> 3|5
21  1     3|5    none (2-6)                                 5         pass
22  2     3|5    none (0-0 0-2)                             5         pass
23  3     3|5    0-3 L                                      5         0-3 -> 0|5
24  4     0|5    5-6 R                                      5         5-6 -> 0|6
25  1     0|6    2-6 R, his last tile                       5         DOMINO seat 1

Left: seat 2 0-0 0-2 = 2, seat 3 2-2 = 4, seat 4 4-4 = 8. 24 tiles on the table (25 moves, 2
passes, one move of two doubles) + 4 in hand = 28.
"""

FOUR_HANDS = [
    ["1-1", "1-3", "1-5", "3-3", "5-5", "0-6", "2-6"],
    ["0-0", "0-1", "0-2", "2-3", "4-5", "6-6", "1-4"],
    ["0-3", "0-4", "2-2", "2-4", "3-5", "1-6", "4-6"],
    ["0-5", "1-2", "2-5", "3-4", "3-6", "4-4", "5-6"],
]

_COMMON = [
    {"seat": 1, "tile": "1-1"}, {"seat": 2, "tile": "1-4"}, {"seat": 3, "tile": "1-6", "end": "right"},
    {"seat": 4, "tile": "3-6", "end": "right"}, {"seat": 1, "tile": "1-3", "end": "right"},
    {"seat": 2, "tile": "0-1", "end": "right"}, {"seat": 3, "tile": "2-4", "end": "left"},
    {"seat": 4, "tile": "2-5", "end": "left"}, {"seat": 1, "tile": "0-6", "end": "right"},
    {"seat": 2, "tile": "6-6", "end": "right"}, {"seat": 3, "tile": "4-6", "end": "right"},
    {"seat": 4, "tile": "3-4", "end": "right"},
]
GOAT_MOVES = _COMMON + [
    {"seat": 1, "tile": "3-3", "end": "right"}, {"seat": 2, "tile": "4-5", "end": "left"},
    {"seat": 3, "tile": "0-4", "end": "left"}, {"seat": 4, "tile": "0-5"}, {"seat": 1, "tile": "5-5", "end": "left"},
    {"seat": 2, "tile": "2-3"}, {"seat": 3, "tile": "3-5", "end": "left"}, {"seat": 4, "tile": "1-2"},
    {"seat": 1, "tile": "1-5"}, {"seat": 2, "pass": True}, {"seat": 3, "tile": "0-3"}, {"seat": 4, "tile": "5-6"},
    {"seat": 1, "tile": "2-6"},
]
GOAT_ALLOWANCES = [5] + [20] * 11 + [20, 20, 20, 5, 20, 5, 20, 5, 5, 5, 5, 5, 5]
SEA_GOAT_MOVES = _COMMON + [
    {"seat": 1, "tile": "5-5", "end": "left", "second": "3-3"}, {"seat": 2, "tile": "2-3", "end": "right"},
    {"seat": 3, "tile": "3-5", "end": "left"}, {"seat": 4, "tile": "1-2"}, {"seat": 1, "tile": "1-5"},
    {"seat": 2, "tile": "4-5", "end": "right"}, {"seat": 3, "tile": "0-4", "end": "right"}, {"seat": 4, "tile": "0-5"},
    {"seat": 1, "pass": True}, {"seat": 2, "pass": True}, {"seat": 3, "tile": "0-3"}, {"seat": 4, "tile": "5-6"},
    {"seat": 1, "tile": "2-6"},
]
SEA_GOAT_ALLOWANCES = [5] + [20] * 11 + [20, 20, 20, 5, 5, 5, 20, 5, 5, 5, 5, 5, 5]
VALUES = (0, 2, 4, 8)
