"""The pages, inside config.urls' i18n_patterns: Russian at the root, English under /en/."""

from django.urls import include, path

from . import organiser_views as organiser
from . import views

tour = "tournaments/<slug:slug>/manage/tours/<int:number>/"

urlpatterns = [
    path("accounts/", include("django.contrib.auth.urls")),
    # Public pages.
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("tournaments/<slug:slug>/", views.tournament_detail, name="tournament"),
    path("tournaments/<slug:slug>/tours/<int:number>/", views.tour_detail, name="tour"),
    path("tournaments/<slug:slug>/standings/", views.standings_page, name="standings"),
    path("tournaments/<slug:slug>/standings/players/", views.standings_page, {"kind": "players"}, name="standings-players"),
    path("tournaments/<slug:slug>/standings/csv/", views.standings_csv, name="standings-csv"),
    path("tournaments/<slug:slug>/standings/players/csv/", views.standings_csv, {"kind": "players"},
         name="standings-players-csv"),
    path("tournaments/<slug:slug>/standings/teams/", views.team_standings_page, name="standings-teams"),
    path("tournaments/<slug:slug>/standings/teams/csv/", views.team_standings_csv, name="standings-teams-csv"),
    path("tournaments/<slug:slug>/tours.ics", views.tours_ics, name="tours-ics"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    # The organiser's pages.
    path("manage/", organiser.my_tournaments, name="my-tournaments"),
    path("manage/new/", organiser.tournament_create, name="tournament-create"),
    path("manage/organisers/", organiser.organisers, name="organisers"),
    path("manage/organisers/new/", organiser.organiser_new, name="organiser-new"),
    path("manage/organisers/<int:pk>/dismiss/", organiser.organiser_dismiss, name="organiser-dismiss"),
    path("tournaments/<slug:slug>/manage/", organiser.tournament_manage, name="tournament-manage"),
    path("tournaments/<slug:slug>/manage/edit/", organiser.tournament_edit, name="tournament-edit"),
    path("tournaments/<slug:slug>/manage/staff/", organiser.tournament_staff, name="tournament-staff"),
    path("tournaments/<slug:slug>/manage/staff/new/", organiser.staff_new, name="staff-new"),
    path("tournaments/<slug:slug>/manage/staff/<int:pk>/remove/", organiser.role_remove, name="role-remove"),
    path("tournaments/<slug:slug>/manage/entries/", organiser.tournament_entries, name="tournament-entries"),
    path("tournaments/<slug:slug>/manage/pairs/<int:pk>/withdraw/", organiser.pair_withdraw, name="pair-withdraw"),
    path("tournaments/<slug:slug>/manage/players/<int:pk>/withdraw/", organiser.entry_withdraw,
         name="entry-withdraw"),
    path("tournaments/<slug:slug>/manage/pairs/<int:pk>/reinstate/", organiser.pair_reinstate, name="pair-reinstate"),
    path("tournaments/<slug:slug>/manage/pairs/<int:pk>/substitute/", organiser.pair_substitute,
         name="pair-substitute"),
    path("tournaments/<slug:slug>/manage/players/<int:pk>/reinstate/", organiser.entry_reinstate,
         name="entry-reinstate"),
    path("tournaments/<slug:slug>/manage/entries/players/<int:player>/edit/", organiser.player_edit,
         name="player-edit"),
    path("tournaments/<slug:slug>/manage/seeding/", organiser.tournament_seeds, name="tournament-seeds"),
    path("tournaments/<slug:slug>/manage/import/", organiser.pairs_import, name="pairs-import"),
    path("tournaments/<slug:slug>/manage/import/template.csv", organiser.pairs_import_template,
         name="pairs-import-template"),
    path("tournaments/<slug:slug>/manage/tours/new/", organiser.tour_generate, name="tour-generate"),
    path(tour, organiser.tour_manage, name="tour-manage"),
    path(tour + "seating/", organiser.tour_seating, name="tour-seating"),
    path(tour + "publish/", organiser.tour_publish, name="tour-publish"),
    path(tour + "referees/", organiser.tour_referees, name="tour-referees"),
    path(tour + "referees/evenly/", organiser.tour_referees_evenly, name="tour-referees-evenly"),
    path(tour + "print/", organiser.tour_print, name="tour-print"),
]
