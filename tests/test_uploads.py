"""Every upload is bounded before it is read (config/uploads.py): the verify page takes a PDF up
to UPLOAD_MAX_SIZE, the signing page a PKCS#12 file up to 1 MB, the CSV import up to
CSV_IMPORT_MAX_SIZE; a body past its page's limit (plus a margin for the form around the file)
is a 413 with a message, and nothing reads it. The verify page also says what a code is."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from builders import tournament, user
from tournaments.web.uploads import MULTIPART_ALLOWANCE
from scoring.protocols import signing
from tournaments.models import Pair

pytestmark = pytest.mark.django_db

CSV = "last_name_1;first_name_1;last_name_2;first_name_2\nКонстантинопольский-Д'Артаньян;Ёжик;Пётров;Семён\n"


def text(response) -> str:
    return response.content.decode()


@pytest.fixture
def organiser(client):
    person = user("org", superuser=True)
    client.force_login(person)
    return person


def upload(name: str, size: int, content_type: str = "application/octet-stream") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, b"%PDF-1.7\n" + b"0" * (size - 9), content_type=content_type)


def test_the_verify_page_takes_a_pdf_up_to_its_limit(client, settings):
    settings.UPLOAD_MAX_SIZE = 1000
    response = client.post("/en/verify/", {"file": upload("protocol.pdf", 1000)})
    assert response.status_code == 200 and response.context["result"] is not None  # read and judged
    response = client.post("/en/verify/", {"file": upload("protocol.pdf", 1001)})
    assert response.status_code == 200 and response.context["result"] is None
    assert "The file is too large: at most 1000\xa0bytes." in text(response)


def test_a_body_past_the_verify_pages_limit_is_a_413_and_not_read(client, settings):
    settings.UPLOAD_MAX_SIZE = 1000
    response = client.post("/en/verify/", {"file": upload("protocol.pdf", 1000 + MULTIPART_ALLOWANCE + 1)})
    assert response.status_code == 413
    assert "The file is too large: at most 1000\xa0bytes." in text(response)
    # A body that says it is larger than it is: reading past what it holds would fail the test client.
    response = client.generic("POST", "/en/verify/", b"x", content_type="multipart/form-data; boundary=B",
                              CONTENT_LENGTH=str(10 ** 10))
    assert response.status_code == 413


def test_the_signing_page_takes_a_pkcs12_file_of_1_mb_at_most(client, organiser):
    cup = tournament(organiser)
    url = f"/en/tournaments/{cup.slug}/manage/signing/"
    file = upload("key.p12", signing.MAX_PKCS12_SIZE + MULTIPART_ALLOWANCE + 1, "application/x-pkcs12")
    response = client.post(url, {"action": "upload", "passphrase": "пароль", "file": file})
    assert response.status_code == 413 and "The file is too large: at most 1.0\xa0MB." in text(response)
    file = upload("key.p12", signing.MAX_PKCS12_SIZE + 1, "application/x-pkcs12")  # read: the service refuses
    response = client.post(url, {"action": "upload", "passphrase": "пароль", "file": file}, follow=True)
    assert "A PKCS#12 file is at most 1 MB." in text(response)


def test_the_csv_pages_upload_is_bounded_by_the_imports_size(client, organiser, settings):
    cup = tournament(organiser)
    url = f"/en/tournaments/{cup.slug}/manage/import/"
    data = CSV.encode()
    settings.CSV_IMPORT_MAX_SIZE = len(data) - 1  # the service refuses the file, named on the form
    response = client.post(url, {"file": SimpleUploadedFile("pairs.csv", data, content_type="text/csv")})
    assert response.status_code == 200
    assert f"The file is too large: at most {len(data) - 1}\xa0bytes." in text(response)
    big = SimpleUploadedFile("pairs.csv", data * (MULTIPART_ALLOWANCE // len(data) + 1), content_type="text/csv")
    response = client.post(url, {"file": big})  # past the page's limit: not read
    assert response.status_code == 413
    settings.CSV_IMPORT_MAX_SIZE = len(data)
    response = client.post(url, {"file": SimpleUploadedFile("pairs.csv", data, content_type="text/csv")}, follow=True)
    assert "1 pair imported." in text(response) and Pair.objects.filter(tournament=cup).count() == 1


def test_the_csv_apis_body_is_bounded_by_the_imports_size_and_the_site_limit(organiser, settings):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(organiser)
    cup = tournament(organiser)
    url = f"/api/tournaments/{cup.slug}/pairs/import/"
    settings.CSV_IMPORT_MAX_SIZE = 100
    body = b"x" * (100 + MULTIPART_ALLOWANCE + 1)
    response = api.generic("POST", url, body, content_type="text/csv")
    assert response.status_code == 413 and response.json() == {"detail": "The file is too large: at most 100\xa0bytes."}
    settings.CSV_IMPORT_MAX_SIZE, settings.UPLOAD_MAX_SIZE = 10 ** 9, 100  # the site's limit caps every page's
    response = api.generic("POST", url, body, content_type="text/csv")
    assert response.status_code == 413 and response.json() == {"detail": "The file is too large: at most 100\xa0bytes."}


@pytest.mark.parametrize("code", ["ABC/DEF", "../../admin", "ЁЖИК", "A" * 11, "%00"])
def test_a_code_that_is_no_code_is_told_so(client, code):
    response = client.post("/en/verify/", {"code": code})
    assert response.status_code == 200
    assert "A document&#x27;s code is 10 letters and digits, as printed under its QR code." in text(response)


def test_a_code_is_looked_up(client):
    response = client.post("/en/verify/", {"code": "abcd-efgh-jk"})
    assert response.status_code == 302 and response["Location"] == "/en/v/ABCDEFGHJK/"
