"""Helpers of the protocol tests: play partitions through the recording services, confirm them as
the players would, read PDFs, sign with a key the system does not know."""

from __future__ import annotations

from scoring import protocols
from scoring.recording import commands

BASE_URL = "http://testserver"
PINS = {1: "1111", 2: "2222", 3: "3333", 4: "4444"}


def play_short(who, partition_id):
    """Two deals: A 60, then A 200 by fish, with a warning and a penalty on the way."""
    commands.record(who, partition_id, "lead", {"seat": 1})
    commands.record(who, partition_id, "violation", {"seat": 2, "code": "move_time"})
    commands.record(who, partition_id, "deal", {"end": "domino", "seat": 1, "pips": {"A": 20, "B": 40}})
    commands.record(who, partition_id, "penalty", {"seat": 4, "code": "signs"})
    return commands.record(who, partition_id, "deal", {"end": "fish", "pips": {"A": 10, "B": 105}})


def play_30_deals(who, partition_id):
    """Thirty deals: 28 alternate 12 points each way, a penalty each way (193:193), then B wins 5
    (198) and A 20 (213: A wins); one warning, a penalty from a repeated violation and a written
    penalty."""
    commands.record(who, partition_id, "lead", {"seat": 1})
    for n in range(1, 29):
        seat = 1 if n % 2 else 2  # pair A, then pair B
        commands.record(who, partition_id, "deal", {"end": "domino", "seat": seat, "pips": {"A": 5, "B": 7}})
        if n == 5:
            commands.record(who, partition_id, "violation", {"seat": 3, "code": "conduct"})
        if n == 9:
            commands.record(who, partition_id, "violation", {"seat": 3, "code": "conduct"})  # penalty: B +25
        if n == 12:
            commands.record(who, partition_id, "penalty", {"seat": 2, "code": "touched_tile"})  # A +25
    commands.record(who, partition_id, "deal", {"end": "domino", "seat": 2, "pips": {"A": 2, "B": 3}})  # B 198
    return commands.record(who, partition_id, "deal", {"end": "domino", "seat": 1, "pips": {"A": 0, "B": 20}})


def confirm_all(world, partition_id, *, base_url=BASE_URL):
    """The four players type their PINs on the referee's device, then the referee confirms."""
    for seat in (1, 2, 3, 4):
        protocols.confirm(world["ref"], partition_id, seat, pin=PINS[seat], base_url=base_url)
    return protocols.confirm(world["ref"], partition_id, 0, base_url=base_url)


def pdf_of(document) -> bytes:
    """The stored bytes of an issued document."""
    from scoring.models import ProtocolDocument

    return bytes(ProtocolDocument.objects.values_list("pdf", flat=True).get(pk=document.pk))


def pdf_text(data: bytes, tmp_path) -> str:
    """The text of a PDF as pdftotext (poppler-utils) reads it."""
    import subprocess

    path = tmp_path / "text.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout


def page_count(data: bytes) -> int:
    import io

    from pyhanko.pdf_utils.reader import PdfFileReader

    return int(PdfFileReader(io.BytesIO(data)).root["/Pages"]["/Count"])


def other_key_certificate(name: str = "Someone else"):
    """A fresh EC key and a self-signed certificate that this system does not know."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
                   .not_valid_after(now + datetime.timedelta(days=30))
                   .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=True, key_encipherment=False,
                                                data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                                crl_sign=False, encipher_only=False, decipher_only=False),
                                  critical=True)
                   .sign(key, hashes.SHA256()))
    return key, certificate


def sign_with(data: bytes, key, certificate) -> bytes:
    """``data`` signed (PAdES, incrementally) with a key this system does not know."""
    import io

    from asn1crypto import keys as asn1_keys
    from asn1crypto import x509 as asn1_x509
    from cryptography.hazmat.primitives import serialization
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import fields, signers

    signer = signers.SimpleSigner(
        signing_cert=asn1_x509.Certificate.load(certificate.public_bytes(serialization.Encoding.DER)),
        signing_key=asn1_keys.PrivateKeyInfo.load(key.private_bytes(
            serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())),
        cert_registry=None)
    meta = signers.PdfSignatureMetadata(field_name="Forgery", subfilter=fields.SigSeedSubFilter.PADES,
                                        md_algorithm="sha256")
    return signers.PdfSigner(meta, signer=signer).sign_pdf(IncrementalPdfFileWriter(io.BytesIO(data))).getvalue()


def pdfsig(data: bytes, tmp_path, name: str = "document.pdf") -> str:
    """What poppler's pdfsig (as a PDF reader) says of a file; asserts a valid signature over the
    whole document (only the self-signed issuer is unknown)."""
    import re
    import subprocess

    path = tmp_path / name
    path.write_bytes(data)
    out = subprocess.run(["pdfsig", str(path)], capture_output=True, text=True).stdout
    assert "Signature Field Name: Protocol" in out, out
    assert "Total document signed" in out, out
    assert "Signature Validation: Signature is Valid." in out, out
    assert re.search(r"Certificate Validation: Certificate issuer (is unknown|isn't Trusted)", out), out
    return out
