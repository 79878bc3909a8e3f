"""Reading an uploaded PDF's signatures without letting the file take the site down.

A PDF can declare far more than it holds (a cross-reference stream of a million entries in a
kilobyte) or hold a compressed stream that inflates to gigabytes. Two defences:

- :func:`declared_sizes_problem`, in the web process, reads the numbers the file declares (object
  counts, cross-reference widths, stream lengths) from its raw bytes before anything parses it,
  and refuses a file whose declarations its own length cannot hold;
- the parsing and validation run in a child process (:func:`main`, started by
  :func:`scoring.protocols.signing.inspect_signatures` as ``python -I pdfcheck.py``) that lowers
  its own CPU and memory limits before it imports pyHanko, and decodes at most
  :data:`DECODED_PER_FILE` of streams (pyHanko's decode limits: a flate bomb stops there); the
  parent kills it past its wall time.

This module imports nothing from Django or the project, so that the child starts in a fraction
of a second. The child validates each signature with the signature's own certificate as the only
trust root, without the network; the parent keeps the verdict only for a certificate that is one
of the system's keys, which is the same as validating with that key's certificate.
"""

from __future__ import annotations

import base64
import json
import re
import sys

#: The most objects a PDF may declare, whatever its size: the largest document the system issues
#: has a few thousand (README, Protocols); a million costs pyHanko seconds and hundreds of MB.
MAX_OBJECTS = 100_000
#: The least bytes an object takes in a file (compressed in an object stream, with its entry in a
#: compressed cross-reference stream): a file declaring more objects than this allows lies.
BYTES_PER_OBJECT = 8
#: Past this many bytes per entry a cross-reference stream's field widths (/W) are nonsense.
MAX_XREF_WIDTH = 8
#: The most bytes the child decodes from a file's streams (xref and object streams, certificates),
#: at least; or this many times the file's size. The system's documents decode to a few times
#: their size; pyHanko's own default is 256 MiB, as much as the child's memory.
DECODED_PER_FILE = 32 * 1024 * 1024
DECODED_RATIO = 20
#: A child's exit status when it ran out of memory or decoding past its limits.
EXIT_LIMITS = 3

_NUMBER = rb"(\d{1,20})"
_SIZE_RE = re.compile(rb"/(?:Size|Count|N)\s+" + _NUMBER)
_W_RE = re.compile(rb"/W\s*\[\s*" + _NUMBER + rb"\s+" + _NUMBER + rb"\s+" + _NUMBER + rb"\s*\]")
_INDEX_RE = re.compile(rb"/Index\s*\[([\d\s]{0,4000})\]")
_LENGTH_RE = re.compile(rb"/Length\s+" + _NUMBER + rb"(\s+\d{1,10}\s+R)?")
_OBJECT_RE = re.compile(_NUMBER + rb"\s+\d{1,10}\s+obj\b")


