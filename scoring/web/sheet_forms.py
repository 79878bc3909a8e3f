"""Forms of the referee's score sheet. They only read what was tapped and typed into the data
of one operation of :data:`scoring.recording.commands.OPERATIONS`; every rule (which pips are possible,
who leads, what a violation costs) is the engine's, reached through the service.

Every form carries the partition's ``version`` it was rendered with and an idempotency ``key``
(a fresh uuid per rendered form): a double tap or a retried POST is applied once, and a second
tab that recorded on an older version gets a conflict instead of overwriting.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from tournaments.web.api import flatten
from tournaments.web.jsonreader import JsonError, read_json

from scoring.engine.rules import ESCALATING_CODES, PENALTY_CODES, RESTART_CODES
from scoring.labels import VIOLATIONS
from scoring.web.serializers import action_data

SEATS = [(n, str(n)) for n in (1, 2, 3, 4)]
PAIRS = [("A", _("Pair A")), ("B", _("Pair B"))]
#: How a deal ended: ``end`` or ``end-seat``.
END_CHOICES = ([(f"domino-{n}", f"domino-{n}") for n in (1, 2, 3, 4)] + [("fish", "fish")]
               + [(f"fish-{n}", f"fish-{n}") for n in (1, 2, 3, 4)]
               + [(f"false_pass-{n}", f"false_pass-{n}") for n in (1, 2, 3, 4)])


def new_key() -> str:
    return uuid.uuid4().hex


class StampedForm(forms.Form):
    """The partition version the form was rendered with, and its idempotency key."""

    action = ""
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    key = forms.CharField(max_length=100, required=False, widget=forms.HiddenInput)


class ActionForm(StampedForm):
    """A form of one action of the sheet: ``recording`` is the action and its data once valid."""

    recording: tuple[str, dict[str, Any]]

    def operation(self) -> tuple[str, dict[str, Any]]:
        """The service action and its data, from the cleaned fields."""
        raise NotImplementedError

    def clean(self):
        data = super().clean()
        if not self.errors:
            # The data of the action, checked by the same serializer as the API's (strict types).
            action, payload = self.operation()
            try:
                self.recording = (action, action_data(action, payload))
            except serializers.ValidationError as error:
                raise ValidationError([f"{field}: {message}" for field, messages in flatten(error.detail).items()
                                       for message in messages]) from None
        return data


class LeadForm(ActionForm):
    action = "lead"
    seat = forms.TypedChoiceField(choices=SEATS, coerce=int, error_messages={
        "required": _("Tap the seat that won the lead draw.")})

    def operation(self):
        return "lead", {"seat": self.cleaned_data["seat"]}


class DealEndForm(ActionForm):
    """How a deal ended and the pips left in the hands of each pair."""

    end = forms.ChoiceField(choices=END_CHOICES, error_messages={
        "required": _("Choose how the deal ended: domino by a seat, fish or a false pass.")})
    pips_a = forms.IntegerField(label=_("Pair A"), error_messages={
        "required": _("Type the pips left in the hands of pair A (0 if none).")})
    pips_b = forms.IntegerField(label=_("Pair B"), error_messages={
        "required": _("Type the pips left in the hands of pair B (0 if none).")})

    def deal(self) -> dict[str, Any]:
        end, _dash, seat = self.cleaned_data["end"].partition("-")
        return {"end": end, "seat": int(seat) if seat else None,
                "pips": {"A": self.cleaned_data["pips_a"], "B": self.cleaned_data["pips_b"]}}


class DealForm(DealEndForm):
    action = "deal"

    def operation(self):
        return "deal", self.deal()


class ViolationForm(ActionForm):
    """A violation (the engine decides: a warning first where the rules say so, else a penalty)
    or a penalty written at once."""

    action = "violation"
    KINDS = [("violation", _("Violation")), ("penalty", _("Penalty at once"))]
    kind = forms.ChoiceField(choices=KINDS, initial="violation")
    seat = forms.TypedChoiceField(choices=SEATS, coerce=int, error_messages={"required": _("Tap the seat.")})
    code = forms.ChoiceField(choices=[(c, VIOLATIONS[c]) for c in PENALTY_CODES], error_messages={
        "required": _("Choose the violation.")})

    def operation(self):
        return self.cleaned_data["kind"], {"seat": self.cleaned_data["seat"], "code": self.cleaned_data["code"]}


class TimeForm(ActionForm):
    action = "time"
    during_deal = forms.TypedChoiceField(choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1")

    def operation(self):
        return "time", {"during_deal": self.cleaned_data["during_deal"]}


class NoShowForm(ActionForm):
    """A no-show ends the partition: the first post asks for confirmation (``confirm`` unset), the
    second, carrying ``confirm``, records it."""

    action = "no_show"
    absent = forms.ChoiceField(choices=PAIRS + [("both", _("Both pairs"))])
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def operation(self):
        return "no_show", {"absent": self.cleaned_data["absent"]}


class RestartForm(ActionForm):
    action = "restart"
    seat = forms.TypedChoiceField(choices=SEATS, coerce=int, error_messages={"required": _("Tap the offending seat.")})
    code = forms.ChoiceField(choices=[(c, VIOLATIONS[c]) for c in RESTART_CODES], error_messages={
        "required": _("Choose the violation.")})

    def operation(self):
        return "restart", {"seat": self.cleaned_data["seat"], "code": self.cleaned_data["code"]}


class ForfeitForm(ActionForm):
    action = "forfeit"
    pair = forms.ChoiceField(choices=PAIRS)

    def operation(self):
        return "forfeit", {"pair": self.cleaned_data["pair"]}


class AnnulForm(ActionForm):
    action = "annul"
    violation = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason"), max_length=500, error_messages={
        "required": _("An annulment needs a reason.")})

    def operation(self):
        return "annul", {"violation": self.cleaned_data["violation"], "reason": self.cleaned_data["reason"]}


class AnnulNoShowForm(StampedForm):
    """The chief referee annuls a no-show (:func:`scoring.recording.commands.annul_no_show`), giving a reason."""

    action = "annul_no_show"
    reason = forms.CharField(label=_("Reason"), max_length=500, error_messages={
        "required": _("An annulment needs a reason.")})


#: The forms of the sheet by the ``action`` they post.
SHEET_FORMS: dict[str, type[StampedForm]] = {form.action: form for form in (
    LeadForm, DealForm, ViolationForm, TimeForm, NoShowForm, RestartForm, ForfeitForm, AnnulForm, AnnulNoShowForm)}


class CorrectionReason(forms.Form):
    """The reason the chief referee gives for a correction."""

    reason = forms.CharField(label=_("Reason of the correction"), max_length=500, widget=forms.Textarea(attrs={"rows": 2}),
                             error_messages={"required": _("A correction needs a reason.")})


class GoatDealEndForm(StampedForm):
    """How a deal of Goat or Sea Goat ended, in summary form: domino, fish or a redeal, the seat
    that made it, each seat's hand value. The engine checks the rest (which values are possible)."""

    ENDS = [("domino", _("Domino")), ("fish", _("Fish")), ("redeal", _("Redeal (void deal)"))]
    end = forms.ChoiceField(choices=ENDS, widget=forms.RadioSelect, error_messages={
        "required": _("Choose how the deal ended: domino, fish or a redeal.")})
    seat = forms.TypedChoiceField(choices=SEATS, coerce=int, required=False, empty_value=None)
    value_1 = forms.IntegerField(min_value=0, required=False)
    value_2 = forms.IntegerField(min_value=0, required=False)
    value_3 = forms.IntegerField(min_value=0, required=False)
    value_4 = forms.IntegerField(min_value=0, required=False)
    zero_zero = forms.BooleanField(required=False)

    @property
    def deal(self) -> dict[str, Any]:
        data = self.cleaned_data
        deal: dict[str, Any] = {"end": data["end"]}
        if data["end"] != "redeal":
            deal["seat"] = data["seat"]
            deal["values"] = {str(n): data[f"value_{n}"] for n in (1, 2, 3, 4) if data[f"value_{n}"] is not None}
            if data["zero_zero"]:
                deal["zero_zero"] = True
        return deal


