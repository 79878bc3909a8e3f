"""Signing keys of tournaments, PAdES signatures on protocol PDFs, and their validation.

Every tournament signs its protocols with a key of its own (:class:`~scoring.models.SigningKey`):

- on first use the system creates an EC P-256 key and a self-signed certificate naming the
  tournament and its organiser (:func:`current_key`);
- an organiser can load his own certificate and key from a PKCS#12 file (:func:`load_pkcs12`);
  the previous key is retired, and the documents it signed stay genuine.

The private key is stored as encrypted PKCS#8, with a password derived from ``SECRET_KEY``, so
that every web and worker process that shares the database and the secret can sign; a database
copy alone cannot.

:func:`sign_pdf` signs with pyHanko as PAdES (SubFilter ``ETSI.CAdES.detached``, field
``Protocol``); :func:`inspect_signatures` validates the signatures of a PDF with the
tournament's certificate as the only trust root, reading the file in a child process under
limits (:mod:`.pdfcheck`).
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import io
import json
import logging
import re
import subprocess
import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import cast

from asn1crypto import keys as asn1_keys
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.sign import fields, signers
from pyhanko_certvalidator.registry import SimpleCertificateStore

from tournaments.models import Tournament
from tournaments.names import person_name
from tournaments.permissions import require_manage

from scoring.models import SigningKey

from scoring.protocols import pdfcheck
from tournaments.permissions import AnyUser

log = logging.getLogger(__name__)

FIELD_NAME = "Protocol"
#: The signature's /Reason names the document's code in plain ASCII, so that even a damaged file
#: that no reader can open still says which issued document it claims to be.
REASON_PREFIX = "domino-protocol"
# pyHanko writes the hyphen escaped (\055).
REASON_RE = re.compile(rb"\(domino(?:-|\\055)protocol ([0-9A-Z]{6,16})\)")
MAX_PKCS12_SIZE = 1024 * 1024
CERTIFICATE_YEARS = 10
# Signers with their decrypted keys, per process: decrypting PKCS#8 costs a key derivation.
_SIGNERS: OrderedDict[tuple[int, str], signers.SimpleSigner] = OrderedDict()
_SIGNERS_LOCK = threading.Lock()
_SIGNERS_MAX = 32


def _password() -> bytes:
    """The password of the stored private keys, derived from SECRET_KEY."""
    return hashlib.sha256(b"domino signing keys\0" + settings.SECRET_KEY.encode()).hexdigest().encode()


def fingerprint(certificate: x509.Certificate) -> str:
    return certificate.fingerprint(hashes.SHA256()).hex()


def _subject_text(certificate: x509.Certificate) -> str:
    parts = []
    for oid, label in ((NameOID.COMMON_NAME, "CN"), (NameOID.ORGANIZATION_NAME, "O"),
                       (NameOID.ORGANIZATIONAL_UNIT_NAME, "OU"), (NameOID.COUNTRY_NAME, "C")):
        for attribute in certificate.subject.get_attributes_for_oid(oid):
            # A str for these attributes (bytes only for an X500UniqueIdentifier).
            parts.append(f"{label}={cast(str, attribute.value)}")
    return ", ".join(parts) or certificate.subject.rfc4514_string()


def _store_key(tournament: Tournament, user: AnyUser | None, source: str, key, certificate: x509.Certificate,
               chain: list[x509.Certificate]) -> SigningKey:
    """Retire the tournament's current key and make this one current (inside a transaction)."""
    now = timezone.now()
    fp = fingerprint(certificate)
    SigningKey.objects.filter(tournament=tournament, retired_at__isnull=True).exclude(fingerprint=fp).update(
        retired_at=now)
    encrypted = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
                                  serialization.BestAvailableEncryption(_password()))
    existing = SigningKey.objects.filter(tournament=tournament, fingerprint=fp).first()
    if existing is not None:  # the same certificate loaded again: it is current again
        existing.retired_at = None
        existing.private_key = encrypted
        existing.save(update_fields=["retired_at", "private_key"])
        return existing
    return SigningKey.objects.create(
        tournament=tournament, source=source, private_key=encrypted, fingerprint=fp,
        certificate=certificate.public_bytes(serialization.Encoding.PEM).decode(),
        chain="".join(c.public_bytes(serialization.Encoding.PEM).decode() for c in chain),
        subject=_subject_text(certificate)[:500], not_before=certificate.not_valid_before_utc,
        not_after=certificate.not_valid_after_utc, created_by=user if user and user.is_authenticated else None)


