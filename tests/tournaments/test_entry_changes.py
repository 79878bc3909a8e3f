"""The entries kept right: a player's data corrected, a player of a pair substituted from a tour
on, a withdrawal undone; each refusal writes nothing, each change goes into the history."""

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q

from builders import finish_tour, tournament, user
from scoring.models import Partition
from tournaments import services, tours
from tournaments.models import Entry, EntryChange, Pair, Player, Table, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def org():
    return user("org", superuser=True)


def table_of(pair: Pair, tour) -> Table:
    return Table.objects.get(Q(pair_a=pair) | Q(pair_b=pair), tour=tour)


def seats(table: Table) -> list[str]:
    table.refresh_from_db()
    return [p.last_name for p in table.players]


# -- a player's data ---------------------------------------------------------------------------------


def test_a_correction_goes_into_the_history_with_the_values_before_and_after(org):
    cup = tournament(org, pairs=2)
    player = Pair.objects.get(tournament=cup, number=1).first
    services.update_player(org, player, {"last_name": "Иванов", "club": "Дубль", "city": ""}, tournament=cup)
    change = EntryChange.objects.get()
    assert (change.tournament, change.player, change.user, change.action) == (cup, player, org, "player_edited")
    assert change.before == {"last_name": "Игрок1а", "club": ""}  # the city did not change
    assert change.after == {"last_name": "Иванов", "club": "Дубль"}
    assert change.fields == [("last name", "Игрок1а", "Иванов"), ("club", "", "Дубль")]
    services.update_player(org, player, {"last_name": "Иванов"})
    assert EntryChange.objects.count() == 1  # nothing changed, nothing written


def test_an_organiser_corrects_only_a_player_entered_in_his_tournaments_alone():
    org = user("org")
    org.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    org = type(org).objects.get(pk=org.pk)  # a fresh object: no stale permission cache
    cup = tournament(org, pairs=1)
    player = Pair.objects.get(tournament=cup).first
    services.update_player(org, player, {"first_name": "Иван"}, tournament=cup)
    elsewhere = tournament(user("other", superuser=True), slug="elsewhere")
    Entry.objects.create(tournament=elsewhere, player=player)
    with pytest.raises(PermissionDenied):
        services.update_player(org, player, {"first_name": "Пётр"}, tournament=cup)
    player.refresh_from_db()
    assert player.first_name == "Иван" and EntryChange.objects.count() == 1


# -- undoing a withdrawal ----------------------------------------------------------------------------


def test_a_withdrawn_pair_comes_back_and_is_drawn_again_from_the_next_tour(org):
    cup = tournament(org, pairs=4)
    pair = Pair.objects.get(tournament=cup, number=4)
    services.withdraw_pair(org, pair)
    first = tours.generate_tour(org, cup)
    assert not Table.objects.filter(tour=first, pair_b=pair).exists() and not first.byes.filter(pair=pair).exists()
    finish_tour(first)
    services.reinstate_pair(org, pair)
    pair.refresh_from_db()
    assert pair.withdrawn_at is None
    assert not Entry.objects.filter(tournament=cup, player__in=pair.players, withdrawn_at__isnull=False).exists()
    second = tours.generate_tour(org, cup)
    assert table_of(pair, second)
    assert list(EntryChange.objects.order_by("pk").values_list("action", flat=True)) == ["withdrawn", "reinstated"]


def test_undoing_is_refused_for_a_pair_not_withdrawn_and_in_a_finished_tournament(org):
    cup = tournament(org, pairs=2)
    pair = Pair.objects.get(tournament=cup, number=1)
    with pytest.raises(ValidationError, match="is not withdrawn"):
        services.reinstate_pair(org, pair)
    services.withdraw_pair(org, pair)
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(ValidationError, match="registration is closed"):
        services.reinstate_pair(org, pair)
    pair.refresh_from_db()
    assert pair.withdrawn_at is not None
    with pytest.raises(PermissionDenied):
        services.reinstate_pair(user("stranger"), pair)


