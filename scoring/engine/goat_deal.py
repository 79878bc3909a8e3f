"""A deal of Goat or Sea Goat (Козёл, Морской козёл; shared/RULES.md 9.1, 9.2): the hands and a
bazaar for 2 to 4 players, played from the lead to domino or fish.

:class:`GoatDeal` is played as a sports :class:`~scoring.engine.deal.Deal` is: :attr:`~GoatDeal.to_move`,
:meth:`~GoatDeal.legal_moves`, :meth:`~GoatDeal.allowance`, :meth:`~GoatDeal.play`,
:meth:`~GoatDeal.pass_turn`, plus :meth:`~GoatDeal.draw` when the player to move has no playable
tile and the bazaar may still be drawn. Its line of play is the sports deal's
(:func:`~scoring.engine.deal.fit`, :func:`~scoring.engine.deal.fishes`,
:func:`~scoring.engine.deal.line_of`). The game that scores the deals one after another is
:class:`~scoring.engine.goat.GoatGame`.

Seats are numbered 1 to ``players`` in the direction of play; with ``teams`` (4 players) seats 1
and 3 are pair A, 2 and 4 pair B, and a pair is the unit that is scored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Iterable, Mapping, NamedTuple, Sequence

from . import goat_rules as gr
from .deal import Deal, _tile_and_first, check_hands, check_seconds, fishes, fit, line_of, shuffled
from .errors import CONCEALED_DRAW, CONCEALED_PASS, HandError, IllegalMove, RulesError, gettext_noop
from .regulations import Game, Regulations
from .tiles import ALL_TILES, HIGH, OTHER, SUIT, TILES, Number, Tile, TileIndex, TileMask, indices_of, tile_index
from .vocabulary import GoatEnd, Seat, Side

__all__ = ["GoatDeal", "GoatMove", "GoatOutcome", "check_game"]

_SIDES: Final[dict[Side | str | None, int]] = {Side.LEFT: 0, Side.RIGHT: 1, None: -1}
_SIDE_NAMES: Final = (Side.LEFT, Side.RIGHT)
_MOVE_KEYS: Final = frozenset({"seat", "draw", "tile", "end", "second", "pass", "seconds"})
_ZERO: Final = tile_index(0, 0)


class GoatMove(NamedTuple):
    """A legal move: ``tile`` on ``end`` (``None`` for a lead, or when both ends show the same
    number), and in Sea Goat a ``second`` double on the other end."""

    seat: Seat
    tile: Tile
    end: Side | None = None
    second: Tile | None = None


@dataclass(frozen=True)
class GoatOutcome:
    """How a deal ended: ``end`` is ``"domino"``, ``"fish"`` or ``"redeal"`` (void); ``seat``
    placed the last tile; ``values`` are the hand values left to seats 1.. (RULES 9.1; empty for
    a void deal); ``zero_zero``: the domino move put down 0-0 (Sea Goat's finish)."""

    end: GoatEnd
    seat: Seat | None
    values: tuple[int, ...]
    zero_zero: bool = False


def check_game(regulations: Regulations) -> None:
    """Refuse regulations of a game other than Goat or Sea Goat."""
    if not regulations.is_goat:
        raise RulesError(gettext_noop("the regulations' game is %(game)s: a deal with a bazaar is Goat or Sea Goat"),
                         game=regulations.game)


class GoatDeal:
    """One deal of Goat or Sea Goat, from the deal of the hands to domino or fish.

    ``hands``: 7 tiles for each of the ``players`` seats; the bazaar is every other tile, in the
    order it will be drawn when ``bazaar`` gives it (a deal dealt from a seed), else in no known
    order (then each draw names its tile, as a protocol does). ``leader``: who leads; ``None``
    for the first deal of a game, led by the holder of the first tile of
    :data:`~scoring.engine.goat_rules.LEAD_ORDER` with that tile. A hand of 5 doubles or 6 tiles
    of one number makes the deal void at once (:attr:`is_void`).

    >>> deal = GoatDeal.from_seed(7, Regulations(game="goat", players=2))
    >>> deal.to_move, len(deal.bazaar)
    (2, 14)
    """

    def __init__(self, hands: Sequence[TileMask | Iterable[Tile | TileIndex | str]], regulations: Regulations,
                 leader: Seat | None = None, bazaar: Sequence[TileIndex] | None = None,
                 seed: int | str | None = None) -> None:
        check_game(regulations)
        self.regulations = regulations
        self.players = regulations.players
        if not isinstance(hands, (list, tuple)) or len(hands) != self.players:
            raise IllegalMove(gettext_noop("a deal of %(players)s players has %(players)s hands, got %(count)s"),
                              players=self.players, count=len(hands) if isinstance(hands, (list, tuple)) else 0)
        masks = [h if type(h) is int else Deal._hand_mask(seat, h) for seat, h in enumerate(hands, 1)]
        check_hands(masks)
        seen = sum(masks)
        rest = ALL_TILES & ~seen
        self.ordered = bazaar is not None
        if bazaar is None:
            bazaar = list(indices_of(rest))
        elif sorted(bazaar) != list(indices_of(rest)):
            raise IllegalMove(gettext_noop("the bazaar must hold every tile in no hand, once"))
        self.dealt: tuple[TileMask, ...] = tuple(masks)
        self.hands: list[TileMask] = list(masks)
        self.bazaar: list[TileIndex] = list(bazaar)
        self.seed = seed
        self.lead_tile: TileIndex | None = None  # the tile the first deal of a game must be led with
        if leader is None:
            leader, self.lead_tile = gr.first_lead(masks)
        elif type(leader) is not int or not 1 <= leader <= self.players:
            raise IllegalMove(gettext_noop("the leader must be a seat 1 to %(players)s, got %(leader)s"),
                              players=self.players, leader=repr(leader))
        self.leader: Seat = leader
        self.turn = leader - 1
        self.left: Number = -1
        self.right: Number = -1
        self.count = [0] * 7
        self.codes: list[int] = []  # placements: tile << 2 | side (deal.line_of)
        self.moves: list[dict[str, Any]] = []  # protocol move form
        self.drawn: list[TileIndex] = []  # drawn in the current turn
        self.passes = 0  # passes in a row since the last tile was placed
        self.outcome: GoatOutcome | None = None
        self.turn_allowance = 0
        if any(gr.void_hand(m) for m in masks):
            self.outcome = GoatOutcome(GoatEnd.REDEAL, None, ())
        else:
            self._begin_turn()

    @classmethod
    def from_seed(cls, seed: int | str, regulations: Regulations, leader: Seat | None = None) -> GoatDeal:
        """A deal dealt from ``seed``: seat ``k`` gets tiles ``7(k-1)`` to ``7k-1`` of
        :func:`~scoring.engine.deal.shuffled` ``(seed)``, and the bazaar is the rest, drawn in that
        order. Keep the seed secret until the deal ends: it tells the bazaar."""
        order = shuffled(seed)
        players = regulations.players
        hands = [sum(1 << i for i in order[7 * k:7 * k + 7]) for k in range(players)]
        return cls(hands, regulations, leader, order[7 * players:], seed)

    # -- reading the state ---------------------------------------------------------------------

    @property
    def to_move(self) -> Seat:
        return self.turn + 1

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def is_void(self) -> bool:
        return self.outcome is not None and self.outcome.end == GoatEnd.REDEAL

    @property
    def ends(self) -> tuple[Number, Number] | None:
        return None if self.left < 0 else (self.left, self.right)

    def hand(self, seat: Seat) -> list[Tile]:
        return [TILES[i] for i in indices_of(self.hands[seat - 1])]

    def line(self) -> list[tuple[Number, Number]]:
        """The tiles on the table from the left end to the right end, each as its halves in order."""
        return line_of(self.codes)

    def values(self) -> tuple[int, ...]:
        """The hand value (RULES 9.1) of each seat's tiles now."""
        return tuple(gr.hand_value(h, self.regulations) for h in self.hands)

    def can_draw(self) -> bool:
        """Whether the bazaar may still be drawn: it holds more than ``bazaar_keep`` tiles."""
        return len(self.bazaar) > self.regulations.bazaar_keep

    # -- the rules of a move -------------------------------------------------------------------

    def legal_masks(self) -> tuple[TileMask, TileMask]:
        """Tiles of the player to move that fit the left end and the right end (at the lead: every
        tile, or the one the first deal must be led with, on the left). When both ends show the
        same number a tile there is listed on the left only."""
        hand = self.hands[self.turn]
        if self.left < 0:
            if self.lead_tile is not None:
                return hand & 1 << self.lead_tile, 0
            return hand, 0
        ml = hand & SUIT[self.left]
        mr = 0 if self.left == self.right else hand & SUIT[self.right]
        return ml, mr

    def legal_moves(self) -> list[GoatMove]:
        """Every legal move of the player to move: (tile, end), and in Sea Goat two doubles at
        once. Empty when he must draw (:meth:`can_draw`) or pass."""
        if self.outcome is not None:
            return []
        ml, mr = self.legal_masks()
        seat = self.turn + 1
        if self.left < 0:
            return [GoatMove(seat, TILES[i]) for i in indices_of(ml)]
        moves = ([GoatMove(seat, TILES[i], Side.LEFT) for i in indices_of(ml)]
                 + [GoatMove(seat, TILES[i], Side.RIGHT) for i in indices_of(mr)])
        if self.regulations.game == Game.SEA_GOAT and self.left != self.right:
            doubles = [i for i in indices_of(self.hands[self.turn]) if TILES[i].is_double]
            lefts = [i for i in doubles if ml >> i & 1]
            rights = [i for i in doubles if mr >> i & 1]
            moves += [GoatMove(seat, TILES[a], Side.LEFT, TILES[b]) for a in lefts for b in rights]
        return moves

    def _fishes(self, legal: TileMask) -> bool:
        if self.left < 0:
            return False
        return fishes(legal, self.hands[self.turn], self.left, self.right, self.count)

    def _begin_turn(self) -> None:
        """Fix the allowance of the turn that begins (RULES 6; drawing is part of the move): the
        forced lead of a game's first deal is one move; a player who must draw (**Decision**)
        has ``time_several``, as his move is not known yet."""
        r = self.regulations
        self.drawn = []
        ml, mr = self.legal_masks()
        if self.left < 0:
            self.turn_allowance = r.time_single if self.lead_tile is not None else r.time_several
        elif not ml | mr:
            self.turn_allowance = r.time_several if self.can_draw() else r.time_pass
        elif self._fishes(ml | mr):
            self.turn_allowance = r.time_fish
        else:
            self.turn_allowance = r.time_single if len(self.legal_moves()) == 1 else r.time_several

    def allowance(self) -> int:
        """Seconds the player to move has for his move, fixed when his turn began (RULES 6)."""
        return self.turn_allowance

    # -- playing -------------------------------------------------------------------------------

    def _check_turn(self, seat: Seat | None) -> None:
        if self.outcome is not None:
            raise IllegalMove(gettext_noop("the deal is over (%(end)s)"), end=self.outcome.end)
        if seat is not None and (type(seat) is not int or not 1 <= seat <= self.players):
            raise IllegalMove(gettext_noop("seat must be 1 to %(players)s, got %(seat)s"), players=self.players,
                              seat=repr(seat))
        if seat is not None and seat != self.turn + 1:
            raise IllegalMove(gettext_noop("seat %(seat)s moves out of turn: seat %(turn)s is to move"), seat=seat,
                              turn=self.turn + 1)

    def _playable(self) -> TileMask:
        ml, mr = self.legal_masks()
        return ml | mr

    def draw(self, tile: Tile | TileIndex | str | None = None, seat: Seat | None = None) -> Tile:
        """The player to move, with no playable tile, takes a tile from the bazaar (RULES 9.1):
        the next one of a dealt bazaar, or ``tile`` (a protocol names what was drawn; on a dealt
        bazaar it must be the next one). Returns the tile."""
        self._check_turn(seat)
        playable = self._playable()
        if playable:
            raise HandError(gettext_noop("seat %(seat)s draws holding a playable tile: %(tiles)s"), seat=self.turn + 1,
                            tiles=", ".join(str(TILES[i]) for i in indices_of(playable)), concealed=CONCEALED_DRAW)
        if not self.can_draw():
            raise IllegalMove(gettext_noop("the bazaar is exhausted: %(left)s tiles left, %(keep)s stay"),
                              left=len(self.bazaar), keep=self.regulations.bazaar_keep)
        if tile is None:
            if not self.ordered:
                raise IllegalMove(gettext_noop("the bazaar's order is not known: name the tile drawn"))
            index = self.bazaar[0]
        else:
            index = _tile_and_first(tile)[0]
            if index not in self.bazaar:
                raise IllegalMove(gettext_noop("%(tile)s is not in the bazaar"), tile=TILES[index])
            if self.ordered and index != self.bazaar[0]:
                raise IllegalMove(gettext_noop("%(tile)s is not the next tile of the dealt bazaar"), tile=TILES[index])
        self.bazaar.remove(index)
        self.hands[self.turn] |= 1 << index
        self.drawn.append(index)
        return TILES[index]

    def play(self, tile: Tile | TileIndex | str, end: Side | str | None = None, seat: Seat | None = None,
             second: Tile | TileIndex | str | None = None, seconds: float | None = None) -> None:
        """Place ``tile`` of the player to move on ``end`` (left out when it fits one end only or
        both ends show the same number); in Sea Goat ``second``, a double, goes on the other end
        in the same move. A lead written ``"a-b"`` lies with ``a`` on the left. ``seconds``: the
        time a live table's clock charged to the move (:func:`~scoring.engine.deal.check_seconds`);
        the game derives its move-time violations from it."""
        self._check_turn(seat)
        charged = check_seconds(seconds)
        index, first = _tile_and_first(tile)
        side = _SIDES.get(end, -2)
        if side == -2:
            raise IllegalMove(gettext_noop("end must be \"left\" or \"right\", got %(end)s"), end=repr(end))
        second_index = None if second is None else _tile_and_first(second)[0]
        if second_index is not None and self.regulations.game != Game.SEA_GOAT:
            raise IllegalMove(gettext_noop("two tiles in one move are for Sea Goat only"))
        turn = self.turn
        hand = self.hands[turn]
        if not hand >> index & 1:
            raise HandError(gettext_noop("%(tile)s is not in the hand of seat %(seat)s"), tile=TILES[index],
                            seat=turn + 1)
        move: dict[str, Any] = {"seat": turn + 1}
        if self.drawn:
            move["draw"] = [str(TILES[i]) for i in self.drawn]
        if self.left < 0:
            if second_index is not None:
                raise HandError(gettext_noop("two doubles go on the two open ends: not at the lead"), sent=TILES[index])
            if self.lead_tile is not None and index != self.lead_tile:
                raise HandError(gettext_noop("the first deal of a game is led with %(tile)s"),
                                tile=TILES[self.lead_tile], sent=TILES[index])
            if first < 0:
                first = HIGH[index]
            self.left, self.right = first, OTHER[index * 7 + first]
            self.codes.append(index << 2 | (2 if first == HIGH[index] else 3))
            move["tile"] = f"{first}-{self.right}"
            placed = 1 << index
        else:
            side, opened = fit(index, self.left, self.right, side)
            if second_index is None:
                self._open_end(side, opened)
                self.codes.append(index << 2 | side)
                placed = 1 << index
            else:
                placed = self._two_doubles(index, side, second_index)
            move["tile"] = str(TILES[index])
            if end is not None or second_index is not None:
                move["end"] = str(_SIDE_NAMES[side])
            if second_index is not None:
                move["second"] = str(TILES[second_index])
        if charged is not None:
            move["seconds"] = charged
        for i in indices_of(placed):
            self.count[TILES[i].low] += 1
            if not TILES[i].is_double:
                self.count[TILES[i].high] += 1
        hand &= ~placed
        self.hands[turn] = hand
        self.moves.append(move)
        self.drawn = []
        self.passes = 0
        if not hand:
            zero = bool(placed & 1 << _ZERO)
            self.outcome = GoatOutcome(GoatEnd.DOMINO, turn + 1, self.values(), zero)
        elif self.left == self.right and self.count[self.left] == 7:
            self.outcome = GoatOutcome(GoatEnd.FISH, turn + 1, self.values())
        else:
            self._next()

    def _open_end(self, side: int, number: Number) -> None:
        if side:
            self.right = number
        else:
            self.left = number

    def _two_doubles(self, index: TileIndex, side: int, second: TileIndex) -> TileMask:
        """Sea Goat: the double ``index`` on ``side`` and the double ``second`` on the other end."""
        if not (TILES[index].is_double and TILES[second].is_double and index != second):
            raise IllegalMove(gettext_noop("two tiles in one move must be two doubles"))
        if not self.hands[self.turn] >> second & 1:
            raise HandError(gettext_noop("%(tile)s is not in the hand of seat %(seat)s"), tile=TILES[second],
                            seat=self.turn + 1)
        other_end = self.right if side == 0 else self.left
        if OTHER[second * 7 + other_end] < 0:
            raise HandError(gettext_noop("the second double %(tile)s does not fit the other end %(end)s"),
                            tile=TILES[second], end=other_end)
        self.codes += [index << 2 | side, second << 2 | (1 - side)]
        return 1 << index | 1 << second

    def pass_turn(self, seat: Seat | None = None, seconds: float | None = None) -> None:
        """The player to move, with no playable tile and nothing he may draw, passes. When every
        player has passed since the last tile was placed (a bazaar that keeps tiles) the deal
        is fish, and its fisherman placed the last tile. ``seconds`` as for :meth:`play`."""
        self._check_turn(seat)
        charged = check_seconds(seconds)
        playable = self._playable()
        if playable:
            raise HandError(gettext_noop("seat %(seat)s passes holding a playable tile: %(tiles)s"),
                            seat=self.turn + 1, tiles=", ".join(str(TILES[i]) for i in indices_of(playable)),
                            concealed=CONCEALED_PASS)
        if self.can_draw():
            raise IllegalMove(gettext_noop("seat %(seat)s passes while the bazaar may be drawn: he draws first"),
                              seat=self.turn + 1)
        move: dict[str, Any] = {"seat": self.turn + 1}
        if self.drawn:
            move["draw"] = [str(TILES[i]) for i in self.drawn]
        move["pass"] = True
        if charged is not None:
            move["seconds"] = charged
        self.moves.append(move)
        self.drawn = []
        self.passes += 1
        if self.passes == self.players:
            # The last of the passes is that of the player who placed the last tile: the fisherman.
            self.outcome = GoatOutcome(GoatEnd.FISH, self.turn + 1, self.values())
        else:
            self._next()

    def _next(self) -> None:
        self.turn = (self.turn + 1) % self.players
        self._begin_turn()

    # -- storing and replaying -----------------------------------------------------------------

    def apply(self, move: Mapping[str, Any]) -> None:
        """Apply one protocol move: ``{"seat", "draw"?: [tiles], "tile", "end"?, "second"?,
        "seconds"?}`` or ``{"seat", "draw"?: [tiles], "pass": true, "seconds"?}``; ``{"seat",
        "draw": [tiles]}`` alone is a turn still being played."""
        if not isinstance(move, Mapping) or "seat" not in move:
            raise IllegalMove(gettext_noop("a move must be an object with a seat"))
        unknown = sorted(set(move) - _MOVE_KEYS)
        if unknown:
            raise IllegalMove(gettext_noop("unknown key %(key)s in a move"), key=repr(unknown[0]))
        if "tile" in move and "pass" in move:
            raise IllegalMove(gettext_noop("a move has a seat and one of \"tile\" (with \"end\"), \"pass\""))
        if ("end" in move or "second" in move) and "tile" not in move:
            raise IllegalMove(gettext_noop("\"end\" and \"second\" go with a tile"))
        if "seconds" in move and "tile" not in move and "pass" not in move:
            raise IllegalMove(gettext_noop("\"seconds\" go with a tile or a pass: the time of a whole move"))
        seat = move["seat"]
        self._check_turn(seat)
        draws = move.get("draw", [])
        if not isinstance(draws, list) or ("draw" in move and not draws):
            raise IllegalMove(gettext_noop("\"draw\" is a list of the tiles drawn, in order"))
        for k, tile in enumerate(draws, 1):
            try:
                self.draw(tile, seat)
            except RulesError as error:
                raise error.at(gettext_noop("draw %(n)s"), n=k) from None
        if "pass" in move:
            if move["pass"] is not True:
                raise IllegalMove(gettext_noop("\"pass\" must be true"))
            self.pass_turn(seat, move.get("seconds"))
        elif "tile" in move:
            self.play(move["tile"], move.get("end"), seat, move.get("second"), move.get("seconds"))
        elif not draws:
            raise IllegalMove(gettext_noop("a move has a seat and one of \"tile\" (with \"end\"), \"pass\""))

    def to_dict(self, public: bool = False) -> dict[str, Any]:
        """JSON-ready state: the hands as dealt, the leader, every move (protocol move form), and
        the seed and the bazaar's order when known. ``public``: leave out the seed and the
        bazaar's order while the deal is being played (they tell what is face down)."""
        data: dict[str, Any] = {
            "hands": {str(s): [str(TILES[i]) for i in indices_of(h)] for s, h in enumerate(self.dealt, 1)},
            "leader": self.leader,
        }
        if self.lead_tile is not None:
            data["lead"] = str(TILES[self.lead_tile])  # the first deal of a game: led by the hands
        if self.is_void:
            data["redeal"] = True
        else:
            moves = list(self.moves)
            if self.drawn and self.outcome is None:
                moves.append({"seat": self.turn + 1, "draw": [str(TILES[i]) for i in self.drawn]})
            data["moves"] = moves
        if not (public and self.outcome is None):
            if self.seed is not None:
                data["seed"] = self.seed
            if self.ordered:
                data["bazaar"] = [str(TILES[i]) for i in self._bazaar_as_dealt()]
        return data

    def _bazaar_as_dealt(self) -> list[TileIndex]:
        drawn = [_tile_and_first(t)[0] for m in self.moves for t in m.get("draw", [])] + self.drawn
        return drawn + self.bazaar

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], regulations: Regulations, leader: Seat | None = None) -> GoatDeal:
        """Replay a deal from :meth:`to_dict` (or a protocol move-form deal with ``leader``)."""
        if not isinstance(data, Mapping):
            raise RulesError(gettext_noop("a deal must be an object"))
        hands = data.get("hands")
        seats = [str(s) for s in range(1, regulations.players + 1)]
        if not isinstance(hands, Mapping) or sorted(hands) != seats or not all(isinstance(hands[s], list) for s in seats):
            raise RulesError(gettext_noop("must give the hands of seats \"1\" to \"%(players)s\" as lists of tiles"),
                             "hands", players=regulations.players)
        bazaar = data.get("bazaar")
        order = None
        if bazaar is not None:
            if not isinstance(bazaar, list):
                raise RulesError(gettext_noop("must be a list of tiles"), "bazaar")
            order = [_tile_and_first(t)[0] for t in bazaar]
        first = "lead" in data
        deal = cls([hands[s] for s in seats], regulations, None if first else data.get("leader", leader), order,
                   data.get("seed"))
        if first and (data.get("leader", deal.leader) != deal.leader or deal.lead_tile is None
                      or _tile_and_first(data["lead"])[0] != deal.lead_tile):
            raise RulesError(gettext_noop("the first deal of a game is led by seat %(seat)s with %(tile)s"), "lead",
                             seat=deal.leader, tile=TILES[deal.lead_tile or 0])
        if "seed" in data and data["seed"] is not None:
            dealt = cls.from_seed(data["seed"], regulations, deal.leader)
            if dealt.dealt != deal.dealt:
                raise RulesError(gettext_noop("the hands are not those the seed deals"), "seed")
            deal.bazaar, deal.ordered = dealt.bazaar, True
        moves = data.get("moves", [])
        if not isinstance(moves, list):
            raise RulesError(gettext_noop("must be a list"), "moves")
        if deal.is_void and moves:
            raise RulesError(gettext_noop("the deal is void (a hand of 5 doubles or 6 tiles of one number): it has no"
                                          " moves"), "moves")
        for k, move in enumerate(moves, 1):
            if deal.outcome is not None:
                raise IllegalMove(gettext_noop("the deal is already over (%(end)s): no move after it"),
                                  end=deal.outcome.end).at(gettext_noop("move %(n)s"), n=k)
            try:
                deal.apply(move)
            except RulesError as error:
                raise error.at(gettext_noop("move %(n)s"), n=k) from None
        return deal
