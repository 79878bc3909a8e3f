"""The organiser's pages. Thin: each form is read, one service does the work (with its own
transaction and permission check), and a refusal is shown on the form with nothing written.

Every page needs a login; a page of one tournament is a 403 for anyone who cannot manage it.
"""

from __future__ import annotations


from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Max, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scoring.protocols import paper
from tournaments.pages import organiser_page
from tournaments.web.uploads import upload_limit

from . import imports, permissions, services, tours
from .forms import (GenerateTourForm, ImportForm, NewLoginForm, NewStaffForm, OrganiserForm, PairForm, PlayerForm,
                    RefereesForm, RegulationsForm, RoleForm, SeatingForm, SeedsForm, SubstituteForm,
                    TournamentEditForm, TournamentForm, show_error)
from .models import Entry, EntryChange, Pair, Player, PlayMode, Role, Tour, Tournament
from .views import draw_context


def _tour(tournament: Tournament, number: int) -> Tour:
    return get_object_or_404(Tour, tournament=tournament, number=number)


def _posted(request):
    """The submitted data, or None for a GET: an empty POST is still a submission."""
    return request.POST if request.method == "POST" else None


def _refused(request, error: ValidationError) -> None:
    """A refusal of a button (no form to show it on): one message per problem."""
    for message in error.messages:
        messages.error(request, message)


# -- tournaments -----------------------------------------------------------------------------------


@login_required
def my_tournaments(request):
    user = request.user
    tournaments = permissions.staffed_tournaments(user)
    roles: dict[int, list[str]] = {}
    for role in Role.objects.filter(user=user).order_by("kind"):
        roles.setdefault(role.tournament_id, []).append(role.get_kind_display())
    return render(request, "tournaments/manage/my.html", {
        "rows": [(t, roles.get(t.pk, []), permissions.can_manage(user, t)) for t in tournaments],
        "can_create": permissions.can_create_tournament(user),
        "can_appoint": permissions.can_appoint_organisers(user),
    })


@login_required
def tournament_create(request):
    if not permissions.can_create_tournament(request.user):
        raise PermissionDenied(_("You may not create tournaments: ask the federation for organiser rights."))
    form = TournamentForm(_posted(request))
    regulations = RegulationsForm(_posted(request))
    if request.method == "POST" and all([form.is_valid(), regulations.is_valid()]):
        try:
            tournament = services.create_tournament(request.user, **form.cleaned_data,
                                                    regulations=regulations.regulations)
        except ValidationError as error:
            show_error(error, form, regulations)
        else:
            messages.success(request, _("The tournament is created, as a draft: register the pairs next."))
            return redirect("tournament-manage", slug=tournament.slug)
    return render(request, "tournaments/manage/tournament_form.html",
                  {"form": form, "regulations": regulations, "title": _("New tournament")})


@organiser_page
def tournament_manage(request, tournament):
    tours = tournament.tours.all()
    return render(request, "tournaments/manage/tournament.html", {
        "tournament": tournament,
        "tours": tours,
        "draft": next((t for t in tours if t.status == Tour.Status.DRAFT), None),
        "pair_count": Pair.objects.filter(tournament=tournament, tour__isnull=True, withdrawn_at__isnull=True).count(),
        "entry_count": Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count(),
        "staff": tournament.roles.select_related("user").order_by("kind", "user__username"),
    })


@organiser_page
def tournament_edit(request, tournament):
    fields = {name: getattr(tournament, name) for name in TournamentEditForm.base_fields}
    form = TournamentEditForm(_posted(request), initial=fields)
    regulations = RegulationsForm(_posted(request), regulations=tournament.regulations)
    if request.method == "POST" and all([form.is_valid(), regulations.is_valid()]):
        try:
            tournament = services.update_tournament(request.user, tournament, **form.cleaned_data,
                                                    regulations=regulations.regulations)
        except ValidationError as error:
            show_error(error, form, regulations)
        else:
            messages.success(request, _("The tournament is saved."))
            return redirect("tournament-manage", slug=tournament.slug)
    return render(request, "tournaments/manage/tournament_form.html", {
        "form": form, "regulations": regulations, "tournament": tournament, "title": _("Tournament and regulations"),
    })


# -- organisers (superusers) ------------------------------------------------------------------------


