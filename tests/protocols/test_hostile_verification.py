"""The public verification page as a hostile visitor tries it: PDFs that declare more than they
hold, compression bombs, files over the limit, a flood from one address. Each is refused early
(before parsing, or by the child process's limits) with a clear message, never a 500 or a hang."""

import zlib
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.urls import reverse

from scoring import protocols
from scoring.models import VerificationCount
from scoring.protocols import pdfcheck, signing

from protocols_world import BASE_URL, pdf_of, play_short

pytestmark = pytest.mark.django_db

REFUSED = "This file could not be verified: too large or malformed."


def deflated(prefix: bytes, mebibytes: int) -> bytes:
    """``prefix`` then ``mebibytes`` MiB of zeros, deflated to about a thousandth: the same
    independent block repeated (each after a full flush), and the checksum of the whole."""
    compressor = zlib.compressobj(9)
    chunk = b"\0" * 2**20
    first = compressor.compress(prefix + chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    repeated = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    end = compressor.flush()[:-4]
    checksum = zlib.adler32(prefix)
    a, b = checksum & 0xFFFF, checksum >> 16
    b = (b + a * mebibytes * 2**20) % 65521
    return first + repeated * (mebibytes - 1) + end + ((b << 16) | a).to_bytes(4, "big")


def xref_stream_pdf(entries: bytes, size: int, widths: str = "1 1 0") -> bytes:
    """A catalog, its pages and a compressed cross-reference stream declaring ``size`` entries."""
    head = b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" \
           b"2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n"
    data = zlib.compress(entries, 9)
    xref = (b"3 0 obj\n<< /Type /XRef /Size %d /W [%s] /Root 1 0 R /Filter /FlateDecode /Length %d >>\nstream\n"
            % (size, widths.encode(), len(data)) + data + b"\nendstream\nendobj\n")
    return head + xref + b"startxref\n%d\n%%%%EOF\n" % len(head)


def million_entries() -> bytes:
    return xref_stream_pdf(b"\1\0" * 1_000_000, 1_000_000)


def object_stream_bomb(mebibytes: int) -> bytes:
    """The catalog alone in an object stream padded with ``mebibytes`` MiB of zeros, every size
    declared honestly."""
    head = b"%PDF-1.7\n"
    pages_at = len(head)
    pages = b"2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n"
    index = b"1 0 "
    stream = deflated(index + b"<< /Type /Catalog /Pages 2 0 R >> ", mebibytes)
    objects_at = pages_at + len(pages)
    objects = (b"4 0 obj\n<< /Type /ObjStm /N 1 /First %d /Filter /FlateDecode /Length %d >>\nstream\n"
               % (len(index), len(stream)) + stream + b"\nendstream\nendobj\n")
    xref_at = objects_at + len(objects)
    table = b"".join(bytes([kind]) + field.to_bytes(4, "big") + generation.to_bytes(2, "big")
                     for kind, field, generation in ((0, 0, 65535), (2, 4, 0), (1, pages_at, 0), (1, xref_at, 0),
                                                     (1, objects_at, 0)))
    xref = (b"3 0 obj\n<< /Type /XRef /Size 5 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n" % len(table)
            + table + b"\nendstream\nendobj\n")
    return head + pages + objects + xref + b"startxref\n%d\n%%%%EOF\n" % xref_at


@pytest.fixture
def issued(world):
    p = play_short(world["ref"], world["p1"].pk)
    document = protocols.issue_partition_protocol(world["org"], p.pk, base_url=BASE_URL)
    return document, pdf_of(document)


def verify_page(client, data: bytes, address: str = "203.0.113.5"):
    upload = SimpleUploadedFile("protocol.pdf", data, content_type="application/pdf")
    return client.post(reverse("protocol-verify"), {"file": upload}, REMOTE_ADDR=address)


def test_a_small_file_declaring_a_million_objects_is_refused_before_parsing(client, monkeypatch):
    data = million_entries()
    assert len(data) < 3000
    assert "1000000" in pdfcheck.declared_sizes_problem(data)
    started = []
    monkeypatch.setattr(signing.subprocess, "run", lambda *a, **k: started.append(a))  # no child is started
    with pytest.raises(signing.Unverifiable, match=REFUSED):
        protocols.verify_pdf(data)
    page = verify_page(client, data)
    assert page.status_code == 422 and REFUSED in page.content.decode() and page.context["result"] is None
    russian = client.post("/verify/", {"file": SimpleUploadedFile("p.pdf", data)}, REMOTE_ADDR="203.0.113.5")
    assert "Этот файл не удалось проверить: он слишком велик или повреждён." in russian.content.decode()
    assert started == []


@pytest.mark.parametrize("declaration", [
    b"/Type /Pages /Count 5000000",  # pages
    b"/Type /ObjStm /N 2000000 /First 10",  # objects in an object stream
    b"/Type /XRef /Size 10 /W [1 200 2]",  # cross-reference fields of 200 bytes
    b"/Type /XRef /Size 10 /Index [0 5 900000 10]",  # a subsection far past the objects
    b"/Filter /FlateDecode /Length 900000000",  # a stream longer than the file
    b"endobj\n7000000 0 obj",  # an object number no file of this size reaches
])
def test_declarations_the_file_cannot_hold(declaration):
    data = b"%PDF-1.7\n1 0 obj\n<< " + declaration + b" >>\nendobj\n%%EOF\n"
    assert pdfcheck.declared_sizes_problem(data) is not None
    with pytest.raises(signing.Unverifiable, match=REFUSED):
        protocols.verify_pdf(data)


def test_the_systems_own_documents_pass_the_checks(issued):
    document, data = issued
    assert pdfcheck.declared_sizes_problem(data) is None
    # An indirect length, a small /N or /Count are not taken for sizes of their own.
    assert pdfcheck.declared_sizes_problem(b"%PDF-1.7\n<< /Length 900000000 0 R /N 3 /Count 2 >>") is None
    assert protocols.verify_pdf(data).status == "genuine"


def test_a_compression_bomb_stops_at_the_decoding_limit(client):
    data = object_stream_bomb(1024)  # 1 MiB that inflates to 1 GiB
    assert pdfcheck.declared_sizes_problem(data) is None  # every size it declares is true
    with pytest.raises(signing.Unverifiable, match=REFUSED):
        protocols.verify_pdf(data)
    page = verify_page(client, data)
    assert page.status_code == 422 and REFUSED in page.content.decode()
    # The same file, small, is read: the limit is on what it inflates to.
    assert protocols.verify_pdf(object_stream_bomb(1)).status == "unknown_document"


@override_settings(VERIFY_CPU_SECONDS=1)
def test_a_child_over_its_cpu_time_is_killed(monkeypatch):
    # Past the checks (as a file whose declarations do not give it away), a million entries take
    # pyHanko many seconds of CPU: the child is killed at its limit.
    monkeypatch.setattr(pdfcheck, "declared_sizes_problem", lambda data: None)
    with pytest.raises(signing.Unverifiable, match=REFUSED):
        protocols.verify_pdf(million_entries())


def test_a_child_over_its_wall_time_is_killed(issued):
    document, data = issued
    with override_settings(VERIFY_SECONDS=0.001):  # not even time to start
        with pytest.raises(signing.Unverifiable, match=REFUSED):
            protocols.verify_pdf(data)
    assert protocols.verify_pdf(data).status == "genuine"


def test_the_command_says_why_a_file_is_not_judged(tmp_path):
    path = tmp_path / "bomb.pdf"
    path.write_bytes(million_entries())
    with pytest.raises(CommandError, match=REFUSED):
        call_command("verify_protocol", str(path), stdout=StringIO())


def test_a_file_over_the_limit(client, settings):
    limit = settings.UPLOAD_MAX_SIZE
    page = verify_page(client, b"%PDF-1.7\n" + b"0" * limit)  # just over: the page reads no more than the limit
    assert page.status_code == 200 and "The file is too large" in page.content.decode()
    assert page.context["result"] is None
    page = verify_page(client, b"%PDF-1.7\n" + b"0" * (limit + 100 * 1024))  # past the form's allowance: unread
    assert page.status_code == 413
    assert VerificationCount.objects.count() == 0  # neither was counted: neither was verified


@override_settings(VERIFY_PER_ADDRESS_PER_MINUTE=3)
def test_verifications_per_address_and_minute(client):
    for _ in range(3):
        page = verify_page(client, b"not a pdf")
        assert page.status_code == 200 and page.context["result"].status == "unknown_document"
    page = verify_page(client, b"not a pdf")
    assert page.status_code == 429 and page["Retry-After"] == "60" and page.context["result"] is None
    assert "Too many files verified from your address: at most 3 a minute" in page.content.decode()
    assert verify_page(client, b"not a pdf", address="198.51.100.7").status_code == 200  # another address
    # Typing a code (the QR code's link) is not counted: a hall behind one address checks its protocols.
    assert client.post(reverse("protocol-verify"), {"code": "ZZZZZZZZZZ"}, REMOTE_ADDR="203.0.113.5").status_code == 302
    # A minute later the address starts again; the past minutes are forgotten.
    for row in VerificationCount.objects.all():
        row.minute = row.minute.replace(year=row.minute.year - 1)
        row.save()
    assert verify_page(client, b"not a pdf").status_code == 200
    assert VerificationCount.objects.count() == 1


def test_every_child_busy(client, settings):
    taken = 0
    while signing._CHILDREN.acquire(blocking=False):
        taken += 1
    try:
        with override_settings(VERIFY_SECONDS=0.001):
            page = verify_page(client, b"%PDF-1.7\n%%EOF\n")
        assert page.status_code == 503 and page["Retry-After"] == "60"
        assert "Too many files are being verified right now" in page.content.decode()
    finally:
        for _ in range(taken):
            signing._CHILDREN.release()
    assert taken == settings.VERIFY_CONCURRENCY
