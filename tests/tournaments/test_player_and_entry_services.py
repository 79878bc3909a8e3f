"""update_player and withdraw_entry: the rules the API relies on."""

import pytest
from django.core.exceptions import ValidationError

from builders import tournament, user
from tournaments import services
from tournaments.models import Entry, Player, Tournament

pytestmark = pytest.mark.django_db


def test_a_federation_id_taken_by_another_player_is_refused_on_its_field():
    org = user("org", superuser=True)
    t = tournament(org, pairs=2)
    first, second = Player.objects.filter(entries__tournament=t).order_by("pk")[:2]
    services.update_player(org, first, {"federation_id": "RU-1"})
    with pytest.raises(ValidationError) as info:
        services.update_player(org, second, {"federation_id": "RU-1", "club": "Дуплет"})
    assert info.value.message_dict == {"federation_id": ["Another player has this federation id."]}
    second.refresh_from_db()
    assert (second.federation_id, second.club) == ("", "")
    services.update_player(org, first, {"federation_id": "RU-1", "club": "Дуплет"})  # his own id is no clash


def test_withdraw_entry_is_for_individual_tournaments_only():
    org = user("org", superuser=True)
    pairs = tournament(org, pairs=2)
    entry = Entry.objects.filter(tournament=pairs).first()
    with pytest.raises(ValidationError, match="withdraw the pair"):
        services.withdraw_entry(org, entry)
    entry.refresh_from_db()
    assert entry.withdrawn_at is None
    solo = tournament(org, slug="solo", format=Tournament.Format.INDIVIDUAL)
    entry = services.register_player(org, solo, {"last_name": "Одиночка"})
    assert services.withdraw_entry(org, entry).withdrawn_at is not None
