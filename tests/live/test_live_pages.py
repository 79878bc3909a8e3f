"""The pages of live tables: the public page, the player's phone, the referee's tablet, starting a
tour. Who sees what (never another player's hand), and that what is posted reaches the services."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from livetools import PIN, live_tour, login
from scoring import engine
from scoring.engine.deal import next_seat
from scoring.live import play
from scoring.models import LiveTable, Partition, PartitionChange
from scoring.recording.storage import engine_partition
from tournaments.models import Table, Tour

pytestmark = pytest.mark.django_db

TABLE = "/tournaments/cup/tours/1/tables/1/"
FETCH = {"HTTP_X_REQUESTED_WITH": "fetch"}


def game(world) -> engine.Partition:
    return engine_partition(Partition.objects.get(pk=world["p1"].pk))


def live(world) -> LiveTable:
    return LiveTable.objects.get(pk=world["p1"].pk)


def text(response) -> str:
    return response.content.decode()


def claim(seat: int, pin: str = PIN) -> tuple[Client, object]:
    client = Client()
    response = client.post(TABLE + "play/", {"action": "claim", "seat": seat, "pin": pin})
    return client, response


@pytest.fixture
def phones(db, frozen):
    """A digital table, tour started, its four players seated from their phones: seat -> client."""
    world = live_tour("digital")
    play.start_tour(world["chief"], world["tour"])
    world["phones"] = {seat: claim(seat)[0] for seat in (1, 2, 3, 4)}
    return world


@pytest.fixture
def refereed(db, frozen):
    world = live_tour("refereed")
    play.start_tour(world["chief"], world["tour"])
    return world


def both_ways(tile: str) -> tuple[str, str]:
    a, b = tile.split("-")
    return f"{a}-{b}", f"{b}-{a}"


def tile_mentioned(page: str, tile: str) -> bool:
    """Whether ``tile`` is written anywhere in the page, either way round (not inside a longer number)."""
    return any(re.search(rf"(?<![\d-]){re.escape(t)}(?![\d-])", page) for t in both_ways(tile))


# -- who sees which page ---------------------------------------------------------------------------


def test_each_page_opens_for_whom_it_is_for(refereed):
    anonymous = Client()
    assert anonymous.get(TABLE + "live/").status_code == 200
    assert anonymous.get(TABLE + "play/").status_code == 200
    assert anonymous.get(TABLE + "live/fragment/").status_code == 200
    tablet = TABLE + "referee/"
    assert anonymous.get(tablet).status_code == 302  # to the login
    assert login(refereed["other"]).get(tablet).status_code == 403  # the referee of table 2
    assert login(refereed["other"]).get(tablet + "fragment/").status_code == 403
    for person in ("ref", "chief", "org"):
        assert login(refereed[person]).get(tablet).status_code == 200, person
    assert anonymous.get("/tournaments/cup/tours/1/tables/9/live/").status_code == 404


def test_a_draft_tours_tables_are_not_shown_to_the_public(db, frozen):
    world = live_tour("digital")
    Tour.objects.filter(pk=world["tour"].pk).update(status=Tour.Status.DRAFT)
    assert Client().get(TABLE + "live/").status_code == 404
    assert Client().get(TABLE + "play/").status_code == 404
    assert login(world["ref"]).get(TABLE + "live/").status_code == 200


def test_pages_are_in_russian_by_default_and_in_english_under_en(refereed):
    page = text(Client().get(TABLE + "live/"))
    assert "Стол 1" in page and "Ожидание розыгрыша первого хода." in page
    assert "Table 1" in text(Client().get("/en" + TABLE + "live/"))
    tablet = text(login(refereed["ref"]).get(TABLE + "referee/"))
    assert "Планшет судьи" in tablet and "Розыгрыш первого хода" in tablet


def test_before_the_tour_starts_the_pages_say_so(db, frozen):
    live_tour("digital")
    assert "Стол откроется, когда главный судья начнёт тур." in text(Client().get(TABLE + "live/"))


# -- the player's phone --------------------------------------------------------------------------


def test_a_seat_is_taken_with_the_right_pin_only(db, frozen):
    world = live_tour("digital")
    play.start_tour(world["chief"], world["tour"])
    client, response = claim(2, "0000")
    assert response.status_code == 302 and "seat-ru" not in response.cookies
    page = text(client.get(TABLE + "play/"))
    assert "Неверный PIN-код для" in page and "осталось попыток: 4" in page
    client, response = claim(2)
    cookie, english = response.cookies["seat-ru"], response.cookies["seat-en"]
    assert cookie["httponly"] and cookie["samesite"] == "Strict" and cookie["path"] == TABLE
    assert english["path"] == "/en" + TABLE and english.value == cookie.value
    assert play.seats_held(world["p1"].pk, cookie.value) == [2]
    assert live(world).present == [2]
    assert 'data-tile' not in text(client.get(TABLE + "play/"))  # no deal before all four are seated
    assert 'name="pin"' not in text(client.get("/en" + TABLE + "play/"))  # the English page knows him too


def test_a_players_page_shows_his_own_tiles_and_no_other_hand(phones):
    g = game(phones)
    deal = g.current
    assert deal is not None
    for seat, client in phones["phones"].items():
        page = text(client.get(TABLE + "play/"))
        own = [str(tile) for tile in deal.hand(seat)]
        shown = re.findall(r'data-tile="([^"]+)"', page)
        assert sorted(shown) == sorted(own)
        for other in engine.SEATS:
            if other == seat:
                continue
            for tile in deal.hand(other):
                assert not tile_mentioned(page, str(tile)), (seat, other, tile)
        # The fragment the script fetches is the same view.
        fragment = text(client.get(TABLE + "play/fragment/"))
        assert sorted(re.findall(r'data-tile="([^"]+)"', fragment)) == sorted(own)


def test_the_public_page_shows_no_hand_of_the_deal_in_play(phones):
    deal = game(phones).current
    for url in ("live/", "live/fragment/"):
        page = text(Client().get(TABLE + url))
        assert "data-tile" not in page
        for seat in engine.SEATS:
            for tile in deal.hand(seat):
                assert not tile_mentioned(page, str(tile)), (seat, tile)


def mover(world) -> tuple[int, Client]:
    seat = live(world).seat
    return seat, world["phones"][seat]


def a_move(world) -> dict:
    moves = game(world).current.legal_moves()
    if not moves:
        return {"pass": "1"}
    move = moves[0]
    return {"move": f"{move.tile}|{move.end or ''}"}


def test_a_move_posted_from_the_phone_is_recorded(phones, frozen):
    seat, client = mover(phones)
    turn = live(phones).turn
    page = text(client.get(TABLE + "play/"))
    assert "Ваш ход" in page
    frozen.advance(3)
    response = client.post(TABLE + "play/", {"turn": turn, **a_move(phones)})
    assert response.status_code == 302
    change = PartitionChange.objects.filter(partition=phones["p1"]).latest("version")
    assert change.action == "move" and change.data["seat"] == seat and change.data["seconds"] == 2.5
    assert live(phones).turn == turn + 1


def test_the_script_gets_the_fragment_back_and_a_refusal_in_russian(phones):
    seat, client = mover(phones)
    table = live(phones)
    # Another player cannot move for him.
    other = phones["phones"][next_seat(seat)]
    response = other.post(TABLE + "play/", {"turn": table.turn, **a_move(phones)}, **FETCH)
    assert response.status_code == 400 and response["X-Live-Fragment"] == "1"
    assert "Сейчас не ваш ход" in text(response)
    # A stale turn is refused and said so.
    response = client.post(TABLE + "play/", {"turn": table.turn + 5, **a_move(phones)}, **FETCH)
    assert response.status_code == 400 and "Этот ход больше не ожидается" in text(response)
    # A move made: the new fragment, at the next turn.
    response = client.post(TABLE + "play/", {"turn": table.turn, **a_move(phones)}, **FETCH)
    assert response.status_code == 200
    assert f'data-version="{Partition.objects.get(pk=phones["p1"].pk).version}"' in text(response)
    assert live(phones).turn == table.turn + 1
    assert f'name="turn" value="{table.turn + 1}"' in text(response)  # the table as it is now


def test_an_illegal_tile_is_refused_with_the_engines_reason(phones):
    # Play until someone holds a tile that does not fit, and try it.
    for _ in range(20):
        seat, client = mover(phones)
        deal = game(phones).current
        legal = {str(m.tile) for m in deal.legal_moves()}
        wrong = [str(t) for t in deal.hand(seat) if str(t) not in legal]
        if deal.line() and wrong:
            response = client.post(TABLE + "play/", {"turn": live(phones).turn, "move": wrong[0] + "|right"},
                                   follow=True)
            assert re.search(r"не подходит|нельзя|не может", text(response)), text(response)
            return
        client.post(TABLE + "play/", {"turn": live(phones).turn, **a_move(phones)})
    pytest.fail("no illegal tile came up")


def test_pass_is_offered_only_without_a_playable_tile(phones):
    for _ in range(40):
        seat, client = mover(phones)
        deal = game(phones).current
        page = text(client.get(TABLE + "play/"))
        assert ('name="pass"' in page) == (not deal.legal_moves())
        if not deal.legal_moves():
            return
        client.post(TABLE + "play/", {"turn": live(phones).turn, **a_move(phones)})
        if game(phones).current is None:
            break
    pytest.skip("nobody had to pass in this deal")


def test_the_fragment_is_not_sent_again_while_the_table_has_not_changed(phones):
    version = Partition.objects.get(pk=phones["p1"].pk).version
    assert Client().get(TABLE + "live/fragment/", {"version": version}).status_code == 204
    assert Client().get(TABLE + "live/fragment/", {"version": version - 1}).status_code == 200


def test_a_clock_that_ran_out_is_recorded_by_the_next_request_of_a_page(phones, frozen):
    table = live(phones)
    frozen.to(table.deadline)
    frozen.advance(0.1)
    page = text(Client().get(TABLE + "live/fragment/"))
    assert "предупреждение" in page
    # Said when it happened: the first move of deal 1 (not "before the first deal").
    assert "кон 1, ход 1" in page and "до первого кона" not in page
    assert live(phones).lapses == 1
    change = PartitionChange.objects.filter(partition=phones["p1"]).latest("version")
    assert change.action == "timeout" and change.data["by"] == "request"


# -- the referee's tablet ---------------------------------------------------------------------------


HANDS = {1: "6-6 5-5 4-4 3-3 2-2 1-1 0-0", 2: "6-5 6-4 6-3 6-2 6-1 6-0 5-4",
         3: "4-3 4-2 4-1 4-0 3-2 3-1 3-0", 4: "5-3 5-2 5-1 5-0 2-1 2-0 1-0"}


def post_tablet(world, data, user="ref", **extra):
    return login(world[user]).post(TABLE + "referee/", data, **extra)


def test_the_referee_enters_the_hands_a_tile_given_twice_is_refused(refereed):
    post_tablet(refereed, {"action": "start", "seat": 1})
    assert game(refereed).first_leader == 1 and live(refereed).present == [1, 2, 3, 4]
    twice = {**HANDS, 4: "5-3 5-2 5-1 5-0 2-1 2-0 6-6"}
    response = post_tablet(refereed, {"action": "hands", "turn": live(refereed).turn,
                                      **{f"hand_{s}": h for s, h in twice.items()}}, **FETCH)
    assert response.status_code == 400 and "6-6" in text(response)
    assert game(refereed).current is None
    response = post_tablet(refereed, {"action": "hands", "turn": live(refereed).turn,
                                      **{f"hand_{s}": h for s, h in HANDS.items()}}, follow=True)
    deal = game(refereed).current
    assert deal is not None and deal.to_move == 1 and live(refereed).seat == 1
    # The tablet shows the four hands; the public page none of them.
    tablet = text(response)
    assert all(f'data-tile="{tile}"' in tablet for hand in HANDS.values() for tile in hand.split())
    assert "data-tile" not in text(Client().get(TABLE + "live/"))
    # The referee enters the lead and the next move.
    post_tablet(refereed, {"action": "move", "turn": live(refereed).turn, "move": "6-6|"})
    assert 'value="6-5|left"' in text(login(refereed["ref"]).get(TABLE + "referee/"))  # ends 6 and 6: one move
    post_tablet(refereed, {"action": "move", "turn": live(refereed).turn, "move": "6-5|left"})
    assert [str(m.tile) for m in game(refereed).current.history()] == ["6-6", "6-5"]
    # Seat 3 holds no six and no five: his pass is a pass.
    post_tablet(refereed, {"action": "move", "turn": live(refereed).turn, "pass": "1"})
    assert game(refereed).current.history()[-1].is_pass


def test_the_tablets_buttons_reach_their_services(refereed, frozen):
    ref = refereed
    post_tablet(ref, {"action": "check_in", "seat": 3})
    assert live(ref).present == [3]
    deadline = live(ref).no_show_deadline
    post_tablet(ref, {"action": "postpone", "minutes": 10})
    assert live(ref).no_show_deadline == deadline + __import__("datetime").timedelta(minutes=10)  # 10 more
    post_tablet(ref, {"action": "pause", "reason": "call"})
    assert live(ref).pause_reason == "call"
    page = text(login(ref["ref"]).get(TABLE + "referee/"))
    assert "Пауза" in page
    post_tablet(ref, {"action": "resume"})
    assert live(ref).paused_at is None
    response = post_tablet(ref, {"action": "nothing"})
    assert response.status_code == 404


def test_the_chief_referee_annuls_a_warning_with_a_reason(refereed, frozen):
    post_tablet(refereed, {"action": "start", "seat": 1})
    post_tablet(refereed, {"action": "hands", "turn": live(refereed).turn,
                           **{f"hand_{s}": h for s, h in HANDS.items()}})
    frozen.to(live(refereed).deadline)
    frozen.advance(0.1)
    page = text(login(refereed["chief"]).get(TABLE + "referee/"))
    violation = game(refereed).violations[0]
    assert violation.code == "move_time" and "Отменить нарушение" in page and "предупреждение" in page
    assert "Отменить нарушение" not in text(login(refereed["ref"]).get(TABLE + "referee/"))  # the chief's only
    response = post_tablet(refereed, {"action": "annul", "violation": violation.id, "reason": ""}, user="chief",
                           **FETCH)
    assert response.status_code == 400
    post_tablet(refereed, {"action": "annul", "violation": violation.id, "reason": "Игрок отошёл с разрешения"},
                user="chief")
    assert game(refereed).violations[0].annulled == "Игрок отошёл с разрешения"


def test_the_referees_clock_taps_switches_and_records_the_deal(db, frozen):
    world = live_tour("clock")
    play.start_tour(world["chief"], world["tour"])
    post_tablet(world, {"action": "start", "seat": 2})
    table = live(world)
    assert table.seat == 2
    post_tablet(world, {"action": "tap", "turn": table.turn})
    table = live(world)
    assert table.seat == 3
    post_tablet(world, {"action": "allowance", "turn": table.turn, "kind": "fish"})
    assert live(world).allowance == 60
    post_tablet(world, {"action": "result", "version": 0, "end": "domino-3", "pips_a": "0", "pips_b": "25"})
    g = game(world)
    assert len(g.deals) == 1 and g.deals[0].seat == 3 and g.totals == (25, 0)


def test_the_tablet_of_a_digital_table_shows_its_qr_code_and_frees_a_seat(phones):
    page = text(login(phones["ref"]).get(TABLE + "referee/"))
    assert "<svg" in page and "segno" in page and "http://testserver" + TABLE + "play/" in page
    post_tablet(phones, {"action": "release", "seat": 4})
    page = text(phones["phones"][4].get(TABLE + "play/"))
    assert "data-tile" not in page and "Займите своё место" in page


# -- starting a tour, choosing the modes ---------------------------------------------------------------


def test_the_organiser_chooses_the_modes_and_the_chief_referee_starts_the_tour(db, frozen):
    world = live_tour("sheet")
    manage = "/tournaments/cup/manage/tours/1/"
    page = text(login(world["org"]).get(manage))
    assert "Как играются столы" in page and "Начать тур" in page
    response = login(world["org"]).post(manage + "play-mode/", {"mode": "digital", "table_2": "refereed"})
    assert response.status_code == 302
    tables = {t.number: t for t in Table.objects.filter(tour=world["tour"]).select_related("tour")}
    assert tables[1].mode == "digital" and tables[2].mode == "refereed"
    assert login(world["org"]).post(manage + "play-mode/", {"mode": "chess"}).status_code == 302
    assert Tour.objects.get(pk=world["tour"].pk).play_mode == "digital"  # refused: nothing changed
    assert login(world["chief"]).post(manage + "play-mode/", {"mode": "clock"}).status_code == 403

    tour_page = text(login(world["chief"]).get("/tournaments/cup/tours/1/"))
    assert "Начать тур" in tour_page and TABLE + "live/" in tour_page
    assert login(world["ref"]).post("/tournaments/cup/tours/1/start/").status_code == 403
    response = login(world["chief"]).post("/tournaments/cup/tours/1/start/")
    assert response.status_code == 302
    assert LiveTable.objects.get(pk=world["p1"].pk).mode == "digital"
    assert LiveTable.objects.get(pk=world["p2"].pk).mode == "refereed"
    # Too late to change the modes now.
    login(world["org"]).post(manage + "play-mode/", {"mode": "clock"})
    assert Tour.objects.get(pk=world["tour"].pk).play_mode == "digital"
    # The referee's "my tables" leads to the tablet.
    assert TABLE + "referee/" in text(login(world["ref"]).get("/referee/"))


def test_the_tours_print_page_has_the_code_of_each_digital_table(db, frozen):
    world = live_tour("digital")
    Table.objects.filter(pk=world["table2"].pk).update(play_mode="refereed")
    page = text(login(world["org"]).get("/tournaments/cup/manage/tours/1/print/"))
    assert page.count('class="sheet-qr"') == 1 and "Стол 1: отсканируйте код" in page
