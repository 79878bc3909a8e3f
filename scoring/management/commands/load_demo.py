"""``manage.py load_demo``: the demo logins and the demo tournaments (sports domino, an earlier
finished one with most of the same players, and an individual Goat event), through the real
services.

Safe to run again: what exists is left as it is.
"""

import datetime

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

pass  # REMOVED-IMPORT
from scoring.engine.simulate import play_random_goat_game, play_random_partition
from scoring.live import play as live_play
from scoring.protocols.confirmations import set_pin
from scoring.recording import commands
from tournaments import rating, services, tours
from tournaments.models import PlayMode, Player, Tour, Tournament

# The logins README.md and `make run` announce: (username, password, superuser). Only the
# superuser is staff of the admin site; the referees work on the site's own pages.
DEMO_USERS = [
    ("organiser", "demo-organiser", True),
    ("chief", "demo-chief", False),
    ("referee", "demo-referee", False),
]
#: Tours of the demo tournament recorded in full; the next one is drawn and being played.
DEMO_PLAYED_TOURS = 3

DEMO_SLUG = "demo"
#: The PIN of every demo player (README): the simulated players of the live tables take their seats
#: with it (manage.py demo_players).
DEMO_PIN = "2468"
#: Tables of the tour under way played live, on the players' phones, by simulated players.
DEMO_LIVE_TABLES = (3, 4)
# 32 players, 16 pairs: (last name, first name, club, city).
DEMO_PLAYERS = [
    ("Иванов", "Сергей", "Дуплет", "Москва"), ("Петров", "Андрей", "Дуплет", "Москва"),
    ("Сидоров", "Николай", "Рыба", "Тула"), ("Кузнецов", "Павел", "Рыба", "Тула"),
    ("Смирнов", "Алексей", "Пуля", "Рязань"), ("Попов", "Игорь", "Пуля", "Рязань"),
    ("Васильев", "Олег", "Азарт", "Калуга"), ("Соколов", "Дмитрий", "Азарт", "Калуга"),
    ("Михайлов", "Юрий", "Дубль", "Тверь"), ("Новиков", "Виктор", "Дубль", "Тверь"),
    ("Фёдоров", "Максим", "Козырь", "Ярославль"), ("Морозов", "Роман", "Козырь", "Ярославль"),
    ("Волков", "Евгений", "Пусто-пусто", "Владимир"), ("Алексеев", "Константин", "Пусто-пусто", "Владимир"),
    ("Лебедев", "Георгий", "Шесть-шесть", "Смоленск"), ("Семёнов", "Артём", "Шесть-шесть", "Смоленск"),
    ("Егоров", "Анатолий", "Дуплет", "Москва"), ("Павлов", "Валерий", "Дуплет", "Москва"),
    ("Козлов", "Геннадий", "Рыба", "Тула"), ("Степанов", "Борис", "Рыба", "Тула"),
    ("Николаев", "Кирилл", "Пуля", "Рязань"), ("Орлов", "Степан", "Пуля", "Рязань"),
    ("Андреев", "Тимур", "Азарт", "Калуга"), ("Макаров", "Василий", "Азарт", "Калуга"),
    ("Никитин", "Леонид", "Дубль", "Тверь"), ("Захаров", "Фёдор", "Дубль", "Тверь"),
    ("Зайцев", "Григорий", "Козырь", "Ярославль"), ("Соловьёв", "Аркадий", "Козырь", "Ярославль"),
    ("Борисов", "Вадим", "Пусто-пусто", "Владимир"), ("Яковлев", "Эдуард", "Пусто-пусто", "Владимир"),
    ("Григорьев", "Руслан", "Шесть-шесть", "Смоленск"), ("Романов", "Святослав", "Шесть-шесть", "Смоленск"),
]


def player_data(row: tuple[str, ...]) -> dict:
    """A player's data for the registration services from a row of DEMO_PLAYERS and the like."""
    return dict(zip(("last_name", "first_name", "club", "city"), row))


def federation_id(n: int) -> str:
    """The federation id of DEMO_PLAYERS[n]: the same person in both sports tournaments."""
    return f"DEMO-{n + 1:03d}"


EARLIER_SLUG = "demo-autumn"
#: The earlier tournament, finished a month before the demo: 12 pairs, three tours, Swiss.
EARLIER_DAYS_BEFORE = 30
EARLIER_TOURS = 3
#: Its pairs: (index in DEMO_PLAYERS, index) of 20 of the demo's players, with other partners
#: than in the demo, and two pairs of newcomers.
EARLIER_PAIRS = [(n + k, n + k + 2) for n in range(0, 20, 4) for k in (0, 1)]
EARLIER_NEWCOMERS = [
    (("Щукин", "Илья", "Дуплет", "Москва"), ("Ёлкина", "Юлия", "Дуплет", "Москва")),
    (("Цыганов", "Яков", "Рыба", "Тула"), ("Шишкин", "Эрик", "Рыба", "Тула")),
]


