"""The staff pages: a new login made from the tournament's staff page, its link shown once and
working once; the superusers' page of organisers."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from builders import user
from tournaments import permissions, services

pytestmark = pytest.mark.django_db

NEW = {"username": "ilina", "first_name": "Анна", "last_name": "Ильина"}


def link_in(text: str) -> str:
    found = re.search(r"http://testserver(/en/accounts/reset/[^<\s]+/)", text)
    assert found, text
    return found.group(1)


def test_the_organiser_makes_a_referee_who_sets_his_password_by_the_link(client, cup, organiser):
    client.force_login(organiser)
    staff = client.get("/en/tournaments/cup/manage/staff/").content.decode()
    assert "A new login" in staff and 'action="/en/tournaments/cup/manage/staff/new/"' in staff
    response = client.post("/en/tournaments/cup/manage/staff/new/", {**NEW, "kind": "referee"})
    assert response.status_code == 200
    text = response.content.decode()
    assert "Ильина Анна" in text and "shown only once" in text and "no-store" in response["Cache-Control"]
    link = link_in(text)
    assert cup.roles.get(user__username="ilina").kind == "referee"
    # The staff list shows the full name beside the login.
    assert "Ильина Анна" in client.get("/en/tournaments/cup/manage/staff/").content.decode()

    client.logout()
    form = client.get(link, follow=True)
    assert form.context["validlink"] and "Your login is ilina" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "Domino-2026!",
                                                    "new_password2": "Domino-2026!"}, follow=True)
    assert "Your password is set" in done.content.decode()
    assert client.login(username="ilina", password="Domino-2026!")
    client.logout()
    assert "This link no longer works" in client.get(link, follow=True).content.decode()


def test_a_refused_new_login_is_shown_on_its_form_and_nothing_is_made(client, cup, organiser, referee):
    client.force_login(organiser)
    response = client.post("/en/tournaments/cup/manage/staff/new/", {**NEW, "username": "REF", "kind": "referee"})
    text = response.content.decode()
    assert response.status_code == 200 and "The login REF is taken." in text and "Nothing was saved" in text
    assert not get_user_model().objects.filter(username="REF").exists()
    # A referee may not make logins; a visitor is sent to sign in.
    client.force_login(referee)
    assert client.post("/en/tournaments/cup/manage/staff/new/", {**NEW, "kind": "referee"}).status_code == 403
    client.logout()
    assert client.post("/en/tournaments/cup/manage/staff/new/", {**NEW, "kind": "referee"}).status_code == 302
    assert not get_user_model().objects.filter(username="ilina").exists()


def test_the_organisers_page_is_for_superusers(client, organiser):
    url = reverse("organisers")
    assert client.get(url).status_code == 302
    client.force_login(organiser)  # may create tournaments, not appoint organisers
    assert client.get(url).status_code == 403
    assert client.post(reverse("organiser-new"), NEW).status_code == 403
    assert "/manage/organisers/" not in client.get("/en/manage/").content.decode()

    client.force_login(user("root", superuser=True))
    assert "/manage/organisers/" in client.get("/en/manage/").content.decode()
    text = client.get("/en/manage/organisers/").content.decode()
    assert "(org)" in text
    link = link_in(client.post("/en/manage/organisers/new/", NEW).content.decode())
    assert link.startswith("/en/accounts/reset/")
    made = get_user_model().objects.get(username="ilina")
    assert permissions.can_create_tournament(made) and made.get_full_name() == "Анна Ильина"
    user("plain")
    assert client.post("/en/manage/organisers/", {"username": "plain"}).status_code == 302
    assert "There is no user nobody" in client.post("/en/manage/organisers/", {"username": "nobody"}).content.decode()
    client.post(reverse("organiser-dismiss", kwargs={"pk": organiser.pk}))
    assert not permissions.can_create_tournament(get_user_model().objects.get(pk=organiser.pk))
    assert permissions.can_create_tournament(get_user_model().objects.get(username="plain"))


def test_the_staff_page_speaks_russian(client, cup, organiser):
    client.force_login(organiser)
    assert "Новый логин" in client.get("/tournaments/cup/manage/staff/").content.decode()
    text = client.post("/tournaments/cup/manage/staff/new/", {**NEW, "kind": "referee"}).content.decode()
    assert "показывается только один раз" in text and "http://testserver/accounts/reset/" in text


def test_the_organiser_gives_a_referee_a_new_link_from_the_staff_page(client, cup, organiser, referee):
    client.force_login(organiser)
    staff = client.get("/en/tournaments/cup/manage/staff/").content.decode()
    url = f"/en/tournaments/cup/manage/staff/{referee.pk}/link/"
    assert f'action="{url}"' in staff and "New password link" in staff
    # Not on the organiser's own row: his login is not his to reissue here.
    assert f"/manage/staff/{organiser.pk}/link/" not in staff
    response = client.post(url)
    text = response.content.decode()
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert "A new password link" in text and "His password and his earlier link no longer work." in text
    link = link_in(text)
    client.logout()
    assert not client.login(username="ref", password="pw-ref")  # his old password stopped
    form = client.get(link, follow=True)
    assert form.context["validlink"] and "Your login is ref" in form.content.decode()
    client.post(form.redirect_chain[-1][0], {"new_password1": "Domino-2026!", "new_password2": "Domino-2026!"})
    assert client.login(username="ref", password="Domino-2026!")


def test_a_new_link_refused_on_the_staff_page_says_why_and_changes_nothing(client, cup, organiser, referee):
    root = user("root", superuser=True)
    services.add_role(organiser, cup, "root", "referee")
    client.force_login(organiser)
    response = client.post(f"/en/tournaments/cup/manage/staff/{root.pk}/link/", follow=True)
    assert "Only a superuser may give root a new link" in response.content.decode()
    assert "/accounts/reset/" not in response.content.decode()
    stranger = user("stranger")
    response = client.post(f"/en/tournaments/cup/manage/staff/{stranger.pk}/link/", follow=True)
    assert "stranger is not on the staff of this tournament." in response.content.decode()
    assert client.post("/en/tournaments/cup/manage/staff/99999/link/").status_code == 404
    client.force_login(referee)  # a referee may not
    assert client.post(f"/en/tournaments/cup/manage/staff/{referee.pk}/link/").status_code == 403
    assert client.get(f"/en/tournaments/cup/manage/staff/{referee.pk}/link/").status_code == 405
    for login, password in ((root, "pw-root"), (referee, "pw-ref"), (stranger, "pw-stranger")):
        assert get_user_model().objects.get(pk=login.pk).check_password(password)


def test_a_superuser_gives_an_organiser_a_new_link(client, organiser):
    url = f"/en/manage/organisers/{organiser.pk}/link/"
    client.force_login(organiser)
    assert client.post(url).status_code == 403
    root = user("root", superuser=True)
    client.force_login(root)
    page = client.get("/en/manage/organisers/").content.decode()
    assert f'action="{url}"' in page
    text = client.post(url).content.decode()
    assert "A new password link" in text and link_in(text).startswith("/en/accounts/reset/")
    assert not get_user_model().objects.get(pk=organiser.pk).has_usable_password()
    response = client.post(f"/en/manage/organisers/{root.pk}/link/", follow=True)
    assert "root is not an organiser." in response.content.decode()
    assert get_user_model().objects.get(pk=root.pk).check_password("pw-root")


def test_the_new_link_speaks_russian(client, cup, organiser, referee):
    client.force_login(organiser)
    assert "Новая ссылка для пароля" in client.get("/tournaments/cup/manage/staff/").content.decode()
    text = client.post(f"/tournaments/cup/manage/staff/{referee.pk}/link/").content.decode()
    assert "Его пароль и прежняя ссылка больше не действуют." in text and "http://testserver/accounts/reset/" in text


@pytest.mark.parametrize("path", ["/tournaments/cup/manage/staff/", "/manage/organisers/"])
def test_each_label_of_the_staff_pages_names_a_field_of_its_own_form(client, cup, path):
    """The form of an existing login and that of a new one share a page: no id twice, so a
    label (and a screen reader) leads to the field of its own form."""
    client.force_login(user("root", superuser=True))
    text = client.get(path).content.decode()
    ids = re.findall(r'\sid="([^"]+)"', text)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    new_form = text[text.index('action="/' + path.strip("/") + '/new/"'):]
    assert 'for="id_new_username"' in new_form and 'id="id_new_username"' in new_form


def test_only_those_who_may_use_the_admin_site_see_its_link(client, cup, organiser):
    """The organiser's day runs on the site's own pages: the admin site is the superusers'."""
    admin_link = 'href="/admin/"'
    assert admin_link not in client.get("/").content.decode()
    client.force_login(organiser)
    assert admin_link not in client.get("/tournaments/cup/manage/").content.decode()
    client.force_login(user("root", superuser=True))
    assert admin_link in client.get("/").content.decode()
