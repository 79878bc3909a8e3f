"""The protocol file of a Goat table: its games written by the engine in the format of
PROTOCOL_FORMAT.md "Goat and Sea Goat", read back by the engine's scorer to the same scores and
game points as the players' SeatResult rows; from the sheet, the API, and an earlier version."""

import json

import pytest
from django.urls import reverse

from builders import tournament, user
from scoring import engine
from scoring.models import SeatResult
from scoring.recording import commands, formats, queries
from tournaments import services as tournament_services, tours
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

NAMES = ("Преображенский-Ольденбургский", "Воскресенская", "Богословский")


@pytest.fixture
def sitting():
    """A table of three playing two games to 30, both recorded: a redeal, fish, domino."""
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="goat",
                   regulations={"game": "goat", "lose_at": 30, "opening": 0, "games_per_tour": 2})
    for name in NAMES:
        tournament_services.register_player(org, t, {"last_name": name})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    table = tour.tables.get()
    pk = table.partition.pk
    for deal in ({"lead": 1, "end": "redeal"},
                 {"end": "fish", "seat": 2, "values": {"1": 12, "2": 7, "3": 9}},
                 {"end": "domino", "seat": 1, "values": {"2": 25, "3": 4}},
                 {"lead": 3, "end": "domino", "seat": 3, "values": {"1": 31, "2": 2}}):
        partition = commands.record_goat_deal(org, pk, deal)
    assert partition.is_finished
    return {"org": org, "t": t, "tour": tour, "table": table, "partition": partition}


def _check_round_trip(document, partition):
    assert document["format"] == formats.SITTING_FORMAT
    rows = {r.seat: r for r in SeatResult.objects.filter(partition=partition)}
    assert len(document["games"]) == 2 and len(rows) == 3
    points, scores, goats = {s: 0 for s in rows}, {s: 0 for s in rows}, {s: 0 for s in rows}
    for game in document["games"]:
        assert game["format"] == "domino-protocol/1" and game["regulations"]["game"] == "goat"
        result = engine.score_protocol(json.loads(json.dumps(game)))  # as a file would carry it
        assert result["reason"] == "lose_at"
        for seat in rows:
            points[seat] += result["game_points"][str(seat)]
            scores[seat] += result["scores"][str(seat)]
            goats[seat] += str(seat) in result["goats"]
    assert points == {s: r.game_points for s, r in rows.items()}
    assert scores == {s: r.score for s, r in rows.items()}
    assert goats == {s: r.goats for s, r in rows.items()}


def test_the_sheet_exports_each_game_and_the_engine_scores_it_back(client, sitting):
    client.force_login(sitting["org"])
    table = sitting["table"]
    response = client.get(reverse("sheet-export", args=["goat", 1, table.number]))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    document = json.loads(response.content)
    _check_round_trip(document, sitting["partition"])
    first, second = document["games"]
    assert first["first_leader"] == 1 and first["deals"][0] == {"redeal": True}
    assert first["deals"][1] == {"end": "fish", "seat": 2, "values": {"1": 12, "2": 7, "3": 9}}
    assert second["first_leader"] == 3 and len(second["deals"]) == 1
    assert first["pairs"] == {str(seat): [str(player)] for seat, player in enumerate(table.players, 1)}


def test_the_api_exports_the_same_document(client, sitting):
    client.force_login(sitting["org"])
    partition = sitting["partition"]
    response = client.get(f"/api/partitions/{partition.pk}/export/")
    assert response.status_code == 200
    document = response.json()
    _check_round_trip(document, partition)
    assert document == queries.export_sitting(partition)


def test_an_earlier_version_exports_the_games_as_they_were(client, sitting):
    client.force_login(sitting["org"])
    table = sitting["table"]
    response = client.get(reverse("sheet-export", args=["goat", 1, table.number]) + "?version=2")
    document = json.loads(response.content)
    (game,) = document["games"]
    result = engine.score_protocol(game)
    assert result["reason"] is None and result["scores"] == {"1": 12, "2": 7, "3": 9}
    assert client.get(reverse("sheet-export", args=["goat", 1, table.number]) + "?version=9").status_code == 404
