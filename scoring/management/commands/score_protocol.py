"""``manage.py score_protocol PATH``: score a partition protocol (domino-protocol/1).

Prints the output document and exits 0, or prints the error naming the deal, move or key and
exits 1. ``PATH`` may be ``-`` for standard input.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from scoring.engine import RulesError, score_protocol


class Command(BaseCommand):
    help = "Score a partition protocol in the domino-protocol/1 format and print the result as JSON."

    def add_arguments(self, parser):
        parser.add_argument("path", help="protocol file, or - for standard input")

    def handle(self, *args, path: str, **options):
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as file:
                    text = file.read()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as error:
            raise CommandError(f"not JSON: line {error.lineno}, column {error.colno}: {error.msg}") from None
        try:
            result = score_protocol(doc)
        except RulesError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))
