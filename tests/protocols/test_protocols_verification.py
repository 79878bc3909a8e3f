"""Verification of protocol PDFs: genuine, outdated, tampered, signed by another key, unknown; by
upload, by code and by the command; and the tournament's own signing key (PKCS#12)."""

import datetime
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command
from django.urls import reverse

from scoring import protocols
from scoring.protocols import signing
from scoring.models import SigningKey

from protocols_world import BASE_URL, other_key_certificate, pdf_of, play_short, sign_with

pytestmark = pytest.mark.django_db


@pytest.fixture
def issued(world):
    p = play_short(world["ref"], world["p1"].pk)
    document = protocols.issue_partition_protocol(world["org"], p.pk, base_url=BASE_URL)
    return document, pdf_of(document)


def command(path) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("verify_protocol", str(path), stdout=out)
    except SystemExit as exit:
        return int(exit.code), out.getvalue()
    return 0, out.getvalue()


def test_a_file_signed_by_another_key_is_reported_as_such(world, issued, tmp_path, client):
    document, data = issued
    key, certificate = other_key_certificate("Кубок клуба")  # even with the same name
    fresh = protocols.rendering.render_pdf("<p>Протокол партии</p>")
    forged = sign_with(fresh, key, certificate)
    result = protocols.verify_pdf(forged)
    assert result.status == "other_key" and "Кубок клуба" in result.signature.subject
    path = tmp_path / "forged.pdf"
    path.write_bytes(forged)
    status, out = command(path)
    assert status == 1 and out.startswith("OTHER_KEY")
    with path.open("rb") as f:
        assert client.post(reverse("protocol-verify"), {"file": f}).context["result"].status == "other_key"
    # A genuine file signed again by another key was changed after it was issued.
    resigned = protocols.verify_pdf(sign_with(data, key, certificate))
    assert resigned.status == "tampered" and resigned.document.pk == document.pk


def test_unknown_and_damaged_files(issued):
    document, data = issued
    assert protocols.verify_pdf(protocols.rendering.render_pdf("<p>Просто PDF</p>")).status == "unknown_document"
    assert protocols.verify_pdf(b"not a pdf at all").status == "unknown_document"
    truncated = protocols.verify_pdf(data[:-100])  # the end cut off
    assert truncated.status == "tampered" and truncated.document.pk == document.pk  # it still names its code
    appended = protocols.verify_pdf(data + b"\n% one more line\n")
    assert appended.status == "tampered"


def test_the_short_link_of_the_qr_code(world, issued, client):
    document, _data = issued
    page = client.get(f"/v/{document.code}/")  # Russian, no prefix: what the QR code holds
    assert page.status_code == 200 and page.context["result"].status == "genuine"
    body = page.content.decode()
    assert document.code in body and document.sha256 in body and "Игрок1а" in body
    assert client.get(f"/en/verify/{document.code.lower()}/").context["result"].document.pk == document.pk
    assert client.get("/en/v/ZZZZZZZZZZ/").status_code == 404
    response = client.post("/en/verify/", {"code": document.code.lower()})
    assert response.status_code == 302 and response["Location"].endswith(f"/v/{document.code}/")
    pem = client.get(reverse("protocol-document-certificate", args=[document.code])).content.decode()
    assert pem.startswith("-----BEGIN CERTIFICATE-----") and pem == document.signing_key.certificate
    assert client.get(reverse("tournament-certificate", args=[world["tournament"].slug])).content.decode() == pem


def _pkcs12(passphrase: bytes, *, expired=False) -> tuple[bytes, x509.Certificate]:
    """An organiser's RSA certificate issued by a small CA of his own, as a PKCS#12 file."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = rsa.generate_private_key(65537, 2048)
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Федерация домино CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(1).not_valid_before(now - datetime.timedelta(days=2)).not_valid_after(now + datetime.timedelta(days=90))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True).sign(ca_key, hashes.SHA256()))
    key = rsa.generate_private_key(65537, 2048)
    start, end = (now - datetime.timedelta(days=10), now - datetime.timedelta(days=1)) if expired else (
        now - datetime.timedelta(days=1), now + datetime.timedelta(days=60))
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Оргкомитет Кубка")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(2).not_valid_before(start)
            .not_valid_after(end)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=True, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                         crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
            .sign(ca_key, hashes.SHA256()))
    data = pkcs12.serialize_key_and_certificates(b"organiser", key, cert, [ca],
                                                 serialization.BestAvailableEncryption(passphrase))
    return data, cert


def test_an_organiser_loads_his_own_certificate(world, issued, tmp_path):
    old_document, old_data = issued
    old_key = old_document.signing_key
    data, certificate = _pkcs12(b"secret")
    with pytest.raises(PermissionDenied):
        signing.load_pkcs12(world["ref"], world["tournament"], data, "secret")
    for bad, message in ((data, "passphrase is wrong"), (b"garbage", "passphrase is wrong"),
                         (_pkcs12(b"x", expired=True)[0], "not now")):
        with pytest.raises(ValidationError, match=message):
            signing.load_pkcs12(world["org"], world["tournament"], bad, "nope" if bad is data else "x")
    key = signing.load_pkcs12(world["org"], world["tournament"], data, "secret")
    assert key.source == "uploaded" and "Оргкомитет Кубка" in key.subject and key.chain.count("BEGIN") == 1
    assert SigningKey.objects.get(pk=old_key.pk).retired_at is not None
    # Documents signed with the earlier key stay genuine; new ones are signed with the new key.
    assert protocols.verify_pdf(old_data).status == "genuine"
    new_document = protocols.issue_partition_protocol(world["org"], world["p1"].pk, base_url=BASE_URL)
    assert new_document.pk != old_document.pk and new_document.signing_key_id == key.pk
    result = protocols.verify_pdf(pdf_of(new_document))
    assert result.status == "genuine" and result.signature.ok
    assert protocols.verify_pdf(old_data).status == "genuine_outdated"  # a newer document exists
    path, trust = tmp_path / "new.pdf", tmp_path / "organiser.pem"
    path.write_bytes(pdf_of(new_document))
    trust.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    validated = subprocess.run([str(Path(sys.executable).with_name("pyhanko")), "sign", "validate", "--trust",
                                str(trust), "--trust-replace", "--executive-summary", str(path)],
                               capture_output=True, text=True, timeout=120)
    assert validated.returncode == 0 and validated.stdout.strip().endswith(":VALID"), validated.stdout + validated.stderr


def test_the_key_is_created_once_and_kept_encrypted(world):
    from django.conf import settings

    key = signing.current_key(world["tournament"])
    assert signing.current_key(world["tournament"]).pk == key.pk
    assert key.source == "generated" and key.subject.startswith("CN=Кубок клуба")
    raw = bytes(key.private_key)
    with pytest.raises(TypeError):
        serialization.load_der_private_key(raw, None)  # encrypted: needs the password
    with pytest.raises(ValueError):
        serialization.load_der_private_key(raw, b"not the password")
    assert settings.SECRET_KEY.encode() not in raw
