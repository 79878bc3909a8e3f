"""``manage.py score_protocol PATH``: score a partition protocol (domino-protocol/1), or the
protocol file of a Goat, Sea Goat or points table (domino-sitting/1: each of its games).

Prints the output document and exits 0, or prints the error naming the game, deal, move or key
and exits 1. ``PATH`` may be ``-`` for standard input.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from scoring.engine import RulesError, score_protocol
from scoring.recording.formats import SITTING_FORMAT


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
        if isinstance(doc, dict) and doc.get("format") == SITTING_FORMAT:
            games = doc.get("games")
            if not isinstance(games, list) or set(doc) != {"format", "games"}:
                raise CommandError(f"a {SITTING_FORMAT} file has the keys format and games (a list) only")
            result = {"format": SITTING_FORMAT, "games": [self.score(game, f"game {n}: ")
                                                          for n, game in enumerate(games, 1)]}
        else:
            result = self.score(doc)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))

    @staticmethod
    def score(doc, where: str = ""):
        try:
            return score_protocol(doc)
        except RulesError as error:
            raise CommandError(where + str(error)) from None