#: X.509 caps a name attribute at 64 bytes of UTF-8 (RFC 5280 ub-name, as ``cryptography``
#: enforces it): a Cyrillic name reaches it at 32 letters.
NAME_BYTES = 64


def name_attribute(text: str) -> str:
    """``text`` cut to fit a certificate's name attribute: at most 64 bytes of UTF-8, cut on a
    character boundary with an ellipsis."""
    text = " ".join(text.split()) or "-"
    if len(text.encode()) <= NAME_BYTES:
        return text
    cut = text.encode()[:NAME_BYTES - len("…".encode())].decode(errors="ignore").rstrip()
    return cut + "…"


def _self_signed(tournament: Tournament) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    key = ec.generate_private_key(ec.SECP256R1())
    organiser = tournament.created_by
    organiser_name = person_name(organiser)
    attributes = [x509.NameAttribute(NameOID.COMMON_NAME, name_attribute(tournament.name)),
                  x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, "Protocols")]
    if organiser_name:
        attributes.append(x509.NameAttribute(NameOID.ORGANIZATION_NAME, name_attribute(organiser_name)))
    name = x509.Name(attributes)
    now = timezone.now()
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=365 * CERTIFICATE_YEARS))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=True, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                     crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256()))
    return key, certificate


def current_key(tournament: Tournament, *, create: bool = True) -> SigningKey | None:
    """The tournament's current signing key; created (self-signed) on first use."""
    key = SigningKey.objects.filter(tournament=tournament, retired_at__isnull=True).first()
    if key is not None or not create:
        return key
    private, certificate = _self_signed(tournament)
    try:
        with transaction.atomic():
            # Two processes on their first document at once: the constraint keeps one key.
            Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
            key = SigningKey.objects.filter(tournament=tournament, retired_at__isnull=True).first()
            if key is None:
                key = _store_key(tournament, None, SigningKey.Source.GENERATED, private, certificate, [])
    except IntegrityError:
        key = SigningKey.objects.get(tournament=tournament, retired_at__isnull=True)
    return key