def test_a_withdrawn_player_of_an_individual_event_comes_back(org):
    solo = tournament(org, slug="solo", format=Tournament.Format.INDIVIDUAL)
    entry = services.register_player(org, solo, {"last_name": "Одиночка"})
    services.withdraw_entry(org, entry)
    assert services.reinstate_entry(org, entry).withdrawn_at is None
    with pytest.raises(ValidationError, match="is not withdrawn"):
        services.reinstate_entry(org, entry)
    cup = tournament(org, pairs=2)
    with pytest.raises(ValidationError, match="undo the pair's withdrawal"):
        services.reinstate_entry(org, Entry.objects.filter(tournament=cup).first())


# -- substitution ----------------------------------------------------------------------------------


def test_a_substitute_plays_from_the_tour_given_the_tours_before_keep_the_player_who_played_them(org):
    cup = tournament(org, pairs=4)
    pair = Pair.objects.get(tournament=cup, number=1)
    leaving = pair.first
    first = tours.generate_tour(org, cup)
    finish_tour(first)
    second = tours.generate_tour(org, cup)  # drawn, nothing recorded yet
    old_table, new_table = table_of(pair, first), table_of(pair, second)
    services.substitute_player(org, pair, leaving, {"last_name": "Запасной", "federation_id": "RU-9"}, from_tour=2)
    pair.refresh_from_db()
    joining = Player.objects.get(federation_id="RU-9")
    assert pair.first == joining and pair.second.last_name == "Игрок1б"
    assert "Игрок1а" in seats(old_table) and "Запасной" not in seats(old_table)
    assert "Запасной" in seats(new_table) and "Игрок1а" not in seats(new_table)
    assert Entry.objects.get(tournament=cup, player=joining).withdrawn_at is None
    assert Entry.objects.get(tournament=cup, player=leaving).withdrawn_at is not None
    change = EntryChange.objects.get(action="substituted")
    assert change.before["name"] == "Игрок1а" and change.after == {"player": joining.pk, "name": "Запасной",
                                                                    "from_tour": 2}


def test_a_substitution_is_refused_where_a_later_tours_table_is_recorded_and_writes_nothing(org):
    cup = tournament(org, pairs=4)
    pair = Pair.objects.get(tournament=cup, number=1)
    first = tours.generate_tour(org, cup)
    Partition.objects.filter(table__tour=first).update(status=Partition.Status.PLAYING, version=1)
    with pytest.raises(ValidationError, match="already has a partition recorded in tour 1"):
        services.substitute_player(org, pair, pair.first, {"last_name": "Запасной"}, from_tour=1)
    # from the next tour on, the tour being played keeps him
    services.substitute_player(org, pair, pair.first, {"last_name": "Запасной"}, from_tour=2)
    assert "Игрок1а" in seats(table_of(pair, first))


def test_substitution_refusals(org):
    cup = tournament(org, pairs=3)
    pair, other = Pair.objects.get(tournament=cup, number=1), Pair.objects.get(tournament=cup, number=2)
    players_before = Player.objects.count()
    with pytest.raises(ValidationError, match="from tour 1 to tour 1"):
        services.substitute_player(org, pair, pair.first, {"last_name": "Запасной"}, from_tour=2)
    with pytest.raises(ValidationError, match="does not play in pair"):
        services.substitute_player(org, pair, other.first, {"last_name": "Запасной"}, from_tour=1)
    services.update_player(org, other.first, {"federation_id": "RU-2"})
    with pytest.raises(ValidationError, match="already registered"):  # found by his id: a player of another pair
        services.substitute_player(org, pair, pair.first, {"last_name": other.first.last_name,
                                                           "federation_id": "RU-2"}, from_tour=1)
    services.withdraw_pair(org, pair)
    with pytest.raises(ValidationError, match="undo the withdrawal first"):
        services.substitute_player(org, pair, pair.first, {"last_name": "Запасной"}, from_tour=1)
    with pytest.raises(PermissionDenied):
        services.substitute_player(user("stranger"), other, other.first, {"last_name": "Запасной"}, from_tour=1)
    assert Player.objects.count() == players_before
    assert not EntryChange.objects.filter(action="substituted").exists()
