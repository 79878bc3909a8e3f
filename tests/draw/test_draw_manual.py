"""Manual seating: every mistake is reported, by table and pair, all at once."""

import pytest

from tournaments.draw import DrawError, validate_manual

ELIGIBLE = {1, 2, 3, 4, 5}


def problems(tables, **kwargs) -> tuple[str, ...]:
    with pytest.raises(DrawError) as caught:
        validate_manual(tables, ELIGIBLE, **kwargs)
    assert isinstance(caught.value, ValueError)
    assert str(caught.value) == "\n".join(caught.value.problems)
    return caught.value.problems


def test_sound_seating_is_returned() -> None:
    tables = [(1, 2), (4, 3)]
    assert validate_manual(tables, ELIGIBLE, bye=5) == ((1, 2), (4, 3))


def test_pair_seated_twice() -> None:
    assert problems([(1, 2), (3, 1)], bye=5) == (
        "Pair 1 is seated more than once: table 1, table 2.",
        "Pair 4 is neither seated nor given the bye.",
    )


def test_pair_seated_and_given_the_bye() -> None:
    assert problems([(1, 2), (3, 4)], bye=1) == (
        "Pair 1 is seated more than once: table 1, the bye.",
        "Pair 5 is neither seated nor given the bye.",
    )


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ((None, 4), "Table 2: seats 1 and 3 are empty."),
        ((4, None), "Table 2: seats 2 and 4 are empty."),
    ],
)
def test_empty_seat(table, message) -> None:
    assert problems([(1, 2), table, (3, 5)]) == (message,)


def test_pair_not_registered() -> None:
    assert problems([(1, 2), (3, 4), (5, 77)]) == (
        "Table 3: pair 77 is not registered in this tournament.",
    )


def test_withdrawn_pair() -> None:
    assert problems([(1, 2), (3, 4), (5, 6)], withdrawn_pair_ids={6}) == (
        "Table 3: pair 6 has withdrawn.",
    )


def test_bye_for_a_pair_not_in_the_tournament() -> None:
    assert problems([(1, 2), (3, 4)], bye=8) == (
        "The bye: pair 8 is not registered in this tournament.",
        "Pair 5 is neither seated nor given the bye.",
    )


def test_pair_against_itself() -> None:
    assert problems([(1, 2), (3, 3), (4, 5)]) == ("Table 2: pair 3 is seated against itself.",)


def test_every_problem_is_listed_together() -> None:
    found = problems([(1, 1), (None, 9), (2, 6)], withdrawn_pair_ids={6}, bye=2)
    assert found == (
        "Table 1: pair 1 is seated against itself.",
        "Table 2: seats 1 and 3 are empty.",
        "Table 2: pair 9 is not registered in this tournament.",
        "Table 3: pair 6 has withdrawn.",
        "Pair 2 is seated more than once: table 3, the bye.",
        "Pair 3 is neither seated nor given the bye.",
        "Pair 4 is neither seated nor given the bye.",
        "Pair 5 is neither seated nor given the bye.",
    )
