"""Check a protocol PDF offline, as the verification page does: ``manage.py verify_protocol FILE.pdf``."""

import json
import sys
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from scoring.protocols import verification

#: Exit status by verdict: 0 only for a genuine, current document.
EXIT = {verification.Status.GENUINE: 0, verification.Status.GENUINE_OUTDATED: 2}


class Command(BaseCommand):
    help = ("Check whether a protocol PDF is genuine (issued by this system, unchanged), outdated, tampered, "
            "signed by another key, or unknown. Exit status: 0 genuine, 2 genuine but outdated, 1 otherwise.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="the PDF file, or - for standard input")
        parser.add_argument("--json", action="store_true", help="print the verdict as JSON")

    def handle(self, *args, **options):
        name = options["file"]
        try:
            data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {name}: {error.strerror}") from None
        with translation.override("en"):
            try:
                result = verification.verify_pdf(data)
            except ValidationError as error:
                raise CommandError(" ".join(error.messages)) from None
            if options["json"]:
                self.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False, indent=2, default=str))
            else:
                self._print(result)
        status = EXIT.get(result.status, 1)
        if status:
            sys.exit(status)

    def _print(self, result):
        write = self.stdout.write
        write(f"{result.status.upper()}: {result.message}")
        for detail in result.details:
            write(f"  {detail}")
        write(f"  SHA-256 of the file: {result.sha256}")
        document = result.document
        if document is not None:
            s = document.summary
            write(f"  document {document.code}: {document.get_kind_display()} of {s.get('tournament', '')}, "
                  f"issued {document.created_at:%Y-%m-%d %H:%M} UTC, version {document.version}")
            if document.kind == "partition":
                pairs = s.get("pairs", {})
                points = s.get("points", ["", ""])
                write(f"  tour {s.get('tour')}, table {s.get('table')}: "
                      f"A {', '.join(pairs.get('A', []))} {points[0]} : {points[1]} B {', '.join(pairs.get('B', []))}; "
                      f"winner {s.get('winner') or '-'} ({s.get('reason') or '-'}); "
                      f"confirmed by all: {'yes' if s.get('confirmed') else 'no'}")
                for c in s.get("confirmations", []):
                    who = "referee" if c["seat"] == 0 else f"seat {c['seat']}"
                    write(f"    confirmed: {who} {c['name']} at {c['at']} ({c['method']})")
        if result.state is not None and result.state.newest is not None:
            write(f"  the current document is {result.state.newest.code}")
        if result.signature is not None:
            sig = result.signature
            write(f"  signed by: {sig.subject} (certificate SHA-256 {sig.fingerprint})"
                  f"{', at ' + sig.signed_at.isoformat() if sig.signed_at else ''}")
