"""Deals built by hand (played out on paper, checked move by move against RULES.md 4 and 6).

Each deal lists the hands of seats 1..4, the leader, the moves as (tile, end) or PASS, and what
the rules give, worked out by hand in the comments.
"""

PASS = "pass"

# --------------------------------------------------------------------------------------------
# FISH: a fish on 0 after 10 tiles, no pass. Leader seat 1.
#
#  #  seat  ends before  legal moves of the seat                       allowance  move
#  1  1     -            lead: any of 7                                20         0-0 (ends 0|0)
#  2  2     0|0          0-1, 0-2, 0-6 (equal ends: one move each)     20         0-1 left -> 1|0
#  3  3     1|0          0-3 R, 0-4 R                                  20         0-3 right -> 1|3
#  4  4     1|3          1-2 L, 3-6 R                                  20         1-2 left -> 2|3
#  5  1     2|3          2-2 L, 3-4 R, 3-3 R (3-2 not his: no fish)    20         3-4 right -> 2|4
#  6  2     2|4          0-2 L, 1-4 R                                  20         0-2 left -> 0|4
#  7  3     0|4          0-4 L, 0-4 R, 2-4 R; 0s on table 4: no fish   20         0-4 right -> 0|0
#  8  4     0|0          0-5 only (one move though two ends)            5         0-5 -> 5|0
#  9  1     5|0          5-6 L only                                     5         5-6 left -> 6|0
# 10  2     6|0          0-6 L, 0-6 R, 1-6 L; 0-6 on the left leaves   60         0-6 left -> 0|0
#                        0|0 with all 7 zeros out: fish possible                  FISH, seat 2
#
# Left in hand: seat 1 1-1 2-2 3-3 4-4 = 20; seat 2 1-3 1-4 1-5 1-6 = 22;
#               seat 3 2-3 2-4 2-5 2-6 3-5 = 34; seat 4 3-6 4-5 4-6 5-5 6-6 = 50.
# Pair A (1+3) 54, pair B (2+4) 72; on the table 0+1+3+3+7+2+4+5+11+6 = 42; 54+72+42 = 168.
# A holds less: A wins the fish and scores 54+72 = 126 (all_hands) or 72 (opponents_only).
# Line, left to right: 0|6 6|5 5|0 0|2 2|1 1|0 0|0 0|3 3|4 4|0.
# --------------------------------------------------------------------------------------------
FISH_LEADER = 1
FISH_HANDS = [
    ["0-0", "3-4", "5-6", "1-1", "2-2", "3-3", "4-4"],
    ["0-1", "0-2", "0-6", "1-3", "1-4", "1-5", "1-6"],
    ["0-3", "0-4", "2-3", "2-4", "2-5", "2-6", "3-5"],
    ["1-2", "0-5", "3-6", "4-5", "4-6", "5-5", "6-6"],
]
FISH_MOVES = [("0-0", None), ("0-1", None), ("0-3", "right"), ("1-2", "left"), ("3-4", "right"),
              ("0-2", "left"), ("4-0", "right"), ("0-5", None), ("5-6", "left"), ("0-6", "left")]
FISH_ALLOWANCES = [20, 20, 20, 20, 20, 20, 20, 5, 5, 60]
FISH_PIPS = (54, 72)
FISH_LINE = [(0, 6), (6, 5), (5, 0), (0, 2), (2, 1), (1, 0), (0, 0), (0, 3), (3, 4), (4, 0)]

