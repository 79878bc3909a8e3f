"""Warnings and penalties of a partition, read from the engine's state: one reader for the score
sheet, the history and the protocols.

The engine records violations (a warning, or a penalty when repeated, RULES 6-7), penalties
written directly, the penalty of a false pass and of a restarted deal, and annulments; a penalty
written while a deal is played counts when it ends. :func:`sanctions` lists them in the order the
referee wrote them, each with the penalty it brought (counted, or pending), its effect on the
totals as the engine counted it, and when it happened (:func:`event_times`).

:func:`running_lines` is the one running total every reader shows: the deals and the penalties in
the order they counted, each with the totals after it.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring import engine
from scoring.engine import rules
from scoring.models import Partition, PartitionChange


@dataclass(frozen=True)
class Sanction:
    """A warning or a penalty. ``event`` is the index of the engine event that wrote it, ``at``
    when it happened (:func:`event_times`; ``None`` when unknown); ``note`` says what a penalty
    came with: ``"false_pass"`` (the referee ended the deal) or ``"restart"`` (the deal was dealt
    again)."""

    event: int
    seat: int
    code: str
    consequence: str  # "warning" | "penalty"
    note: str = ""
    violation: int | None = None  # the violation's id: what an annulment names
    annulled: str | None = None  # the annulment's reason
    annulled_event: int | None = None
    during_deal: int | None = None  # written while this deal was played
    move: int | None = None  # the index (from 0) of the move awaited then, when known
    after_deal: int = 0  # counts (or counted) after this deal
    penalty: engine.PenaltyRecord | None = None
    pending: bool = False  # written during the deal being played: counts when it ends
    delta: tuple[int, int] = (0, 0)  # the change of the totals (A, B) the penalty brought
    at: datetime.datetime | None = None
    annulled_at: datetime.datetime | None = None

    @property
    def pair(self) -> str:
        return engine.pair_of(self.seat)

    @property
    def points(self) -> int | None:
        return self.penalty.points if self.penalty is not None else None

    @property
    def totals(self) -> tuple[int, int] | None:
        """The totals (A, B) right after the penalty counted; ``None`` while pending or for a warning."""
        return self.penalty.totals if self.penalty is not None else None


def event_times(changes: Iterable[PartitionChange]) -> list[datetime.datetime]:
    """When each event of the engine's state after the last of ``changes`` (in version order)
    happened: the time of the change that first wrote it, as long as later changes (corrections)
    leave it as it was; for a clock's lapse, the deadline it fell at (RULES 6), not the moment
    it was recorded. A change of a live table keeps no state but counts the engine's events
    after it (:func:`scoring.recording.queries.state_at`): the events it added are its own."""
    events: list[dict] = []  # the events as the last change that kept the state wrote them
    times: list[datetime.datetime] = []
    for change in changes:
        at = change.at
        if change.action == "timeout" and change.data.get("deadline"):
            at = datetime.datetime.fromisoformat(change.data["deadline"])
        if change.state is not None:
            new = change.state.get("events", [])
            # An event only counted by a live change (i >= len(events)) is the one this state holds.
            times = [times[i] if i < len(times) and (i >= len(events) or events[i] == event) else at
                     for i, event in enumerate(new)]
            events = new
        elif isinstance(change.data.get("events"), int):
            count = change.data["events"]
            times = times[:count] + [at] * (count - len(times))
            events = events[:count]
    return times


def partition_times(partition: Partition, version: int | None = None) -> list[datetime.datetime]:
    """:func:`event_times` of ``partition`` at ``version`` (default: the current one)."""
    changes = partition.changes.order_by("version").only("at", "action", "data", "state")
    return event_times(changes if version is None else changes.filter(version__lte=version))


def sanctions(game: engine.Partition, times: Sequence[datetime.datetime] = ()) -> list[Sanction]:
    """Every warning and penalty of ``game``, in the order they were written; ``times``: when
    each event of ``game`` happened (:func:`event_times`)."""
    annulments = {e.get("violation"): k for k, e in enumerate(game.events) if e.get("type") == "annul"}
    violations = {v.id: v for v in game.violations}
    written: list[dict] = []
    deals = 0
    for k, event in enumerate(game.events):
        kind = event.get("type")
        during = deals + 1 if event.get("during_deal") else None
        if kind == "deal":
            deals += 1
            record = game.deals[deals - 1] if deals <= len(game.deals) else None
            if record is not None and record.end == "false_pass":
                written.append({"event": k, "seat": record.seat, "code": "false_pass", "consequence": "penalty",
                                "note": "false_pass", "after_deal": deals})
        elif kind == "violation" and k in violations:
            v = violations[k]
            written.append({"event": k, "seat": v.seat, "code": v.code, "consequence": v.consequence,
                            "violation": v.id, "annulled": v.annulled, "annulled_event": annulments.get(v.id),
                            "during_deal": during, "move": v.move, "after_deal": deals})
        elif kind in ("penalty", "restart"):
            written.append({"event": k, "seat": event.get("seat"), "code": event.get("code"),
                            "consequence": "penalty", "note": "restart" if kind == "restart" else "",
                            "during_deal": during, "after_deal": deals})
    # Each penalty the engine counted (or keeps pending) belongs to what wrote it: a violation by
    # its id, the others to the first line of the same seat and code still without one.
    pending = game.pending_penalties
    for penalty in game.penalties + pending:
        line = next((w for w in written if "penalty" not in w and w["consequence"] == "penalty"
                     and (w.get("violation") == penalty.violation if penalty.violation is not None
                          else w.get("violation") is None and (w["seat"], w["code"]) == (penalty.seat, penalty.code))),
                    None)
        if line is not None:
            line.update(penalty=penalty, pending=penalty in pending, after_deal=penalty.after_deal,
                        delta=rules.penalty_delta(penalty.pair, game.regulations))

    def at(event: int | None) -> datetime.datetime | None:
        return times[event] if event is not None and event < len(times) else None

    return [Sanction(**w, at=at(w["event"]), annulled_at=at(w.get("annulled_event"))) for w in written]


@dataclass(frozen=True)
class Line:
    """A line of the running total: a deal, or a penalty counted after one; ``delta``: what it
    added to the totals (A, B), ``totals``: the totals after it."""

    deal: engine.DealRecord | None
    penalty: engine.PenaltyRecord | None
    delta: tuple[int, int]
    totals: tuple[int, int]

    @property
    def kind(self) -> str:
        return "deal" if self.deal is not None else "penalty"

    @property
    def after_deal(self) -> int:
        """The deal's number, or the deal after which the penalty counted (0: before the first)."""
        return self.deal.n if self.deal is not None else self.penalty.after_deal if self.penalty else 0


