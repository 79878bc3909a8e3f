"""The Goat score sheet's other operations through the services: penalties, the table's time,
the chief referee's corrections of a deal and annulments of a penalty (the sitting replayed
from its events), and the import of a protocol file. Every result computed by hand; every
refusal leaves nothing written."""

import copy
import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from builders import tournament, user
from scoring.engine import GoatDeal
from scoring.models import Partition, PartitionChange, SeatResult
from scoring.recording import commands, queries, storage
from tournaments import services as tournament_services, tours
from tournaments.models import Tour, Tournament

pytestmark = pytest.mark.django_db

# Three players a table, each for himself; fish for all; no opening, so a charge counts at once.
GOAT = {"game": "goat", "players": 3, "lose_at": 40, "opening": 0, "games_per_tour": 2, "penalty_points": 10}


def goat_event(regulations, players=3, slug="goat"):
    """A published tour of one Goat tournament: ``ref`` referees table 1, ``other`` table 2 (if
    any), ``chief`` is the chief referee."""
    org, ref, other, chief = user(f"org-{slug}", superuser=True), user("ref"), user("other"), user("chief")
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug=slug, regulations=regulations)
    for name, kind in (("ref", "referee"), ("other", "referee"), ("chief", "chief_referee")):
        tournament_services.add_role(org, t, name, kind)
    for n in range(1, players + 1):
        tournament_services.register_player(org, t, {"last_name": f"Игрок{n}"})
    tour = tours.generate_tour(org, t)
    tables = list(tour.tables.order_by("number"))
    for table, referee in zip(tables, (ref, other)):
        tournament_services.assign_referee(org, table, referee)
    tours.publish_tour(org, tour)
    return {"org": org, "ref": ref, "other": other, "chief": chief, "tour": tour,
            "p": tables[0].partition.pk, "p2": tables[1].partition.pk if len(tables) > 1 else None}


@pytest.fixture
def goat():
    return goat_event(GOAT)


def stored(pk):
    return Partition.objects.get(pk=pk)


def sitting(pk):
    return storage.engine_sitting(stored(pk))


def scores(played):
    """The scores after each deal, game by game."""
    return [[d.scores for d in game.deals] for game in played.games if game.deals]


def results(pk):
    return list(SeatResult.objects.filter(partition_id=pk).values_list("seat", "game_points", "goats", "score"))


def nothing_written(pk, version):
    """The partition is as it was at ``version``, with no change after it."""
    assert stored(pk).version == version
    assert not PartitionChange.objects.filter(partition_id=pk, version__gt=version).exists()


def deal(ref, pk, **data):
    return commands.record_goat_deal(ref, pk, data)


# -- penalties and the table's time ---------------------------------------------------------------


def test_a_penalty_is_charged_to_the_offender_and_the_time_ends_the_sitting_between_deals(goat):
    ref, pk = goat["ref"], goat["p"]
    deal(ref, pk, lead=1, end="domino", seat=1, values={"2": 12, "3": 5})  # (0, 12, 5)
    commands.record_goat(ref, pk, "goat_penalty", {"seat": 3, "code": "signs"})  # Goat: seat 3 + 10
    assert sitting(pk).game.scores == (0, 12, 15)
    change = PartitionChange.objects.get(partition_id=pk, version=2)
    assert (change.action, change.data, change.user) == ("goat_penalty", {"seat": 3, "code": "signs"}, ref)
    # Between deals the game ends at once, counted as it stands, and it is the sitting's last
    # though the sitting has two games.
    p = commands.record_goat(ref, pk, "goat_time", {"during_deal": False})
    assert (p.status, p.reason, p.deals) == ("finished", "time", 1)
    game = sitting(pk).games[0]
    assert game.time_expired == ("after_deal", 1) and len(sitting(pk).games) == 1
    # (100 - score) / 10 rounded half up, no goat: 10, 8.8 -> 9, 8.5 -> 9.
    assert results(pk) == [(1, 10, 0, 0), (2, 9, 0, 12), (3, 9, 0, 15)]
    assert Tour.objects.get(pk=goat["tour"].pk).status == Tour.Status.FINISHED
    with pytest.raises(ValidationError, match="finished and closed"):
        commands.record_goat(ref, pk, "goat_penalty", {"seat": 1, "code": "conduct"})
    nothing_written(pk, 3)