# --------------------------------------------------------------------------------------------
# DOMINO: 31 moves with passes, a declined fish, domino by seat 4. Leader seat 2.
#
#  #  seat  ends   the seat's playable tiles                 allowance  move
#  1  2     -      lead                                       20        6-6 -> 6|6
#  2  3     6|6    none (no 6)                                 5        pass
#  3  4     6|6    none                                        5        pass
#  4  1     6|6    5-6                                         5        5-6 left -> 5|6
#  5  2     5|6    2-5 L; 0-6 1-6 2-6 3-6 4-6 R                20        2-5 left -> 2|6
#  6  3     2|6    0-2 1-2 2-2 L                              20        1-2 left -> 1|6
#  7  4     1|6    1-4 1-5 L                                  20        1-4 left -> 4|6
#  8  1     4|6    4-5 L                                       5        4-5 -> 5|6
#  9  2     5|6    0-6 1-6 2-6 3-6 4-6 R                      20        4-6 right -> 5|4
# 10  3     5|4    0-5 L, 4-4 R                               20        4-4 right -> 5|4
# 11  4     5|4    1-5 3-5 5-5 L, 0-4 2-4 3-4 R               20        3-4 right -> 5|3
# 12  1     5|3    2-3 3-3 R (3-5 is seat 4's: no fish)       20        3-3 -> 5|3
# 13  2     5|3    3-6 R                                       5        3-6 -> 5|6
# 14  3     5|6    0-5 L                                       5        0-5 -> 0|6
# 15  4     0|6    0-4 L                                       5        0-4 -> 4|6
# 16  1     4|6    none (0-0 0-1 1-1 2-3)                      5        pass
# 17  2     4|6    0-6 1-6 2-6 R                              20        2-6 right -> 4|2
# 18  3     4|2    0-2 2-2 R (2-4 is seat 4's)                20        2-2 right -> 4|2
# 19  4     4|2    2-4 L, 2-4 R; six 4s out (4-5 1-4 4-6 4-4   60        2-4 left -> 2|2
#                  3-4 0-4): 2-4 on the right makes 4|4 fish            (fish declined)
# 20  1     2|2    2-3 (one move)                              5        2-3 -> 3|2
# 21  2     3|2    none (0-6 1-6)                              5        pass
# 22  3     3|2    0-3 1-3 L, 0-2 R                           20        1-3 left -> 1|2
# 23  4     1|2    1-5 L                                       5        1-5 -> 5|2
# 24  1     5|2    none (0-0 0-1 1-1)                          5        pass
# 25  2     5|2    none (0-6 1-6)                              5        pass
# 26  3     5|2    0-2 R                                       5        0-2 -> 5|0
# 27  4     5|0    3-5 5-5 L (0-5 on table: no fish)          20        5-5 left -> 5|0
# 28  1     5|0    0-0 0-1 R                                  20        0-1 right -> 5|1
# 29  2     5|1    1-6 R                                       5        1-6 -> 5|6
# 30  3     5|6    none (0-3)                                  5        pass
# 31  4     5|6    3-5 L, his last tile                        5        3-5 -> 3|6 DOMINO, seat 4
#
# Left in hand: seat 1 0-0 1-1 = 2, seat 2 0-6 = 6, seat 3 0-3 = 3, seat 4 none.
# Pair A 2+3 = 5, pair B 6. B wins: 11 points (all_hands) or 5 (opponents_only).
# --------------------------------------------------------------------------------------------
DOMINO_LEADER = 2
DOMINO_HANDS = [
    ["0-0", "0-1", "1-1", "2-3", "3-3", "4-5", "5-6"],
    ["0-6", "1-6", "2-6", "3-6", "4-6", "6-6", "2-5"],
    ["0-2", "0-3", "1-2", "1-3", "2-2", "4-4", "0-5"],
    ["0-4", "1-4", "1-5", "2-4", "3-4", "3-5", "5-5"],
]
DOMINO_MOVES = [
    ("6-6", None), PASS, PASS, ("5-6", "left"), ("2-5", "left"), ("1-2", "left"), ("1-4", "left"),
    ("4-5", None), ("4-6", "right"), ("4-4", "right"), ("3-4", "right"), ("3-3", None),
    ("3-6", None), ("0-5", None), ("0-4", None), PASS, ("2-6", "right"), ("2-2", "right"),
    ("2-4", "left"), ("2-3", None), PASS, ("1-3", "left"), ("1-5", None), PASS, PASS,
    ("0-2", None), ("5-5", "left"), ("0-1", "right"), ("1-6", None), PASS, ("3-5", None),
]
DOMINO_ALLOWANCES = [20, 5, 5, 5, 20, 20, 20, 5, 20, 20, 20, 20, 5, 5, 5, 5, 20, 20, 60, 5,
                     5, 20, 5, 5, 5, 5, 20, 20, 5, 5, 5]
DOMINO_PIPS = (5, 6)

# --------------------------------------------------------------------------------------------
# LAST_TILE_FISHES: DOMINO up to move 21, then
# 22 seat 3 0-3 left -> 0|2; 23 seat 4 pass (1-5 3-5 5-5); 24 seat 1 0-1 left -> 1|2;
# 25 seat 2 1-6 left -> 6|2; 26 seat 3 0-2 right -> 6|0; 27 seat 4 pass; 28 seat 1 0-0 right -> 6|0.
# Now seat 2 holds only 0-6, which fits both ends (two moves). Either way it is his last tile:
# domino (RULES 4.2: "a player places his last tile ... the deal ends"), although the line would
# also show the fish pattern (0|0 with seven 0s, or 6|6 with seven 6s).
# --------------------------------------------------------------------------------------------
LAST_TILE_FISHES_MOVES = DOMINO_MOVES[:21] + [
    ("0-3", "left"), PASS, ("0-1", "left"), ("1-6", None), ("0-2", "right"), PASS, ("0-0", "right"),
]

# --------------------------------------------------------------------------------------------
# BOTH_WAYS: seat 1 leads 2-3 (2|3), seat 2 plays 3-5 right (2|5); seat 3 holds 2-5 and no
# other 2 or 5: one tile, two moves (different ends), no fish (one 2 and two 5s out): 20 s.
# --------------------------------------------------------------------------------------------
BOTH_WAYS_HANDS = [
    ["2-3", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2"],
    ["3-5", "1-3", "1-4", "1-5", "1-6", "2-2", "2-4"],
    ["2-5", "0-0", "0-1", "1-1", "3-3", "4-4", "6-6"],
    ["2-6", "3-4", "3-6", "4-5", "4-6", "5-5", "5-6"],
]
BOTH_WAYS_MOVES = [("2-3", None), ("3-5", "right")]

# Seat 1 holds all the 6s, seat 2 the other 5s and 4-4, seat 3 the other 4s and 3s, seat 4 the rest.
SUITS_HANDS = [
    ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"],
    ["5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "4-4"],
    ["4-3", "4-2", "4-1", "4-0", "3-3", "3-2", "3-1"],
    ["3-0", "2-2", "2-1", "2-0", "1-1", "1-0", "0-0"],
]


def play_moves(deal, moves):
    """Play hand-built moves on an engine deal; returns the allowance before each move."""
    allowances = []
    for move in moves:
        allowances.append(deal.allowance())
        if move == PASS:
            deal.pass_turn()
        else:
            deal.play(*move)
    return allowances


def protocol_moves(moves, leader):
    """The moves in the protocol's move form, with the seats."""
    out = []
    seat = leader
    for move in moves:
        if move == PASS:
            out.append({"seat": seat, "pass": True})
        else:
            tile, end = move
            item = {"seat": seat, "tile": tile}
            if end is not None:
                item["end"] = end
            out.append(item)
        seat = seat % 4 + 1
    return out