GOAT_SLUG = "goat"
#: The Goat event (RULES 9.1): 12 players each for himself, three tables of 4 a tour; three tours
#: recorded on the score sheet, the fourth started by the chief referee.
GOAT_PLAYED_TOURS = 3
#: Tables of the Goat tour under way played live, on the players' phones, by simulated players.
GOAT_LIVE_TABLES = (2, 3)
GOAT_PLAYERS = [
    ("Преображенский", "Вячеслав", "Козлиная тропа", "Нижний Новгород"),
    ("Воскресенская", "Елизавета", "Козлиная тропа", "Нижний Новгород"),
    ("Богословский", "Аристарх", "Рыба", "Тула"),
    ("Ширинкина-Заболоцкая", "Антонина", "Рыба", "Тула"),
    ("Добронравов", "Всеволод", "Дуплет", "Москва"),
    ("Старокадомский", "Евграф", "Дуплет", "Москва"),
    ("Кондратьева", "Прасковья", "Пусто-пусто", "Владимир"),
    ("Милославский", "Ипполит", "Пусто-пусто", "Владимир"),
    ("Перепелицын", "Афанасий", "Шесть-шесть", "Смоленск"),
    ("Голенищева-Кутузова", "Анастасия", "Шесть-шесть", "Смоленск"),
    ("Ярошевский", "Владислав", "Азарт", "Калуга"),
    ("Черноморченко", "Мстислав", "Азарт", "Калуга"),
]


