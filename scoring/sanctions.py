"""Warnings and penalties of a partition, read from the engine's state: one reader for the score
sheet, the history and the protocols.

The engine records violations (a warning, or a penalty when repeated, RULES 6-7), penalties
written directly, the penalty of a false pass and of a restarted deal, and annulments; a penalty
written while a deal is played counts when it ends. :func:`sanctions` lists them in the order the
referee wrote them, each with the penalty it brought (counted, or pending) and its effect on the
totals as the engine counted it.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring import engine
from scoring.engine import rules


@dataclass(frozen=True)
class Sanction:
    """A warning or a penalty. ``event`` is the index of the engine event that wrote it (the
    history gives its time); ``note`` says what a penalty came with: ``"false_pass"`` (the referee
    ended the deal) or ``"restart"`` (the deal was dealt again)."""

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


def sanctions(game: engine.Partition) -> list[Sanction]:
    """Every warning and penalty of ``game``, in the order they were written."""
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
    return [Sanction(**w) for w in written]
