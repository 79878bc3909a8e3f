"""The page of a tour's paper batch in Chromium at a phone's width: its script polls the status
JSON and moves the progress bar, then shows the PDF's button when the batch is ready, with no
Content-Security-Policy violation and no page wider than the phone."""

import pytest
from django.utils import timezone

from builders import refereed_tour
from scoring.models import ProtocolBatch

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_batch_page_follows_the_work(live_server, browser):
    from playwright.sync_api import expect

    world = refereed_tour()
    # A batch at work, as a worker leaves it (its task is not run here: the page is under test).
    batch = ProtocolBatch.objects.create(tournament=world["tournament"], tour=world["tour"],
                                         kind=ProtocolBatch.Kind.PAPER, total=2, base_url=live_server.url,
                                         snapshot="s", progressed_at=timezone.now(), created_by=world["ref"])
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(20_000)
    page = context.new_page()
    problems = []
    page.on("console", lambda message: message.type == "error" and problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Имя пользователя").fill("ref")
    page.get_by_label("Пароль").fill("pw-ref")
    page.get_by_role("main").get_by_role("button", name="Войти").click()
    expect(page.get_by_role("button", name="Выйти (ref)")).to_be_visible()

    page.goto(f"{live_server.url}/tournaments/{world['t'].slug}/manage/tours/1/paper/{batch.pk}/")
    bar = page.locator("#batch-progress progress")
    expect(bar).to_have_attribute("value", "0")
    ProtocolBatch.objects.filter(pk=batch.pk).update(done=1, progressed_at=timezone.now())
    expect(page.locator("[data-batch-count]")).to_contain_text("1 из 2")  # polled, not reloaded
    assert bar.evaluate("e => e.value") == 1
    ProtocolBatch.objects.filter(pk=batch.pk).update(done=2, status=ProtocolBatch.Status.READY, archive=b"%PDF-1.7",
                                                     finished_at=timezone.now())
    expect(page.get_by_role("link", name="Открыть PDF")).to_be_visible()  # the new state: the page reloaded
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert problems == []