def test_the_time_running_out_during_a_deal_ends_the_game_after_it(goat):
    ref, pk = goat["ref"], goat["p"]
    deal(ref, pk, lead=1, end="domino", seat=1, values={"2": 12, "3": 5})  # (0, 12, 5)
    p = commands.record_goat(ref, pk, "goat_time", {"during_deal": True})
    assert p.status == "playing" and sitting(pk).game.time_expired == ("during_deal", 2)
    with pytest.raises(ValidationError, match="already run out"):
        commands.record_goat(ref, pk, "goat_time", {"during_deal": False})
    p = deal(ref, pk, end="fish", seat=2, values={"1": 4, "2": 6, "3": 9})  # for all: (4, 18, 14)
    assert (p.status, p.reason, p.deals) == ("finished", "time", 2)
    # 9.6 -> 10, 8.2 -> 8, 8.6 -> 9.
    assert results(pk) == [(1, 10, 0, 4), (2, 8, 0, 18), (3, 9, 0, 14)]


def test_sea_goat_credits_a_penalty_to_the_others():
    event = goat_event({"game": "sea_goat", "players": 3, "teams": False, "target": 60}, slug="sea")
    p = commands.record_goat(event["ref"], event["p"], "goat_penalty", {"seat": 2, "code": "moved_tiles"})
    assert sitting(p.pk).game.scores == (25, 0, 25)  # penalty_points 25 to seats 1 and 3


@pytest.mark.parametrize("action, data, message", [
    ("goat_penalty", {"seat": 4, "code": "signs"}, "seat must be 1 to 3, got 4"),
    ("goat_penalty", {"seat": 1, "code": "no_show"}, "unknown penalty code 'no_show'"),
    ("goat_penalty", {"seat": 1}, "The data of goat_penalty are: code, seat."),
    ("goat_time", {"during_deal": "yes"}, "during_deal must be true or false"),
    ("goat_time", {"during_deal": True, "seat": 1}, "The data of goat_time are: during_deal."),
    ("penalty", {"seat": 1, "code": "signs"}, "Unknown action penalty."),
])
def test_bad_lines_are_refused_and_nothing_is_written(goat, action, data, message):
    deal(goat["ref"], goat["p"], lead=1, end="domino", seat=1, values={"2": 12, "3": 5})
    with pytest.raises(ValidationError, match=re.escape(message)):
        commands.record_goat(goat["ref"], goat["p"], action, data)
    nothing_written(goat["p"], 1)
    assert sitting(goat["p"]).game.scores == (0, 12, 5)


def test_only_the_tables_referee_records_and_the_sports_table_is_refused(goat):
    with pytest.raises(PermissionDenied):
        commands.record_goat(goat["other"], goat["p"], "goat_penalty", {"seat": 1, "code": "signs"})
    nothing_written(goat["p"], 0)
    org = user("org2", superuser=True)
    tour = tours.generate_tour(org, tournament(org, pairs=2, slug="sports"))
    tours.publish_tour(org, tour)
    with pytest.raises(ValidationError, match="does not play Goat"):
        commands.record_goat(goat["org"], tour.tables.get().partition.pk, "goat_time", {"during_deal": False})


# -- corrections: the sitting replayed from its events --------------------------------------------


def two_games(ref, pk):
    """Game 1: (0, 12, 5), (4, 18, 14), then (24, 43, 14): seat 2 the goat. Game 2 begins:
    (7, 0, 3)."""
    deal(ref, pk, lead=1, end="domino", seat=1, values={"2": 12, "3": 5})
    deal(ref, pk, end="fish", seat=2, values={"1": 4, "2": 6, "3": 9})
    deal(ref, pk, end="domino", seat=3, values={"1": 20, "2": 25})
    return deal(ref, pk, lead=2, end="domino", seat=2, values={"1": 7, "3": 3})


