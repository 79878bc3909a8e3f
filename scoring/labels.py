"""Human labels of the engine's codes for the score sheet: violations (RULES 7), deal ends,
why a partition ended, and the actions of its history. Labels only: the engine decides."""

from django.utils.translation import gettext_lazy as _

#: RULES 7, as the referee reads them on a button.
VIOLATIONS = {
    "move_time": _("Move time exceeded"),
    "conduct": _("Conduct: smoking, eating, noise, objects on the table"),
    "signs": _("Signs to the partner"),
    "touched_tile": _("Touched a tile that does not fit"),
    "wrong_lead": _("Led without the right to lead"),
    "out_of_turn": _("Placed a tile out of turn"),
    "false_pass": _("False pass"),
    "moved_tiles": _("Moved tiles on the table"),
    "no_show": _("No-show"),
}

#: Short forms for the compact lists.
VIOLATIONS_SHORT = {
    "move_time": _("move time"),
    "conduct": _("conduct"),
    "signs": _("signs"),
    "touched_tile": _("touched tile"),
    "wrong_lead": _("wrong lead"),
    "out_of_turn": _("out of turn"),
    "false_pass": _("false pass"),
    "moved_tiles": _("moved tiles"),
    "no_show": _("no-show"),
}

ENDS = {"domino": _("Domino"), "fish": _("Fish"), "false_pass": _("False pass")}

REASONS = {
    "target": _("the target was reached"),
    "time": _("the time ran out"),
    "deals": _("the fixed number of deals was played"),
    "no_show": _("no-show"),
    "forfeit": _("forfeit declared by the chief referee"),
}

#: How a deal of Goat or Sea Goat ended.
GOAT_ENDS = {"domino": _("Domino"), "fish": _("Fish"), "redeal": _("Redeal (void deal)")}

#: Why a game of Goat or Sea Goat ended (RULES 9).
GAME_REASONS = {
    "lose_at": _("a player reached the losing score"),
    "target": _("the target was reached"),
    "zero_zero": _("domino with 0-0"),
    "timeout": _("the time ran out"),
    "no_show": _("no-show"),
    "time": _("the table's time ran out"),
}

#: Why a partition ended, in a narrow column.
REASONS_SHORT = {
    "target": _("target"), "time": _("time"), "deals": _("all deals"), "no_show": _("no-show"), "forfeit": _("forfeit"),
}

CONSEQUENCES = {"warning": _("warning"), "penalty": _("penalty")}
#: What a lapse of a live table's move clock brought (its audit entry's ``consequence``): a Goat
#: table with ``move_timeout: forfeit`` ends the game (scoring.live.play._goat_lapse).
TIMEOUT_CONSEQUENCES = {**CONSEQUENCES, "forfeit": _("game lost on time")}

ACTIONS = {
    "lead": _("Lead draw"),
    "deal": _("Deal"),
    "goat_deal": _("Deal"),  # a deal of a Goat table recorded on its score sheet
    "penalty": _("Penalty"),
    "violation": _("Violation"),
    "annul": _("Annulment"),
    "annul_no_show": _("No-show annulled"),
    "time": _("Time ran out"),
    "no_show": _("No-show"),
    "restart": _("Deal restarted"),
    "forfeit": _("Forfeit"),
    "import": _("Protocol imported"),
    "correction": _("Correction"),
    # A Goat or Sea Goat table (scoring.recording.commands.record_goat_deal, record_goat).
    "goat_deal": _("Deal"),
    "goat_penalty": _("Penalty"),
    "goat_violation": _("Violation"),
    "goat_time": _("Time ran out"),
    "redeal": _("Redeal (void deal)"),
    # A partition played live (scoring.live.play).
    "live": _("Table opened live"),
    "seat": _("Seat taken on a phone"),
    "release": _("Phone released"),
    "check_in": _("Player present"),
    "check_in_undone": _("Player's check-in undone"),
    "postpone": _("No-show postponed"),
    "deal_start": _("Deal dealt"),
    "hands": _("Hands entered"),
    "move": _("Move"),
    "draw": _("Tile drawn from the bazaar"),
    "redeal": _("Redeal (void deal)"),
    "timeout": _("Move time ran out"),
    "tap": _("Move tapped"),
    "deal_over": _("Deal ended by the referee"),
    "allowance": _("Move time switched"),
    "pause": _("Pause"),
    "resume": _("Resumed"),
}

STATUSES = {"scheduled": _("not started"), "playing": _("playing"), "finished": _("finished")}