def load_pkcs12(user: AnyUser, tournament: Tournament, data: bytes, passphrase: str = "") -> SigningKey:
    """An organiser loads his own certificate and private key (a PKCS#12 file, ``.p12``/``.pfx``)
    as the tournament's signing key; the current key is retired. Refused with the reason when the
    file cannot be opened, holds no key or no certificate, the two do not match, the key is of a
    kind or size PDF readers do not accept, or the certificate is not valid now or not for
    signing."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        require_manage(user, tournament)
        if not data:
            raise ValidationError(_("Choose a PKCS#12 file (.p12 or .pfx)."))
        if len(data) > MAX_PKCS12_SIZE:
            raise ValidationError(_("A PKCS#12 file is at most 1 MB."))
        try:
            key, certificate, extra = pkcs12.load_key_and_certificates(data, (passphrase or "").encode() or None)
        except (ValueError, TypeError):
            raise ValidationError(_("The file cannot be opened: the passphrase is wrong, or it is not a PKCS#12 "
                                    "file (.p12, .pfx).")) from None
        if key is None:
            raise ValidationError(_("The file holds no private key: export the certificate together with its key."))
        if certificate is None:
            raise ValidationError(_("The file holds no certificate."))
        if isinstance(key, rsa.RSAPrivateKey):
            if key.key_size < 2048:
                raise ValidationError(_("The RSA key has %(bits)s bits: at least 2048 are needed.")
                                      % {"bits": key.key_size})
        elif isinstance(key, ec.EllipticCurvePrivateKey):
            if key.curve.name not in ("secp256r1", "secp384r1", "secp521r1"):
                raise ValidationError(_("The elliptic curve %(curve)s is not accepted: use P-256, P-384 or P-521.")
                                      % {"curve": key.curve.name})
        else:
            raise ValidationError(_("The key must be an RSA or an elliptic-curve (ECDSA) key."))
        public = serialization.PublicFormat.SubjectPublicKeyInfo
        if (key.public_key().public_bytes(serialization.Encoding.DER, public)
                != certificate.public_key().public_bytes(serialization.Encoding.DER, public)):
            raise ValidationError(_("The private key does not belong to the certificate."))
        now = timezone.now()
        if not certificate.not_valid_before_utc <= now <= certificate.not_valid_after_utc:
            raise ValidationError(_("The certificate is valid from %(start)s to %(end)s, not now.") % {
                "start": certificate.not_valid_before_utc.date(), "end": certificate.not_valid_after_utc.date()})
        try:
            usage = certificate.extensions.get_extension_for_class(x509.KeyUsage).value
        except x509.ExtensionNotFound:
            usage = None
        if usage is not None and not (usage.digital_signature or usage.content_commitment):
            raise ValidationError(_("The certificate is not for signing (its key usage allows neither digital "
                                    "signature nor non-repudiation)."))
        return _store_key(tournament, user, SigningKey.Source.UPLOADED, key, certificate, list(extra or []))


def certificate_of(key: SigningKey) -> x509.Certificate:
    return x509.load_pem_x509_certificate(key.certificate.encode())


def _asn1_certificate(certificate: x509.Certificate) -> asn1_x509.Certificate:
    return asn1_x509.Certificate.load(certificate.public_bytes(serialization.Encoding.DER))


def _signer(key: SigningKey) -> signers.SimpleSigner:
    cache_key = (key.pk, key.fingerprint)
    with _SIGNERS_LOCK:
        signer = _SIGNERS.get(cache_key)
        if signer is not None:
            _SIGNERS.move_to_end(cache_key)
            return signer
    private = serialization.load_der_private_key(bytes(key.private_key), _password())
    der = private.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    chain = [_asn1_certificate(c) for c in x509.load_pem_x509_certificates(key.chain.encode())] if key.chain else []
    signer = signers.SimpleSigner(signing_cert=_asn1_certificate(certificate_of(key)),
                                  signing_key=asn1_keys.PrivateKeyInfo.load(der),
                                  cert_registry=SimpleCertificateStore.from_certs(chain))
    with _SIGNERS_LOCK:
        _SIGNERS[cache_key] = signer
        while len(_SIGNERS) > _SIGNERS_MAX:
            _SIGNERS.popitem(last=False)
    return signer


def sign_pdf(pdf: bytes, key: SigningKey, *, code: str, location: str = "", name: str = "") -> bytes:
    """``pdf`` signed (PAdES B-B) with ``key``; the signature's reason names the document ``code``."""
    metadata = signers.PdfSignatureMetadata(
        field_name=FIELD_NAME, subfilter=fields.SigSeedSubFilter.PADES, md_algorithm="sha256",
        reason=f"{REASON_PREFIX} {code}", location=location or None, name=name or None)
    out = signers.PdfSigner(metadata, signer=_signer(key)).sign_pdf(IncrementalPdfFileWriter(io.BytesIO(pdf)))
    return out.getvalue()


def claimed_code(pdf: bytes) -> str | None:
    """The document code a file's signature names, read from its bytes (works on damaged files)."""
    match = REASON_RE.search(pdf)
    return match.group(1).decode() if match else None


@dataclass
class SignatureCheck:
    """One signature of a PDF as this system sees it."""

    field_name: str
    fingerprint: str
    subject: str
    key: SigningKey | None  # the tournament key that made it, when it is one of ours
    intact: bool = False  # the signed bytes are unchanged
    valid: bool = False  # the cryptographic signature is correct
    trusted: bool = False  # the certificate chains to the key's certificate
    covers_whole_file: bool = False  # nothing was added after signing
    signed_at: datetime.datetime | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.intact and self.valid and self.trusted and self.covers_whole_file


@dataclass
class SignatureReport:
    readable: bool
    signatures: list[SignatureCheck] = field(default_factory=list)
    error: str = ""