def correct(event, game, number, reason="the referee misread seat 3's hand", who="chief", **data):
    return commands.correct_goat_deal(event[who], event["p"], game, number, data, reason=reason)


def test_the_chief_corrects_a_deal_and_the_later_deals_are_replayed(goat):
    pk = goat["p"]
    two_games(goat["ref"], pk)
    # Deal 1 of game 1: seat 3 held 15, not 5. Replayed: (0, 12, 15), (4, 18, 24), (24, 43, 24).
    p = correct(goat, 1, 1, end="domino", seat=1, values={"2": 12, "3": 15}, reason="  seat 3 held 15  ")
    assert (p.version, p.status, p.deals) == (5, "playing", 4)
    games = sitting(pk).games
    assert [d.scores for d in games[0].deals] == [(0, 12, 15), (4, 18, 24), (24, 43, 24)]
    assert games[0].decision.goats == ("2",) and games[0].game_points() == (8, 0, 8)
    assert games[1].scores == (7, 0, 3)  # game 2 as it was
    change = PartitionChange.objects.get(partition_id=pk, version=5)
    assert (change.action, change.reason, change.user) == ("correction", "seat 3 held 15", goat["chief"])
    assert change.data == {"game": 1, "deal": 1, "end": "domino", "seat": 1, "values": {"2": 12, "3": 15}}
    assert change.before["deals"] == change.after["deals"] == 4
    # The version before keeps the deal as it was recorded.
    assert storage.sitting_at(stored(pk), 4).games[0].deals[0].scores == (0, 12, 5)


def test_a_correction_that_would_make_later_records_impossible_is_refused(goat):
    pk = goat["p"]
    two_games(goat["ref"], pk)
    before = stored(pk).state
    # Seat 2 held 30 at deal 2: (4, 42, 14), the goat already, yet deal 3 is recorded after it.
    with pytest.raises(ValidationError, match="game 1 ends at deal 2, yet later deals are recorded in it"):
        correct(goat, 1, 2, end="fish", seat=2, values={"1": 4, "2": 30, "3": 9})
    # Seat 2 held 2 at deal 1: (24, 33, 14) after deal 3, nobody the goat, yet game 2 has begun.
    with pytest.raises(ValidationError, match="The correction is refused: game 1 is not over, yet another game"):
        correct(goat, 1, 1, end="domino", seat=1, values={"2": 2, "3": 5})
    # The corrected deal itself is checked by the engine, and named.
    with pytest.raises(ValidationError, match="deal 2: seat 1 made domino: his hand is empty"):
        correct(goat, 1, 2, end="domino", seat=1, values={"1": 3, "2": 6, "3": 9})
    with pytest.raises(ValidationError, match="There is no game 3"):
        correct(goat, 3, 1, end="redeal")
    with pytest.raises(ValidationError, match="Game 2 has no deal 2"):
        correct(goat, 2, 2, end="redeal")
    with pytest.raises(ValidationError, match="Unknown field: lead"):
        correct(goat, 1, 1, lead=1, end="domino", seat=1, values={"2": 12, "3": 15})
    with pytest.raises(ValidationError, match="A correction needs a reason"):
        correct(goat, 1, 1, reason=" ", end="domino", seat=1, values={"2": 12, "3": 15})
    with pytest.raises(PermissionDenied):
        correct(goat, 1, 1, who="ref", end="domino", seat=1, values={"2": 12, "3": 15})
    nothing_written(pk, 4)
    assert stored(pk).state == before