def _new_login_page(request, made: services.NewLogin, **context):
    """The one answer that shows a login's new password link: kept by no cache."""
    link = request.build_absolute_uri(reverse("password_reset_confirm",
                                              kwargs={"uidb64": made.uidb64, "token": made.token}))
    response = render(request, "tournaments/manage/new_login.html", {"person": made.user, "link": link, **context})
    add_never_cache_headers(response)
    return response


def _organisers_page(request, form: OrganiserForm, new_form: NewLoginForm):
    return render(request, "tournaments/manage/organisers.html", {
        "form": form, "new_form": new_form, "organisers": services.organisers(),
    })


@login_required
def organisers(request):
    permissions.require_appoint_organisers(request.user)
    form = OrganiserForm(_posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            appointed = services.appoint_organiser(request.user, form.cleaned_data["username"])
        except ValidationError as error:
            show_error(error, form)
        else:
            messages.success(request, _("%(user)s may create tournaments.") % {"user": appointed})
            return redirect("organisers")
    return _organisers_page(request, form, NewLoginForm())


@require_POST
@login_required
def organiser_new(request):
    """A new organiser's login; the answer (not a redirect) is the only place its link is shown."""
    permissions.require_appoint_organisers(request.user)
    form = NewLoginForm(request.POST)
    if form.is_valid():
        try:
            made = services.add_new_organiser(request.user, **form.cleaned_data)
        except ValidationError as error:
            show_error(error, form)
        else:
            return _new_login_page(request, made)
    return _organisers_page(request, OrganiserForm(), form)


@require_POST
@login_required
def organiser_link(request, pk: int):
    """A new one-time link for an organiser's login (:func:`services.new_organiser_link`)."""
    permissions.require_appoint_organisers(request.user)
    target = get_object_or_404(get_user_model(), pk=pk)
    try:
        made = services.new_organiser_link(request.user, target)
    except ValidationError as error:
        _refused(request, error)
        return redirect("organisers")
    return _new_login_page(request, made, reissued=True)


@require_POST
@login_required
def organiser_dismiss(request, pk: int):
    permissions.require_appoint_organisers(request.user)
    target = get_object_or_404(get_user_model(), pk=pk)
    services.dismiss_organiser(request.user, target)
    messages.success(request, _("%(user)s may no longer create tournaments.") % {"user": target})
    return redirect("organisers")


# -- staff -----------------------------------------------------------------------------------------


def _staff_page(request, tournament, form: RoleForm, new_form: NewStaffForm):
    return render(request, "tournaments/manage/staff.html", {
        "tournament": tournament, "form": form, "new_form": new_form,
        "roles": tournament.roles.select_related("user").order_by("kind", "user__username"),
    })


@organiser_page
def tournament_staff(request, tournament):
    form = RoleForm(_posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            role = services.add_role(request.user, tournament, form.cleaned_data["username"], form.cleaned_data["kind"])
        except ValidationError as error:
            show_error(error, form)
        else:
            messages.success(request, _("%(user)s: %(role)s.") % {"user": role.user, "role": role.get_kind_display()})
            return redirect("tournament-staff", slug=tournament.slug)
    return _staff_page(request, tournament, form, NewStaffForm())


@require_POST
@organiser_page
def staff_new(request, tournament):
    """A new login with a role; the answer (not a redirect) is the only place its link is shown."""
    form = NewStaffForm(request.POST)
    if form.is_valid():
        try:
            made = services.add_new_staff(request.user, tournament, **form.cleaned_data)
        except ValidationError as error:
            show_error(error, form)
        else:
            return _new_login_page(request, made, tournament=tournament,
                                   role=Role.Kind(form.cleaned_data["kind"]).label)
    return _staff_page(request, tournament, RoleForm(), form)


@require_POST
@organiser_page
def staff_link(request, tournament, pk: int):
    """A new one-time link for a login of the staff (:func:`services.new_staff_link`)."""
    target = get_object_or_404(get_user_model(), pk=pk)
    try:
        made = services.new_staff_link(request.user, tournament, target)
    except ValidationError as error:
        _refused(request, error)
        return redirect("tournament-staff", slug=tournament.slug)
    return _new_login_page(request, made, tournament=tournament, reissued=True)


@require_POST
@organiser_page
def role_remove(request, tournament, pk: int):
    role = get_object_or_404(Role, tournament=tournament, pk=pk)
    try:
        services.remove_role(request.user, role)
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(request, _("%(user)s no longer has the role %(role)s.")
                         % {"user": role.user, "role": role.get_kind_display()})
    return redirect("tournament-staff", slug=tournament.slug)


# -- pairs and players -------------------------------------------------------------------------------


@organiser_page
def tournament_entries(request, tournament):
    form: PlayerForm | PairForm = (PlayerForm if tournament.is_individual else PairForm)(_posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            if isinstance(form, PlayerForm):
                entry = services.register_player(request.user, tournament, form.player)
                done = _("%(player)s is registered.") % {"player": entry.player}
            else:
                pair = services.register_pair(request.user, tournament, form.player_of("first"), form.player_of("second"),
                                              number=form.cleaned_data["number"])
                done = _("Pair №%(number)s %(pair)s is registered.") % {"number": pair.number, "pair": pair}
        except ValidationError as error:
            show_error(error, form)
        else:
            messages.success(request, done)
            return redirect("tournament-entries", slug=tournament.slug)
    players = Entry.objects.filter(tournament=tournament).values("player")
    return render(request, "tournaments/manage/entries.html", {
        "tournament": tournament, "form": form,
        "closed": services.pairs_closed(tournament),
        "pairs": Pair.objects.filter(tournament=tournament, tour__isnull=True).select_related("first", "second"),
        "entries": Entry.objects.filter(tournament=tournament).select_related("player"),
        "editable": {p.pk for p in Player.objects.filter(pk__in=players) if permissions.can_edit_player(request.user, p)},
        # The tournament's own history, and the corrections of its players' data made elsewhere.
        "changes": EntryChange.objects.filter(
            Q(tournament=tournament) | Q(tournament__isnull=True, player__in=players)
        ).select_related("user", "player", "pair")[:ENTRY_CHANGES_SHOWN],
    })


ENTRY_CHANGES_SHOWN = 50


def _withdraw(request, tournament, thing, service, question: str, done: str):
    """Ask first (no JavaScript), then withdraw with ``service``."""
    if request.method == "POST":
        try:
            service(request.user, thing)
        except ValidationError as error:
            _refused(request, error)
        else:
            messages.success(request, done)
        return redirect("tournament-entries", slug=tournament.slug)
    return render(request, "tournaments/manage/withdraw.html", {"tournament": tournament, "question": question})


@organiser_page
def pair_withdraw(request, tournament, pk: int):
    pair = get_object_or_404(Pair, tournament=tournament, tour__isnull=True, pk=pk)
    names = {"number": pair.number, "pair": pair}
    return _withdraw(request, tournament, pair, services.withdraw_pair,
                     _("Withdraw pair №%(number)s %(pair)s?") % names,
                     _("Pair №%(number)s %(pair)s is withdrawn: it is not drawn again; its played partitions stay.")
                     % names)


@organiser_page
def entry_withdraw(request, tournament, pk: int):
    entry = get_object_or_404(Entry.objects.select_related("player"), tournament=tournament, pk=pk)
    names = {"player": entry.player}
    return _withdraw(request, tournament, entry, services.withdraw_entry, _("Withdraw %(player)s?") % names,
                     _("%(player)s is withdrawn: not drawn again; played partitions stay.") % names)


@require_POST
@organiser_page
def pair_reinstate(request, tournament, pk: int):
    pair = get_object_or_404(Pair, tournament=tournament, tour__isnull=True, pk=pk)
    try:
        services.reinstate_pair(request.user, pair)
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(request, _("Pair №%(number)s %(pair)s is back: it is drawn again from the next tour.")
                         % {"number": pair.number, "pair": pair})
    return redirect("tournament-entries", slug=tournament.slug)


@require_POST
@organiser_page
def entry_reinstate(request, tournament, pk: int):
    entry = get_object_or_404(Entry.objects.select_related("player"), tournament=tournament, pk=pk)
    try:
        services.reinstate_entry(request.user, entry)
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(request, _("%(player)s is back: drawn again from the next tour.") % {"player": entry.player})
    return redirect("tournament-entries", slug=tournament.slug)


@organiser_page
def player_edit(request, tournament, player: int):
    player_row = get_object_or_404(Player, pk=player, entries__tournament=tournament)
    permissions.require_edit_player(request.user, player_row)
    form = PlayerForm(_posted(request), initial={name: getattr(player_row, name) for name in services.PLAYER_FIELDS})
    if request.method == "POST" and form.is_valid():
        try:
            services.update_player(request.user, player_row, form.player, tournament=tournament)
        except ValidationError as error:
            show_error(error, form)
        else:
            messages.success(request, _("%(player)s is saved.") % {"player": player_row})
            return redirect("tournament-entries", slug=tournament.slug)
    return render(request, "tournaments/manage/player_edit.html",
                  {"tournament": tournament, "player": player_row, "form": form})


@organiser_page
def pair_substitute(request, tournament, pk: int):
    pair = get_object_or_404(Pair.objects.select_related("first", "second"), tournament=tournament,
                             tour__isnull=True, pk=pk)
    next_tour = (tournament.tours.aggregate(n=Max("number"))["n"] or 0) + 1
    form = SubstituteForm(_posted(request), pair=pair, next_tour=next_tour)
    if request.method == "POST" and form.is_valid():
        try:
            pair = services.substitute_player(request.user, pair, form.leaving, form.player,
                                              form.cleaned_data["from_tour"])
        except ValidationError as error:
            show_error(error, form)
        else:
            messages.success(request, _("Pair №%(number)s is now %(pair)s from tour %(tour)s on.")
                             % {"number": pair.number, "pair": pair, "tour": form.cleaned_data["from_tour"]})
            return redirect("tournament-entries", slug=tournament.slug)
    return render(request, "tournaments/manage/substitute.html", {"tournament": tournament, "pair": pair, "form": form})


@organiser_page
def pairs_import_template(request, tournament):
    response = HttpResponse(imports.csv_template(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="pairs.csv"'
    return response


@organiser_page
@upload_limit("CSV_IMPORT_MAX_SIZE")
def pairs_import(request, tournament):
    form = ImportForm(_posted(request), request.FILES if request.method == "POST" else None)
    report = None
    if request.method == "POST" and form.is_valid():
        try:
            # The body is bounded (tournaments.web.uploads); the service refuses a file past its size.
            report = imports.import_pairs_csv(request.user, tournament, form.cleaned_data["file"].read())
        except ValidationError as error:
            show_error(error, form)
        else:
            if not report.errors:
                messages.success(request, ngettext("%(count)s pair imported.", "%(count)s pairs imported.",
                                                   report.created) % {"count": report.created})
                if report.seeded:
                    return _seeded_by_rating(request, tournament, report.seeded)
                return redirect("tournament-entries", slug=tournament.slug)
    return render(request, "tournaments/manage/import.html", {
        "tournament": tournament, "form": form, "report": report, "closed": services.pairs_closed(tournament),
        "players": imports.CSV_PLAYER_HEADERS, "numbers": imports.CSV_NUMBER_HEADERS,
        "ratings": imports.CSV_RATING_HEADERS,
    })


def _seeded_by_rating(request, tournament: Tournament, seeded: int):
    """After an import with ratings: the seeding page, which shows the seeds given; they order
    tour 1 only under the seeding by seed numbers, which the organiser chooses."""
    messages.success(request, ngettext("%(count)s pair seeded by its rating.", "%(count)s pairs seeded by their rating.",
                                       seeded) % {"count": seeded})
    if tournament.seeding != Tournament.Seeding.SEEDS:
        messages.warning(request, _("This tournament seeds tour 1: %(seeding)s. The seeds count when it seeds by the "
                                    "organiser's seed numbers (changed on the tournament's edit page).")
                         % {"seeding": tournament.get_seeding_display()})
    return redirect("tournament-seeds", slug=tournament.slug)


@organiser_page
def tournament_seeds(request, tournament):
    pairs = Pair.objects.filter(tournament=tournament, tour__isnull=True, withdrawn_at__isnull=True).select_related(
        "first", "second")
    form = SeedsForm(_posted(request), pairs=pairs)
    if request.method == "POST" and form.is_valid():
        try:
            services.set_seeds(request.user, tournament, form.seeds)
        except ValidationError as error:
            show_error(error, form)
        else:
            messages.success(request, _("The seeding order is saved."))
            return redirect("tournament-seeds", slug=tournament.slug)
    return render(request, "tournaments/manage/seeds.html", {"tournament": tournament, "form": form})


# -- tours -------------------------------------------------------------------------------------------


@organiser_page
def tour_generate(request, tournament):
    form = GenerateTourForm(_posted(request))
    draft = tournament.tours.filter(status=Tour.Status.DRAFT).first()
    if request.method == "POST" and form.is_valid():
        try:
            tour = tours.generate_tour(request.user, tournament, planned_start=form.cleaned_data["planned_start"])
        except ValidationError as error:
            show_error(error, form)
        else:
            messages.success(request, _("Tour %(number)s is drawn as a draft: check it, then publish it.")
                             % {"number": tour.number})
            return redirect("tour-manage", slug=tournament.slug, number=tour.number)
    return render(request, "tournaments/manage/generate.html", {
        "tournament": tournament, "form": form, "draft": draft,
        "next_number": draft.number if draft else tournament.tours.count() + 1,
    })


@organiser_page
def tour_manage(request, tournament, number: int):
    tour = _tour(tournament, number)
    return render(request, "tournaments/manage/tour.html", {
        **draw_context(tour), "tournament": tournament, "is_draft": tour.status == Tour.Status.DRAFT,
        "play_modes": PlayMode.choices,
        # A larger tour's paper is laid out by a worker: the button starts it (scoring.protocols.paper).
        "paper_direct_tables": paper.DIRECT_TABLES,
    })


@organiser_page
def tour_seating(request, tournament, number: int):
    tour = _tour(tournament, number)
    pairs = list(Pair.objects.filter(tournament=tournament, tour__isnull=True, withdrawn_at__isnull=True)
                 .select_related("first", "second"))
    rows = max(len(pairs) // 2, tour.tables.count(), 1)
    form = SeatingForm(_posted(request), pairs=pairs, rows=rows, initial=SeatingForm.initial_for(tour))
    if request.method == "POST" and form.is_valid():
        try:
            tours.set_tables(request.user, tour, form.tables, bye=form.cleaned_data["bye"])
        except ValidationError as error:
            show_error(error, form)
        else:
            messages.success(request, _("The seating of tour %(number)s is saved.") % {"number": tour.number})
            return redirect("tour-manage", slug=tournament.slug, number=tour.number)
    return render(request, "tournaments/manage/seating.html", {"tournament": tournament, "tour": tour, "form": form})


@require_POST
@organiser_page
def tour_publish(request, tournament, number: int):
    tour = _tour(tournament, number)
    try:
        tours.publish_tour(request.user, tour)
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(request, _("Tour %(number)s is published.") % {"number": tour.number})
    return redirect("tour-manage", slug=tournament.slug, number=tour.number)


@organiser_page
def tour_referees(request, tournament, number: int):
    tour = _tour(tournament, number)
    referees = permissions.referees(tournament).order_by("username")
    form = RefereesForm(_posted(request), tables=tour.tables.all(), referees=referees)
    if request.method == "POST" and form.is_valid():
        try:
            services.assign_referees(request.user, tour, form.assignments)
        except ValidationError as error:
            show_error(error, form)
        else:
            messages.success(request, _("The referees of tour %(number)s are saved.") % {"number": tour.number})
            return redirect("tour-manage", slug=tournament.slug, number=tour.number)
    return render(request, "tournaments/manage/referees.html", {
        "tournament": tournament, "tour": tour, "form": form, "has_referees": bool(form.referees),
    })


@require_POST
@organiser_page
def tour_referees_evenly(request, tournament, number: int):
    tour = _tour(tournament, number)
    try:
        services.assign_referees_evenly(request.user, tour)
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(request, _("The referees are placed evenly over the tables of tour %(number)s.")
                         % {"number": tour.number})
    return redirect("tour-manage", slug=tournament.slug, number=tour.number)


@organiser_page
def tour_print(request, tournament, number: int):
    tour = _tour(tournament, number)
    return render(request, "tournaments/manage/print.html", {**draw_context(tour), "tournament": tournament})