class GoatDealForm(GoatDealEndForm):
    """The next deal of a Goat table (:func:`scoring.recording.commands.record_goat_deal`), and for the first
    deal of a game the seat that led it (the engine checks who may lead)."""

    action = "goat_deal"
    lead = forms.TypedChoiceField(choices=SEATS, coerce=int, required=False, empty_value=None)

    @property
    def deal(self) -> dict[str, Any]:
        lead = self.cleaned_data["lead"]
        return {**({"lead": lead} if lead is not None else {}), **super().deal}


class GoatCorrectionForm(GoatDealEndForm, CorrectionReason):
    """The chief referee's correction of one deal of a Goat table
    (:func:`scoring.recording.commands.correct_goat_deal`), with the reason; the first leader stays."""


class GoatPenaltyForm(StampedForm):
    """A penalty at a Goat table (:func:`scoring.recording.commands.record_goat`): RULES 9, Goat charges the
    offender, Sea Goat credits the others."""

    action = "goat_penalty"
    seat = forms.TypedChoiceField(choices=SEATS, coerce=int, error_messages={"required": _("Tap the seat.")})
    code = forms.ChoiceField(choices=[(c, VIOLATIONS[c]) for c in PENALTY_CODES], error_messages={
        "required": _("Choose the violation.")})

    @property
    def recording(self) -> tuple[str, dict[str, Any]]:
        return self.action, {"seat": self.cleaned_data["seat"], "code": self.cleaned_data["code"]}