def test_correcting_the_last_deal_of_a_finished_sitting_reopens_it_and_takes_its_results_back(goat):
    pk = goat["p"]
    two_games(goat["ref"], pk)
    # Game 2, deal 2: seat 1 charged 35: (42, 0, 6), the goat; the sitting is over.
    p = deal(goat["ref"], pk, end="domino", seat=2, values={"1": 35, "3": 3})
    assert p.status == "finished" and p.reason == "lose_at"
    # Game points: game 1 (8, 0, 9) [7.6 -> 8, goat, 8.6 -> 9], game 2 (0, 10, 9) [goat, 10, 9.4 -> 9].
    assert results(pk) == [(1, 8, 1, 66), (2, 10, 1, 43), (3, 18, 0, 20)]
    assert Tour.objects.get(pk=goat["tour"].pk).status == Tour.Status.FINISHED
    # The chief: seat 1 held 30, not 35: (37, 0, 6), nobody the goat; the sitting goes on.
    p = correct(goat, 2, 2, end="domino", seat=2, values={"1": 30, "3": 3})
    assert (p.status, p.reason, p.finished_at) == ("playing", "", None)
    assert not SeatResult.objects.filter(partition_id=pk).exists()
    assert Tour.objects.get(pk=goat["tour"].pk).status == Tour.Status.RUNNING
    assert sitting(pk).game.scores == (37, 0, 6) and sitting(pk).game.next_leader == 2
    # The referee records on: seat 2 makes domino, seat 1 charged 5: (42, 0, 10), over again.
    p = deal(goat["ref"], pk, end="domino", seat=2, values={"1": 5, "3": 4})
    assert p.status == "finished"
    assert results(pk) == [(1, 8, 1, 66), (2, 10, 1, 43), (3, 18, 0, 24)]  # game 2: 9.0 -> 9


def test_a_redeal_is_corrected_into_a_scored_deal(goat):
    pk = goat["p"]
    deal(goat["ref"], pk, lead=1, end="domino", seat=1, values={"2": 12, "3": 5})
    deal(goat["ref"], pk, end="redeal")
    deal(goat["ref"], pk, end="fish", seat=3, values={"1": 1, "2": 2, "3": 3})  # (1, 14, 8), led by 1
    # Deal 2 was no redeal: seat 1 made domino again, (0, 22, 9); deal 3 is then (1, 24, 12).
    correct(goat, 1, 2, end="domino", seat=1, values={"2": 10, "3": 4})
    game = sitting(pk).game
    assert [(d.end, d.leader, d.scores) for d in game.deals] == [
        ("domino", 1, (0, 12, 5)), ("domino", 1, (0, 22, 9)), ("fish", 1, (1, 24, 12))]


# -- annulling a penalty ----------------------------------------------------------------------------


def test_the_chief_annuls_a_penalty_and_the_game_is_replayed_without_it(goat):
    ref, pk = goat["ref"], goat["p"]
    deal(ref, pk, lead=1, end="domino", seat=1, values={"2": 12, "3": 25})  # (0, 12, 25)
    commands.record_goat(ref, pk, "goat_penalty", {"seat": 3, "code": "signs"})  # (0, 12, 35)
    commands.record_goat(ref, pk, "goat_penalty", {"seat": 2, "code": "conduct"})  # (0, 22, 35)
    deal(ref, pk, end="domino", seat=1, values={"2": 3, "3": 1})  # (0, 25, 36)
    with pytest.raises(PermissionDenied):
        commands.annul_goat_penalty(ref, pk, 1, 1, reason="the signs were not signs")
    with pytest.raises(ValidationError, match="Game 1 has no penalty 3"):
        commands.annul_goat_penalty(goat["chief"], pk, 1, 3, reason="no such")
    nothing_written(pk, 4)
    p = commands.annul_goat_penalty(goat["chief"], pk, 1, 1, reason="the signs were not signs")
    game = sitting(pk).game
    assert [(x.seat, x.code, x.scores) for x in game.penalties] == [(2, "conduct", (0, 22, 25))]
    assert game.scores == (0, 25, 26)
    change = PartitionChange.objects.get(partition_id=p.pk, version=5)
    assert (change.action, change.data, change.reason) == ("correction", {"game": 1, "penalty": 1},
                                                            "the signs were not signs")