def max_objects(size: int) -> int:
    """The most objects a PDF of ``size`` bytes may declare."""
    return min(MAX_OBJECTS, 1000 + size // BYTES_PER_OBJECT)


def declared_sizes_problem(data: bytes) -> str | None:
    """What a PDF declares that its length cannot hold (in English, for the log), or None.

    Read from the raw bytes with patterns of bounded length, so it costs a few milliseconds a
    megabyte whatever the file says: every /Size, /Count and /N (objects in the file, pages, objects
    in an object stream) and every object number within :func:`max_objects`; a cross-reference
    stream's /W widths within :data:`MAX_XREF_WIDTH` and its /Index counts within the objects; a
    direct /Length within the file."""
    limit = max_objects(len(data))
    for match in _SIZE_RE.finditer(data):
        if int(match.group(1)) > limit:
            return f"{match.group(0)[:40]!r} declares more than the {limit} objects a file of {len(data)} bytes holds"
    for match in _OBJECT_RE.finditer(data):
        if int(match.group(1)) > limit:
            return f"object number {int(match.group(1))} is beyond the {limit} objects of a file of {len(data)} bytes"
    for match in _W_RE.finditer(data):
        if any(int(width) > MAX_XREF_WIDTH for width in match.groups()):
            return f"cross-reference field widths {match.group(0)[:60]!r}"
    for match in _INDEX_RE.finditer(data):
        numbers = [int(n) for n in match.group(1).split()]
        if len(numbers) % 2 or any(start + count > limit for start, count in zip(numbers[::2], numbers[1::2])):
            return f"cross-reference subsections {match.group(0)[:60]!r} beyond the {limit} objects"
    for match in _LENGTH_RE.finditer(data):
        if match.group(2) is None and int(match.group(1)) > len(data):
            return f"a stream of {int(match.group(1))} bytes in a file of {len(data)}"
    return None


def _limit(cpu_seconds: int, memory_bytes: int) -> None:
    """Lower this process's limits (only a lower limit can be set without privileges): CPU time
    (SIGXCPU, then SIGKILL a second later), address space (a MemoryError), no files written,
    no core dump."""
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def inspect(pdf: bytes) -> dict:
    """Every signature of ``pdf``: its certificate (DER, base64), field, subject, self-reported
    time, and the verdicts of pyHanko validating it against its own certificate."""
    import io

    from pyhanko.pdf_utils.decode_limits import DecodeLimits, DocumentDecodeBudget
    from pyhanko.pdf_utils.misc import PdfDecodeLimitError
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.general import SigningError
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko.sign.validation.settings import KeyUsageConstraints
    from pyhanko.sign.validation.status import SignatureCoverageLevel
    from pyhanko_certvalidator import ValidationContext

    try:
        limits = DecodeLimits(document_budget=DocumentDecodeBudget(DECODED_PER_FILE, DECODED_RATIO))
        reader = PdfFileReader(io.BytesIO(pdf), strict=False, decode_limits=limits)
        certificates = [(sig, sig.signer_cert) for sig in reader.embedded_signatures]
    except (MemoryError, PdfDecodeLimitError):
        raise
    except Exception as error:  # noqa: BLE001 - any damage makes the file unreadable to us
        return {"readable": False, "error": str(error)[:300], "signatures": []}
    signatures = []
    for sig, certificate in certificates:
        found: dict = {"field_name": sig.field_name, "certificate": base64.b64encode(certificate.dump()).decode(),
                       "subject": certificate.subject.human_friendly, "signed_at": None, "intact": False,
                       "valid": False, "trusted": False, "covers_whole_file": False, "problems": []}
        try:
            signed_at = sig.self_reported_timestamp
            found["signed_at"] = signed_at.isoformat() if signed_at else None
        except Exception:  # noqa: BLE001
            pass
        context = ValidationContext(trust_roots=[certificate], allow_fetching=False, revocation_mode="soft-fail")
        try:
            status = validate_pdf_signature(sig, context, key_usage_settings=KeyUsageConstraints(
                key_usage={"digital_signature", "non_repudiation"}, match_all_key_usages=False))
            found.update(intact=status.intact, valid=status.valid, trusted=status.trusted,
                         covers_whole_file=status.coverage == SignatureCoverageLevel.ENTIRE_FILE)
        except (MemoryError, PdfDecodeLimitError):
            raise
        except (SigningError, ValueError, KeyError, TypeError) as error:
            found["problems"].append(str(error)[:300])
        except Exception as error:  # noqa: BLE001 - a damaged signature value, a broken CMS...
            found["problems"].append(str(error)[:300])
        signatures.append(found)
    return {"readable": True, "error": "", "signatures": signatures}


def main() -> None:
    """The child: ``pdfcheck.py CPU_SECONDS MEMORY_BYTES``, the PDF on standard input, the
    report as JSON on standard output."""
    _limit(int(sys.argv[1]), int(sys.argv[2]))
    from pyhanko.pdf_utils.misc import PdfDecodeLimitError

    try:
        report = inspect(sys.stdin.buffer.read())
    except (MemoryError, PdfDecodeLimitError):
        sys.exit(EXIT_LIMITS)
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