def delta_text(delta: tuple[int, int]) -> str:
    """A change of the totals as every reader prints it: ``A +36``, ``B +25``."""
    return ", ".join(f"{side} {value:+d}" for side, value in zip("AB", delta) if value)


def running_lines(game: engine.Partition) -> list[Line]:
    """The deals and the counted penalties of ``game`` in the order they counted, each with the
    totals after it: a penalty that counted after deal N (RULES 7) comes after deal N's line and
    before deal N+1's. Each line's totals are the previous line's plus its ``delta``. A penalty
    still pending (written during the deal being played) is no line until it counts."""
    regulations = game.regulations
    penalties = iter(game.penalties)  # counted in order, so their after_deal never decreases
    penalty = next(penalties, None)
    lines: list[Line] = []
    last = len(game.deals)
    for deal in [None, *game.deals]:
        n = deal.n if deal is not None else 0
        if deal is not None:
            gain = (deal.points, 0) if deal.winner == engine.Pair.A else (0, deal.points) if deal.winner else (0, 0)
            lines.append(Line(deal, None, gain, deal.totals))
        # After the last deal, every penalty left (one that counted during the deal being played).
        while penalty is not None and (penalty.after_deal <= n or n == last):
            assert penalty.totals is not None  # counted
            lines.append(Line(None, penalty, rules.penalty_delta(penalty.pair, regulations), penalty.totals))
            penalty = next(penalties, None)
    return lines