def test_annulling_the_penalty_that_made_the_goat_lets_the_game_go_on(goat):
    ref, pk = goat["ref"], goat["p"]
    deal(ref, pk, lead=1, end="domino", seat=1, values={"2": 12, "3": 25})  # (0, 12, 25)
    commands.record_goat(ref, pk, "goat_penalty", {"seat": 3, "code": "signs"})  # (0, 12, 35)
    commands.record_goat(ref, pk, "goat_penalty", {"seat": 3, "code": "signs"})  # (0, 12, 45): the goat
    assert len(sitting(pk).games) == 2  # game 2 begins, nothing recorded in it
    commands.annul_goat_penalty(goat["chief"], pk, 1, 2, reason="written twice")
    s = sitting(pk)
    assert len(s.games) == 1 and not s.game.is_over and s.game.scores == (0, 12, 35)
    # Once game 2 has begun, a penalty of game 1 that made the goat stays.
    commands.record_goat(ref, pk, "goat_penalty", {"seat": 3, "code": "conduct"})  # (0, 12, 45)
    deal(ref, pk, lead=2, end="redeal")
    with pytest.raises(ValidationError, match="game 1 is not over, yet another game follows it"):
        commands.annul_goat_penalty(goat["chief"], pk, 1, 2, reason="written twice")
    nothing_written(pk, 6)


# -- import ---------------------------------------------------------------------------------------


@pytest.fixture
def two_tables():
    """Six players: two tables of three."""
    return goat_event(GOAT, players=6, slug="six")


def test_a_tables_protocol_file_is_imported_into_an_empty_table(two_tables):
    event = two_tables
    two_games(event["ref"], event["p"])
    document = queries.export_sitting(stored(event["p"]))
    assert document["format"] == "domino-sitting/1" and len(document["games"]) == 2
    # Table 2's referee types table 1's file in (the names are not checked).
    p = commands.import_sitting(event["other"], event["p2"], document)
    assert (p.version, p.status, p.deals) == (1, "playing", 4)
    assert scores(storage.engine_sitting(p)) == scores(sitting(event["p"])) == [
        [(0, 12, 5), (4, 18, 14), (24, 43, 14)], [(7, 0, 3)]]
    assert PartitionChange.objects.get(partition_id=p.pk).action == "import"
    # A second import into a recorded table is the chief referee's, with a reason.
    with pytest.raises(ValidationError, match="already recorded"):
        commands.import_sitting(event["other"], event["p2"], document)
    nothing_written(event["p2"], 1)
    # The chief replaces it with the first game alone, a domino-protocol/1 document, finished.
    p = commands.import_sitting(event["chief"], event["p2"], document["games"][0], reason="game 2 never played")
    assert (p.version, p.status, p.deals) == (2, "playing", 3)  # game 2 of 2 is to be played
    change = PartitionChange.objects.get(partition_id=p.pk, version=2)
    assert (change.action, change.reason) == ("correction", "game 2 never played")
    with pytest.raises(PermissionDenied):
        commands.import_sitting(event["other"], event["p2"], document, reason="mine")


def test_an_imported_finished_sitting_writes_the_results(two_tables):
    event = two_tables
    regulations = {k: v for k, v in sitting(event["p"]).regulations.to_dict().items() if v is not None}
    game = {"format": "domino-protocol/1", "regulations": regulations, "first_leader": 2,
            "deals": [{"end": "domino", "seat": 2, "values": {"1": 41, "3": 3}}]}  # (41, 0, 3): seat 1 the goat
    document = {"format": "domino-sitting/1", "games": [game, {**game, "first_leader": 3, "deals": [
        {"end": "fish", "seat": 3, "values": {"1": 10, "2": 40, "3": 2}}]}]}  # (10, 40, 2): seat 2
    p = commands.import_sitting(event["ref"], event["p"], document)
    assert p.status == "finished"
    # Game points: game 1 (0, 10, 10) [9.7 -> 10], game 2 (9, 0, 10) [9.8 -> 10].
    assert results(p.pk) == [(1, 9, 1, 51), (2, 10, 1, 40), (3, 20, 0, 5)]