def _known_keys(fingerprints: list[str]) -> dict[str, list[SigningKey]]:
    found: dict[str, list[SigningKey]] = {}
    for key in SigningKey.objects.filter(fingerprint__in=fingerprints).select_related("tournament"):
        found.setdefault(key.fingerprint, []).append(key)
    return found


class Unverifiable(ValidationError):
    """A file that could not be checked: it declares more than it can hold, or reading it went
    past the child's limits (code ``limits``), or every verification slot stayed busy (``busy``)."""


def _unverifiable() -> Unverifiable:
    return Unverifiable(_("This file could not be verified: too large or malformed."), code="limits")


# Children reading PDFs at once in this process: each may take VERIFY_MEMORY_MB, and a crowd of
# uploads must not take every core and the memory.
_CHILDREN = threading.BoundedSemaphore(settings.VERIFY_CONCURRENCY)


def _read_in_child(pdf: bytes) -> dict:
    """pyHanko's reading of ``pdf`` (:func:`pdfcheck.inspect`), in a child process under the
    CPU, memory and wall-time limits of the settings."""
    problem = pdfcheck.declared_sizes_problem(pdf)
    if problem is not None:
        log.info("PDF refused before parsing: %s", problem)
        raise _unverifiable()
    if not _CHILDREN.acquire(timeout=settings.VERIFY_SECONDS):
        raise Unverifiable(_("Too many files are being verified right now: try again in a minute."), code="busy")
    try:
        done = subprocess.run(
            [sys.executable, "-I", pdfcheck.__file__, str(settings.VERIFY_CPU_SECONDS),
             str(settings.VERIFY_MEMORY_MB * 1024 * 1024)],
            input=pdf, capture_output=True, timeout=settings.VERIFY_SECONDS, check=False)
    except subprocess.TimeoutExpired:  # run() has killed the child
        log.warning("PDF verification over %s s: killed", settings.VERIFY_SECONDS)
        raise _unverifiable() from None
    finally:
        _CHILDREN.release()
    try:
        if done.returncode != 0:
            raise ValueError(f"exit status {done.returncode}")
        return json.loads(done.stdout)
    except ValueError as error:
        log.warning("PDF verification failed (%s): %s", error, done.stderr[-500:].decode(errors="replace"))
        raise _unverifiable() from None


def inspect_signatures(pdf: bytes, *, tournament_id: int | None = None) -> SignatureReport:
    """Read and validate every signature of ``pdf``. A signature by one of the system's keys is
    validated with that key's certificate as the only trust root (no network, no system trust
    store); ``tournament_id`` prefers that tournament's key when several share a certificate.
    The file is read in a child process under limits (:mod:`.pdfcheck`); :class:`Unverifiable`
    when it declares more than it can hold or goes past them."""
    if b"%PDF-" not in pdf[:1024]:  # where readers look for the header
        return SignatureReport(readable=False, error="not a PDF")
    found = _read_in_child(pdf)
    if not found["readable"]:
        return SignatureReport(readable=False, error=found["error"])
    certificates = [base64.b64decode(sig["certificate"]) for sig in found["signatures"]]
    known = _known_keys([hashlib.sha256(der).hexdigest() for der in certificates])
    checks: list[SignatureCheck] = []
    for sig, der in zip(found["signatures"], certificates):
        fp = hashlib.sha256(der).hexdigest()
        keys = known.get(fp, [])
        key = next((k for k in keys if k.tournament_id == tournament_id), keys[0] if keys else None)
        check = SignatureCheck(field_name=sig["field_name"], fingerprint=fp, subject=sig["subject"], key=key,
                               signed_at=datetime.datetime.fromisoformat(sig["signed_at"]) if sig["signed_at"]
                               else None)
        if key is not None:  # the child's verdicts hold: the signature's certificate is the key's
            check.intact, check.valid, check.trusted = sig["intact"], sig["valid"], sig["trusted"]
            check.covers_whole_file = sig["covers_whole_file"]
            check.problems = sig["problems"]
        checks.append(check)
    return SignatureReport(readable=True, signatures=checks)
