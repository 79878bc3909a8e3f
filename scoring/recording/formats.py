"""Reading what a referee or a file gives in the formats of a sitting: a Goat deal in summary form,
and a ``domino-sitting/1`` file (or one game's ``domino-protocol/1``) read whole under the table's
regulations."""

from __future__ import annotations

from typing import Any, Mapping, cast

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine.protocol import FORMAT as PROTOCOL_FORMAT
from scoring.recording.storage import check_deal_count, engine_error


#: The keys of a Goat deal in summary form (:func:`record_goat_deal`).
GOAT_DEAL_KEYS = frozenset({"end", "seat", "values", "lead", "zero_zero"})


#: The format of the protocol file of a table of sittings: its games, each a ``domino-protocol/1``
#: document.
SITTING_FORMAT = "domino-sitting/1"


def goat_deal_values(deal: Any, keys: frozenset[str] = GOAT_DEAL_KEYS) -> Any:
    """The hand values of a Goat deal in summary form (:func:`record_goat_deal`, and the referee's
    clock's :func:`scoring.live.play.clock_goat_result`), its keys checked; the engine checks
    what they say."""
    if not isinstance(deal, Mapping):
        raise ValidationError(_("A deal must be an object."))
    unknown = sorted(set(deal) - keys)
    if unknown:
        raise ValidationError(_("Unknown field: %(field)s.") % {"field": ", ".join(map(str, unknown))})
    values = deal.get("values", {})
    if not isinstance(values, Mapping):
        raise ValidationError(_("The hand values are given by seat."))
    return values


def apply_goat_deal(played: engine.GoatSitting | engine.GoatGame, deal: Mapping[str, Any], values: Any) -> None:
    """Record ``deal`` (summary form, :func:`goat_deal_values` read its values) on a sitting (the
    sheet's, the referee's clock's), or on one of its games replayed up to it (a correction)."""
    if "lead" in deal:
        played.draw_lead(deal["lead"])
    end: Any = deal.get("end")  # checked by the engine, as the seat and the values are
    seat: Any = deal.get("seat")
    if end == engine.GoatEnd.REDEAL:
        if seat is not None or values:
            raise ValidationError(_("A redeal is void: it has no seat and no hand values."))
        played.record_redeal()
    else:
        played.record_deal(end, seat, values, deal.get("zero_zero", False))


def read_sitting(document: Any, regulations: engine.Regulations) -> engine.GoatSitting:
    """The sitting a protocol file describes, read whole under the table's ``regulations`` (the
    tournament's at the table's size): a :data:`SITTING_FORMAT` file (:func:`export_sitting`), or
    one game (``domino-protocol/1``, PROTOCOL_FORMAT.md "Goat and Sea Goat"). A game's
    ``regulations``, when given, must be the table's; its names are not checked (a paper protocol
    may spell them otherwise). Only finished deals are read: the sheet records deals whole."""
    if not isinstance(document, Mapping):
        raise ValidationError(_("A protocol must be a JSON object."))
    kind = document.get("format")
    if kind == SITTING_FORMAT:
        unknown = sorted(set(document) - {"format", "games"})
        if unknown:
            raise ValidationError(_("Unknown field: %(field)s.") % {"field": ", ".join(map(str, unknown))})
        games = document.get("games")
        if not isinstance(games, list) or not games:
            raise ValidationError(_("A table's protocol file lists its games: at least one."))
    elif kind == PROTOCOL_FORMAT:
        games = [document]
    else:
        raise ValidationError(_("The format must be %(sitting)s (a table's protocol file) or %(game)s (one game), got "
                                "%(value)s.") % {"sitting": SITTING_FORMAT, "game": PROTOCOL_FORMAT,
                                                  "value": repr(kind)})
    if len(games) > regulations.games_per_tour:
        raise ValidationError(_("A sitting has at most %(games)s games, the file has %(count)s.") % {
            "games": regulations.games_per_tour, "count": len(games)})
    # Before the engine replays them: every change replays the sitting from its first event.
    check_deal_count(sum(len(g["deals"]) for g in games
                          if isinstance(g, Mapping) and isinstance(g.get("deals"), list)))
    played = []
    for k, game in enumerate(games, 1):
        if not isinstance(game, Mapping):
            raise ValidationError(_("Game %(game)s must be a JSON object.") % {"game": k})
        try:
            read, _names = engine.read_protocol({"regulations": regulations.to_dict(), **game})
        except engine.RulesError as error:
            raise engine_error(error.at("game %(n)s", n=k)) from None
        if read.regulations != regulations:
            raise ValidationError(_("Game %(game)s is played under other regulations than this table's: leave them out "
                                    "to use the table's.") % {"game": k})
        read = cast(engine.GoatGame, read)  # under the Goat table's own regulations (above)
        if read.current is not None:
            raise ValidationError(_("Game %(game)s stops in the middle of a deal: the score sheet takes finished deals "
                                    "only.") % {"game": k})
        played.append(read.to_dict())
    try:
        return engine.GoatSitting.from_dict({"regulations": regulations.to_dict(), "games": played})
    except engine.RulesError as error:
        raise engine_error(error) from None