def bad_documents(good):
    game = good["games"][0]
    wrong_deal = copy.deepcopy(good)
    wrong_deal["games"][0]["deals"][1]["values"] = {"1": 150, "2": 60, "3": 40}
    return [
        ({"format": "domino-protocol/2"}, "The format must be domino-sitting/1"),
        ([game], "A protocol must be a JSON object"),
        ({**good, "games": []}, "lists its games: at least one"),
        ({**good, "tables": 1}, "Unknown field: tables"),
        ({**good, "games": good["games"] * 2}, "at most 2 games, the file has 4"),
        ({**good, "games": [game, 7]}, "Game 2 must be a JSON object"),
        (wrong_deal, "game 1, deal 2: hand values 250 in all: the hands cannot be worth more than 243"),
        ({**good, "games": [{**game, "regulations": {**game["regulations"], "lose_at": 50}}]},
         "Game 1 is played under other regulations than this table's"),
        ({**good, "games": [{**game, "deals": game["deals"][:1]}, good["games"][1]]},
         "game 1 is not over, yet another game follows it"),
        ({**game, "deals": [*game["deals"], {"redeal": True}]},
         "game 1, deal 4: the game was already decided after deal 3 (lose_at)"),
        (unfinished(game["regulations"]), "Game 1 stops in the middle of a deal"),
    ]


def unfinished(regulations):
    """One game whose first deal is dealt and not played yet (move form)."""
    from scoring.engine import Regulations
    dealt = GoatDeal.from_seed(11, Regulations.from_dict(regulations))
    assert not dealt.is_void
    return {"format": "domino-protocol/1", "regulations": regulations,
            "deals": [{"hands": dealt.to_dict()["hands"], "moves": []}]}


def test_a_bad_file_is_refused_whole_and_nothing_is_written(two_tables):
    event = two_tables
    two_games(event["ref"], event["p"])
    good = queries.export_sitting(stored(event["p"]))
    for document, message in bad_documents(good):
        with pytest.raises(ValidationError) as refused:
            commands.import_sitting(event["other"], event["p2"], document)
        assert message in " ".join(refused.value.messages), (message, refused.value.messages)
    nothing_written(event["p2"], 0)
    assert stored(event["p2"]).state is None and not SeatResult.objects.filter(partition_id=event["p2"]).exists()


# -- violations -----------------------------------------------------------------------------------


def test_a_violation_is_a_warning_then_a_penalty_over_the_games_and_the_chief_annuls_it(goat):
    ref, pk = goat["ref"], goat["p"]
    deal(ref, pk, lead=1, end="domino", seat=1, values={"2": 12, "3": 25})  # (0, 12, 25)
    commands.record_goat(ref, pk, "goat_violation", {"seat": 3, "code": "conduct"})  # a warning
    assert sitting(pk).game.scores == (0, 12, 25)
    deal(ref, pk, end="domino", seat=1, values={"2": 30, "3": 1})  # (0, 42, 26): seat 2 is the goat
    assert len(sitting(pk).games) == 2
    commands.record_goat(ref, pk, "goat_violation", {"seat": 3, "code": "conduct"})  # game 2: a penalty
    s = sitting(pk)
    assert [v.consequence for v in s.game.violations] == ["penalty"] and s.game.scores == (0, 0, 10)
    with pytest.raises(ValidationError, match="unknown violation code 'no_show'"):
        commands.record_goat(ref, pk, "goat_violation", {"seat": 3, "code": "no_show"})
    with pytest.raises(PermissionDenied):
        commands.annul_goat_violation(ref, pk, 1, 1, reason="justified")
    with pytest.raises(ValidationError, match="Game 1 has no violation 2"):
        commands.annul_goat_violation(goat["chief"], pk, 1, 2, reason="no such")
    nothing_written(pk, 4)
    p = commands.annul_goat_violation(goat["chief"], pk, 1, 1, reason="the noise was the hall's")
    s = sitting(pk)
    assert s.games[0].violations[0].annulled == "the noise was the hall's"
    assert [v.consequence for v in s.game.violations] == ["warning"] and s.game.scores == (0, 0, 0)
    change = PartitionChange.objects.get(partition_id=p.pk, version=5)
    assert (change.action, change.data, change.reason) == ("correction", {"game": 1, "violation": 1},
                                                            "the noise was the hall's")