class GoatViolationForm(GoatPenaltyForm):
    """A violation at a Goat table (:func:`scoring.recording.commands.record_goat`): a warning first, then
    penalties (RULES 6, 7), counted over the sitting's games."""

    action = "goat_violation"
    code = forms.ChoiceField(choices=[(c, VIOLATIONS[c]) for c in PENALTY_CODES if c in ESCALATING_CODES],
                             error_messages={"required": _("Choose the violation.")})


class GoatTimeForm(StampedForm):
    """The table's time ran out (:func:`scoring.recording.commands.record_goat`), during a deal or between
    deals."""

    action = "goat_time"
    during_deal = forms.TypedChoiceField(choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1")

    @property
    def recording(self) -> tuple[str, dict[str, Any]]:
        return self.action, {"during_deal": self.cleaned_data["during_deal"]}


class GoatAnnulForm(StampedForm):
    """The chief referee annuls a penalty of a Goat table
    (:func:`scoring.recording.commands.annul_goat_penalty`): its game, its number in the game, the reason."""

    action = "goat_annul"
    game = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    penalty = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason"), max_length=500, error_messages={
        "required": _("An annulment needs a reason.")})


class GoatViolationAnnulForm(StampedForm):
    """The chief referee annuls a violation of a Goat table
    (:func:`scoring.recording.commands.annul_goat_violation`): its game, its number in the game, the reason."""

    action = "goat_annul_violation"
    game = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    violation = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason"), max_length=500, error_messages={
        "required": _("An annulment needs a reason.")})


#: The forms of a Goat table's sheet by the ``action`` they post.
GOAT_SHEET_FORMS: dict[str, type[StampedForm]] = {form.action: form for form in (
    GoatDealForm, GoatPenaltyForm, GoatViolationForm, GoatTimeForm, GoatAnnulForm, GoatViolationAnnulForm)}


class PointsDealForm(StampedForm):
    """A deal of a points game (:func:`scoring.recording.commands.record_points_deal`): the points each unit
    (a seat, or a pair) scored, and their total as the referee added them up, which the service
    checks against their sum."""

    total = forms.IntegerField(label=_("Total of the deal"), min_value=0, error_messages={
        "required": _("Type the total of the deal's points: it checks them.")})

    def __init__(self, units: dict[str, str], *args: Any, **kwargs: Any) -> None:
        """``units``: each unit (``"1"`` .. or ``"A"``, ``"B"``) and its label."""
        super().__init__(*args, **kwargs)
        self.units = units
        for unit, label in units.items():
            self.fields[f"points_{unit}"] = forms.IntegerField(label=label, min_value=0, error_messages={
                "required": _("Type the points of %(unit)s (0 if none).") % {"unit": label}})

    @property
    def deal(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"points": {unit: data[f"points_{unit}"] for unit in self.units}, "total": data["total"]}


class CorrectionForm(DealEndForm, CorrectionReason):
    """The chief referee's correction of one deal, with the reason."""

    def operation(self):
        return "deal", self.deal()


class ImportForm(StampedForm):
    """A protocol (domino-protocol/1; at a Goat table its protocol file, domino-sitting/1, or one
    game) as a file or pasted; a chief referee replacing a recorded partition gives a reason."""

    file = forms.FileField(label=_("Protocol file (JSON)"), required=False)
    text = forms.CharField(label=_("or paste the protocol"), required=False,
                           widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "autocapitalize": "off"}))
    reason = forms.CharField(label=_("Reason (to replace a recorded partition)"), required=False, max_length=500)

    def clean(self):
        data = super().clean() or {}
        upload, text = data.get("file"), (data.get("text") or "").strip()
        # The request's body is bounded (tournaments.web.uploads), the file with it.
        content = upload.read() if upload is not None else text
        if not content.strip():
            raise ValidationError(_("Choose a protocol file or paste the protocol."))
        try:
            data["document"] = read_json(content)
        except JsonError as error:
            raise ValidationError(str(error)) from None
        return data
