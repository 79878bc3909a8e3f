"""The seeding order of tour 1 and how the formats take it: pure functions, no database."""

import pytest

from tournaments.draw import DrawError, Seeded, berger_schedule, seeding_order, swiss_first_tour

# Pair ids 101.. with start numbers 1..; seeds reverse the start numbers.
PAIRS = [Seeded(100 + n, n, 9 - n) for n in range(1, 9)]


def test_by_start_numbers_whatever_the_order_given():
    assert seeding_order(list(reversed(PAIRS)), "numbers") == [101, 102, 103, 104, 105, 106, 107, 108]


def test_by_the_organisers_seeds_the_unseeded_following_by_start_number():
    pairs = [Seeded(1, 1, None), Seeded(2, 2, 2), Seeded(3, 3, None), Seeded(4, 4, 1)]
    assert seeding_order(pairs, "seeds") == [4, 2, 1, 3]


def test_a_seed_given_twice_is_refused():
    with pytest.raises(DrawError, match="Seed 1 is given to more than one pair"):
        seeding_order([Seeded(1, 1, 1), Seeded(2, 2, 1)], "seeds")


def test_the_random_draw_is_reproduced_from_its_seed_and_differs_by_seed():
    first = seeding_order(PAIRS, "random", 12345)
    assert seeding_order(list(reversed(PAIRS)), "random", 12345) == first
    assert sorted(first) == [p.pair_id for p in PAIRS]
    assert len({tuple(seeding_order(PAIRS, "random", seed)) for seed in range(20)}) > 1
    with pytest.raises(DrawError, match="needs its seed"):
        seeding_order(PAIRS, "random")


def test_by_rating_the_higher_first_equal_ratings_by_start_number():
    pairs = [Seeded(1, 1, rating=1000.0), Seeded(2, 2, rating=1210.5), Seeded(3, 3, rating=980.0),
             Seeded(4, 4, rating=1210.5)]
    assert seeding_order(list(reversed(pairs)), "rating") == [2, 4, 1, 3]


def test_a_seeding_by_rating_without_a_pairs_rating_is_refused():
    with pytest.raises(DrawError, match="Pair 2 has no rating to seed by"):
        seeding_order([Seeded(1, 1, rating=1000.0), Seeded(2, 2)], "rating")


def test_swiss_tour_one_pairs_the_top_half_with_the_bottom_half_in_seeding_order():
    order = seeding_order(PAIRS, "seeds")  # 108, 107, ..., 101
    draw = swiss_first_tour(order)
    assert draw.tables == ((108, 104), (107, 103), (106, 102), (105, 101))
    assert draw.bye is None


def test_swiss_tour_one_with_an_odd_count_gives_the_last_seed_the_bye():
    draw = swiss_first_tour([5, 3, 1, 4, 2])
    assert draw.tables == ((5, 1), (3, 4))
    assert draw.bye == 2


def test_round_robin_gives_berger_numbers_in_seeding_order():
    order = seeding_order(PAIRS, "seeds")
    by_seed = berger_schedule(order)
    by_number = berger_schedule(list(range(1, 9)))
    # The same schedule, Berger number k being the k-th seed.
    assert by_seed == [[(order[a - 1], order[b - 1]) for a, b in tour] for tour in by_number]
    assert by_seed[0] == [(108, 101), (107, 102), (106, 103), (105, 104)]  # FIDE's tour 1: 1-8, 2-7, 3-6, 4-5