class Command(BaseCommand):
    help = "Create the demo logins and the demo tournaments. Safe to run again."

    def handle(self, *args, **options):
        users = self.users()
        if not Tournament.objects.filter(slug=EARLIER_SLUG).exists():
            self.earlier_tournament(users["organiser"], users["referee"])
        if not Tournament.objects.filter(slug=DEMO_SLUG).exists():
            self.tournament(users["organiser"], users["chief"], users["referee"])
        if not Tournament.objects.filter(slug=GOAT_SLUG).exists():
            self.goat_tournament(users["organiser"], users["chief"], users["referee"])
        # The demo's finished tours rated now, not when a worker takes the tasks their ends sent.
        rating.refresh_all()

    def users(self):
        User = get_user_model()
        users = {}
        for username, password, superuser in DEMO_USERS:
            user, created = User.objects.get_or_create(
                username=username, defaults={"is_staff": superuser, "is_superuser": superuser}
            )
            # Only on create: a password someone changed on purpose must survive a restart.
            if created:
                user.set_password(password)
                user.save(update_fields=["password"])
            elif user.is_staff != superuser:  # demo logins made before were all staff
                user.is_staff = superuser
                user.save(update_fields=["is_staff"])
            users[username] = user
        return users

    @transaction.atomic
    def tournament(self, organiser, chief, referee):
        """16 pairs, Swiss: three tours recorded deal by deal through the referee's services,
        the fourth drawn, published and started by the chief referee: two tables recorded on the
        score sheet, two played live on the players' phones (DEMO_LIVE_TABLES)."""
        today = datetime.date.today()
        tournament = services.create_tournament(
            organiser, name="Открытый кубок по спортивному домино", slug=DEMO_SLUG, venue="Москва, клуб «Дуплет»",
            starts_on=today, ends_on=today + datetime.timedelta(days=1), format=Tournament.Format.SWISS)
        services.add_role(organiser, tournament, chief.username, "chief_referee")
        services.add_role(organiser, tournament, referee.username, "referee")
        for n in range(0, len(DEMO_PLAYERS), 2):
            services.register_pair(organiser, tournament, self.demo_player(n), self.demo_player(n + 1))
        for number in range(1, DEMO_PLAYED_TOURS + 2):
            tour = tours.generate_tour(organiser, tournament)
            for table in tour.tables.all():
                services.assign_referee(organiser, table, referee)
                if number > DEMO_PLAYED_TOURS and table.number in DEMO_LIVE_TABLES:
                    live_play.set_play_mode(organiser, table, PlayMode.DIGITAL)
                    for player in table.seats:
                        set_pin(organiser, player.pk, DEMO_PIN)
            tours.publish_tour(organiser, tour)
            for table in tour.tables.order_by("number"):
                if number <= DEMO_PLAYED_TOURS:
                    self.play(referee, table.partition.pk, tournament, seed=number * 100 + table.number)
                elif table.number <= 2:
                    self.play(referee, table.partition.pk, tournament, seed=number * 100 + table.number, deals=2)
        live_play.start_tour(chief, tour)
        assert Tour.objects.filter(tournament=tournament, status=Tour.Status.FINISHED).count() == DEMO_PLAYED_TOURS
        return tournament

    @staticmethod
    def demo_player(n: int) -> dict:
        return {**player_data(DEMO_PLAYERS[n]), "federation_id": federation_id(n)}

    @transaction.atomic
    def earlier_tournament(self, organiser, referee):
        """A month before the demo: 12 pairs, Swiss, every tour recorded deal by deal, finished.
        Twenty of the demo's players played it (found again by their federation ids), so that
        their pages have a history across tournaments."""
        # The players of a demo tournament made before they had federation ids get theirs.
        for n, (last_name, first_name, *_) in enumerate(DEMO_PLAYERS):
            for player in Player.objects.filter(entries__tournament__slug=DEMO_SLUG, federation_id="",
                                                last_name=last_name, first_name=first_name):
                services.update_player(organiser, player, {"federation_id": federation_id(n)})
        day = datetime.date.today() - datetime.timedelta(days=EARLIER_DAYS_BEFORE)
        tournament = services.create_tournament(
            organiser, name="Осенний кубок по спортивному домино", slug=EARLIER_SLUG,
            venue="Тула, клуб «Рыба»", starts_on=day, ends_on=day, format=Tournament.Format.SWISS)
        services.add_role(organiser, tournament, referee.username, "referee")
        pairs = [(self.demo_player(a), self.demo_player(b)) for a, b in EARLIER_PAIRS]
        pairs += [(player_data(first), player_data(second)) for first, second in EARLIER_NEWCOMERS]
        for first, second in pairs:
            services.register_pair(organiser, tournament, first, second)
        for number in range(1, EARLIER_TOURS + 1):
            tour = tours.generate_tour(organiser, tournament)
            tours.publish_tour(organiser, tour)
            for table in tour.tables.order_by("number"):
                services.assign_referee(organiser, table, referee)
                self.play(referee, table.partition.pk, tournament, seed=1000 + number * 100 + table.number)
        services.update_tournament(organiser, tournament, status=Tournament.Status.FINISHED)
        return tournament

    @staticmethod
    def play(referee, partition_id, tournament, seed, deals=None):
        """Record a partition as a referee would, deal by deal, from a randomly played one."""
        game = play_random_partition(tournament.rules, seed=seed)
        commands.record(referee, partition_id, "lead", {"seat": game.first_leader})
        for deal in game.deals[:deals]:
            commands.record(referee, partition_id, "deal", {
                "end": deal.end, "seat": deal.seat, "pips": {"A": deal.pips[0], "B": deal.pips[1]}})

    @transaction.atomic
    def goat_tournament(self, organiser, chief, referee):
        """12 players of Goat each for himself (RULES 9.1): three tours drawn by the Goat draw and
        recorded deal by deal through the referee's service, from randomly played games; the fourth
        drawn and started by the chief referee: table 1 on the score sheet (two deals recorded),
        the others played live with the bazaar on the players' phones (GOAT_LIVE_TABLES)."""
        today = datetime.date.today()
        tournament = services.create_tournament(
            organiser, name="Клубный турнир по «Козлу»", slug=GOAT_SLUG, venue="Нижний Новгород, клуб «Козлиная тропа»",
            starts_on=today, ends_on=today, format=Tournament.Format.INDIVIDUAL, regulations={"game": "goat"})
        services.add_role(organiser, tournament, chief.username, "chief_referee")
        services.add_role(organiser, tournament, referee.username, "referee")
        for names in GOAT_PLAYERS:
            services.register_player(organiser, tournament, player_data(names))
        for number in range(1, GOAT_PLAYED_TOURS + 2):
            tour = tours.generate_tour(organiser, tournament)
            for table in tour.tables.all():
                services.assign_referee(organiser, table, referee)
                if number > GOAT_PLAYED_TOURS and table.number in GOAT_LIVE_TABLES:
                    live_play.set_play_mode(organiser, table, PlayMode.DIGITAL)
                    for player in table.players:
                        set_pin(organiser, player.pk, DEMO_PIN)
            tours.publish_tour(organiser, tour)
            for table in tour.tables.order_by("number"):
                rules = tournament.rules.at_table(len(table.players))
                if number <= GOAT_PLAYED_TOURS:
                    for game in range(rules.games_per_tour):
                        self.play_goat(referee, table.partition.pk, rules, seed=number * 100 + table.number * 10 + game)
                elif table.number not in GOAT_LIVE_TABLES:
                    self.play_goat(referee, table.partition.pk, rules, seed=number * 100 + table.number * 10, deals=2)
        live_play.start_tour(chief, tour)
        assert Tour.objects.filter(tournament=tournament, status=Tour.Status.FINISHED).count() == GOAT_PLAYED_TOURS
        return tournament

    @staticmethod
    def play_goat(referee, partition_id, rules, seed, deals=None):
        """Record a game of Goat as a referee would, deal by deal in summary form, from a randomly
        played one (its first ``deals``, void ones included): its first deal with the seat that
        led it."""
        game = play_random_goat_game(rules, seed=seed)
        lead = True
        for deal in game.deals[:deals]:
            if deal.end == "redeal":
                commands.record_goat_deal(referee, partition_id, {"end": "redeal"})
                continue
            data = {"end": deal.end, "seat": deal.seat, "values": {str(s): v for s, v in enumerate(deal.values, 1)}}
            if lead:
                data["lead"], lead = deal.leader, False
            commands.record_goat_deal(referee, partition_id, data)
