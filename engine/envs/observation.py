"""Tensor observations for learners: a battle from one player's view as fixed-shape float32
numpy arrays (issue 30, part 2; ``rules/KT24.md`` 8.1, 8.4, 7.2 for what stays secret).

:class:`ObservationEncoder` (one per battle: :meth:`ObservationEncoder.for_state`, cached
per battle context) turns a state into three arrays, built only from
:func:`engine.game.observation.observe` (what the viewer may see: the opponent's unrevealed
tac op, primary op, secret op facts and equipment selection are hidden there) and public
battle data (the killzone layout, the rosters' datacards):

``"operatives"``: ``(2 * MAX_OPERATIVES_PER_SIDE, len(OPERATIVE_FEATURES))``
    One row per operative slot, the viewer's operatives first (rows ``0 ..
    MAX_OPERATIVES_PER_SIDE - 1``, slot = index within its side in roster order), then the
    opponent's; unused slots are all zeros. Columns: :data:`OPERATIVE_FEATURES`.
``"board"``: ``(len(BOARD_LAYERS), GRID_ROWS, GRID_COLUMNS)``
    Raster layers over the killzone on a grid of :data:`CELL_INCHES` cells (terrain and
    zones as the fraction of a cell's area they cover, markers, operatives and tokens as
    counts in the cell holding their centre): cell ``[r, c]``
    covers ``c <= x < c + 1`` and ``r <= y < r + 1`` (inches; row 0 is the ``y = 0`` edge,
    drop zone A's long edge on the shipped layouts is ``x = 0``, column 0). Layers:
    :data:`BOARD_LAYERS`.
``"globals"``: ``(len(GLOBAL_FEATURES),)``
    Turning point, phase, resources, the node, the mission, the operative in activation and
    the operatives the viewer's options name. Entries: :data:`GLOBAL_FEATURES`.

Every array is ``float32``. Positions are normalised (``x / width``, ``y / depth``,
``elevation / ELEVATION_SCALE``); counts, characteristics and thresholds are raw numbers (a
Save of 3+ is ``3.0``, Move 6" is ``6.0``); flags are ``0.0``/``1.0``.

The static board layers (terrain, drop zones) are computed once per killzone value (one per
hatchway state and equipment terrain) with vectorised shapely intersections of the parts
with the cells they overlap (an ``STRtree`` of the cells), and copied; the per-state work
is a loop over at most ``2 * MAX_OPERATIVES_PER_SIDE`` operatives, the markers and the tokens
(``benchmarks/observation.py``: a median of about 0.2 ms per encode).

Kill Team 2021 (``ruleset = "kt21"``, ``rules/KT21.md``) gives arrays of the same shapes and
columns; each KT21 concept goes where a field of the same meaning exists, and a field KT21
lacks holds its neutral value:

- Operatives: ``save`` is the datacard's Save (Sv), the weapon slots' ``hit`` its BS/WS
  (4.1); ``engage``/``conceal`` the order (5); ``injured`` fewer than half its starting
  wounds (4.4); ``carrying`` / ``carrying_objective`` the markers it carries (15.1);
  ``interrupted`` also flags an operative that performed an Overwatch this turning point
  (its effect ``overwatched``, 3.5: KT21's one out-of-activation shot per turning point,
  like KT24's On Guard interrupt). ``counteracted`` and ``on_guard`` are 0 (KT21 has no
  counteraction; Guard only in Close Quarters, 13, when a rule sets it). The datacard's
  Defence (DF), Invulnerable Save and Group Activation size have no column: they are fixed
  by the datacard, and the shapes stay those of KT24.
- Board: ``objective`` and the control layers hold the mission's six objective markers
  (15.1); ``tokens_*`` the barricades (1.2 step 7); drop zones and terrain as for KT24.
- Globals: turning points 1 to 4 use ``tp_1`` .. ``tp_4``; ``cp_*`` the CP pool (2, 14);
  ``initiative_*`` who has the initiative (2.1); the decision one-hot covers KT21's
  decision kinds (``overwatch`` is the Overwatch turn, ``activate`` an activation turn, a
  Group Activation's later picks included, 3.2; ``roles``, ``scouting``, ``tac
  archetype``, ``kt21_equipment``...); ``vp_*`` the VP total; ``op_vp_*_crit`` the
  mission's VP and ``op_vp_*_tac`` the tac ops' (15.2), ``op_vp_*_kill`` and
  ``op_vp_*_primary`` 0 (no kill op, no primary op), and the Battle Ready VP only in
  ``vp_*``; ``equipment_*`` the entries of the player's equipment selection (1.2 step 6;
  the opponent's as :func:`~engine.game.observation.observe` shows them). ``kill_grade_*``,
  ``crit_op_*``, the KT24 ``tac_*`` one-hots and flags and ``primary_*`` are 0 (no Approved
  Ops 2025 pack: KT21's three tac ops are secret mission facts no field holds, 1.2 step 5).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, cast

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.strtree import STRtree

from engine.envs.codec import MAX_OPERATIVES_PER_SIDE
from engine.errors import KillTeamError
from engine.game.context import GameContext
from engine.game.markers import contesting, controller
from engine.game.observation import Observation, observe
from engine.game.state import (
    Chance,
    Decision,
    Effect,
    GameState,
    MarkerState,
    OperativeState,
    Terminal,
    other,
)
from engine.game.tokens import Token
from engine.game.vocabulary import DecisionKind
from engine.game.work import Work
from engine.geometry import Killzone
from engine.geometry.model import TerrainType
from engine.missions.pack import CRIT_ORDER, PRIMARY_CHOICES, tac_ops
from engine.missions.scoring import CRIT, KILL, PRIMARY, TAC
from engine.rules.kt21.firefight import OVERWATCHED

__all__ = [
    "BOARD_LAYERS",
    "CELL_INCHES",
    "CRIT_OPS",
    "ELEVATION_SCALE",
    "GLOBAL_FEATURES",
    "GRID_COLUMNS",
    "GRID_ROWS",
    "MAX_OPERATIVES_PER_SIDE",
    "OPERATIVE_FEATURES",
    "PHASES",
    "TAC_OPS",
    "TURNING_POINTS",
    "VP_OPS",
    "WEAPON_FEATURES",
    "WEAPON_SLOTS",
    "ArraySpec",
    "ObservationEncoder",
    "ObservationError",
    "encode",
]

WEAPON_SLOTS = 6
"""Weapon slots per operative: each profile of a weapon is its own slot (profiles act as
separate weapons, 2.2), in datacard order. The built-in loadouts carry at most 5 profiles; a
battle with an operative carrying more is refused."""

CELL_INCHES = 1.0
"""The side of a board cell, in inches."""

GRID_COLUMNS = 30
"""Board cells along x: a killzone at most 30" wide (the standard 30" x 22")."""

GRID_ROWS = 22
"""Board cells along y: a killzone at most 22" deep. A larger killzone is refused; a smaller
one leaves the cells off it at zero (layer ``on_board`` tells which are on it)."""

ELEVATION_SCALE = 6.0
"""Elevations and terrain heights are divided by this many inches (a 3" Vantage floor is
``0.5``; a part taller than 6" gives more than 1)."""

TURNING_POINTS = 6
"""Turning point one-hot width: 0 (set-up) to 5 (after the battle)."""

PHASES = ("setup", "strategy", "firefight", "over")
"""The phases of :attr:`engine.game.state.GameState.phase`, in one-hot order."""

CRIT_OPS: tuple[str, ...] = tuple(CRIT_ORDER)
"""The crit ops of the Approved Ops 2025 pack, in one-hot order (8.3)."""

TAC_OPS: tuple[str, ...] = tuple(sorted(spec.name for spec in tac_ops()))
"""The tac ops of the pack, sorted by name, in one-hot order (8.4)."""

VP_OPS = (KILL, CRIT, TAC, PRIMARY)
"""The ops whose VP are given per player (``MissionState.vp``), in order."""

WEAPON_FEATURES = ("present", "ranged", "melee", "attacks", "hit", "normal_damage", "crit_damage")
"""The columns of one weapon slot (``w<k>_<name>``): slot used, ranged / melee flag, attack
dice, Hit threshold (3 for 3+), normal and critical Damage (2.2)."""

_OPERATIVE_BASE = (
    "present",  # the slot holds an operative of the battle
    "alive",  # on the killzone and not incapacitated
    "placed",  # on the killzone (set up, not removed)
    "incapacitated",
    "viewer",  # 1: the viewer's operative, 0: the opponent's
    "x",  # x / killzone width (0 when not placed)
    "y",  # y / killzone depth (0 when not placed)
    "elevation",  # elevation / ELEVATION_SCALE (0 when not placed)
    "wounds",  # wounds left
    "max_wounds",  # starting wounds (datacard)
    "wounds_frac",  # wounds / max_wounds
    "engage",  # order: Engage
    "conceal",  # order: Conceal
    "ready",
    "expended",
    "activated",  # expended, or its activation or counteraction is in progress
    "active",  # its activation or counteraction is in progress (AP left or actions done)
    "counteracted",  # it counteracted this turning point (1.6)
    "interrupted",  # it made an On Guard interrupt (9.3) or a KT21 Overwatch this turning point
    "on_guard",  # 9.3
    "ap",  # action points left
    "moved",  # it moved in the current activation (Heavy)
    "heavy_shot",  # it used a Heavy weapon in the current activation
    "injured",  # fewer than half its starting wounds (2.3)
    "carrying",  # markers carried (objective markers and rule markers), 3.2
    "carrying_objective",  # objective markers carried
    "effects",  # effects on it (any kind, pending included)
    "token_effects",  # of those, effects of kind "token" (rule tokens on it)
    "apl_change",  # sum of the APL changes applying now (2.1)
    "move_change",  # sum of the Move changes applying now (inches)
    "hit_change",  # sum of the Hit changes applying now
    "save_change",  # sum of the Save changes applying now
    "apl",  # datacard APL
    "move",  # datacard Move (inches)
    "save",  # datacard Save threshold (3 for 3+)
    "base",  # base diameter (inches)
)

OPERATIVE_FEATURES: tuple[str, ...] = _OPERATIVE_BASE + tuple(
    f"w{k}_{name}" for k in range(WEAPON_SLOTS) for name in WEAPON_FEATURES
)
"""The columns of ``"operatives"``, in order (module docstring; the comments in the source
give each one's meaning): flags, position, wounds, order and activation state, AP, injury,
markers carried, effects on it (counts, and the sums of the ``apl``, ``move``, ``hit`` and
``save`` stat changes applying now, 2.1), the datacard's APL, Move, Save and base, then
:data:`WEAPON_SLOTS` weapon slots of :data:`WEAPON_FEATURES`."""

BOARD_LAYERS: tuple[str, ...] = (
    "on_board",  # the fraction of the cell's area on the killzone
    "height",  # the highest terrain part overlapping the cell / ELEVATION_SCALE
    *(f"terrain_{t.value.lower()}" for t in TerrainType),  # area fraction under that type
    "drop_zone_viewer",  # area fraction in the viewer's drop zone (0 before it is chosen)
    "drop_zone_opponent",
    "objective",  # objective markers whose centre is in the cell (count)
    "control_viewer",  # ... of those, controlled by the viewer (4.8)
    "control_opponent",  # ... controlled by the opponent
    "contested",  # ... contested by operatives of both players
    "operatives_viewer",  # the viewer's living operatives whose centre is in the cell
    "operatives_opponent",
    "tokens_viewer",  # the viewer's tokens (equipment markers and terrain) centred there
    "tokens_opponent",
)
"""The layers of ``"board"``, in order: the terrain (height, then one layer per
:class:`~engine.geometry.model.TerrainType` in declaration order giving the fraction of each
cell's area its parts cover, so a 0.5" thick wall shows as 0.5; for the current hatchway
state, with the equipment terrain on the killzone), drop zones (area fractions), objective
markers and their control, operatives and tokens (counts: a point counts in the cell
holding it)."""

_DECISION_KINDS = tuple(k.value for k in DecisionKind if not k.value.startswith("kt18_"))
"""The decision kinds an observation shows: those of the rulesets the environments play
(:data:`~engine.envs.codec.CODEC_RULESETS`); the KT18 kinds (``kt18_...``) are left out, so
the KT24 and KT21 observations keep their shapes (KT18 has no codec: its battles are refused
by the environments)."""

GLOBAL_FEATURES: tuple[str, ...] = (
    *(f"tp_{k}" for k in range(TURNING_POINTS)),
    *(f"phase_{p}" for p in PHASES),
    "cp_viewer",
    "cp_opponent",
    "vp_viewer",
    "vp_opponent",
    "kill_grade_viewer",
    "kill_grade_opponent",
    "initiative_viewer",
    "initiative_opponent",
    *(f"decision_{k}" for k in _DECISION_KINDS),
    "decision_viewer",  # the node is a decision of the viewer
    "decision_opponent",
    "chance",
    "chance_dice",  # dice rolled at the chance node
    "chance_viewer",  # the viewer rolls them
    "terminal",
    "won",
    "lost",
    "drawn",
    *(f"crit_op_{n}" for n in CRIT_OPS),
    *(f"tac_viewer_{n}" for n in TAC_OPS),
    *(f"tac_opponent_{n}" for n in TAC_OPS),  # only once revealed
    "tac_viewer_selected",
    "tac_opponent_selected",
    "tac_viewer_revealed",
    "tac_opponent_revealed",
    *(f"primary_viewer_{p}" for p in PRIMARY_CHOICES),
    *(f"primary_opponent_{p}" for p in PRIMARY_CHOICES),  # only at the end of the battle
    "primary_opponent_selected",
    *(f"op_vp_viewer_{op}" for op in VP_OPS),
    *(f"op_vp_opponent_{op}" for op in VP_OPS),
    "equipment_viewer",  # equipment options selected (the opponent's: once revealed, 7.2)
    "equipment_opponent",
    *(f"active_{k}" for k in range(2 * MAX_OPERATIVES_PER_SIDE)),  # the operative in activation
    *(f"named_op_{k}" for k in range(2 * MAX_OPERATIVES_PER_SIDE)),
    *(f"named_target_{k}" for k in range(2 * MAX_OPERATIVES_PER_SIDE)),
)
"""The entries of ``"globals"``, in order: turning point and phase one-hots; CP, VP, kill
grade and initiative of viewer and opponent; the node (the decision kind one-hot over every
:class:`~engine.game.vocabulary.DecisionKind` in declaration order, whose decision, chance
node with its dice, terminal with the result for the viewer); the mission (crit op, each
player's tac op and primary op as far as the viewer may see them, VP by op, equipment
selections counted); then three one-hots over the operative slots (the ``"operatives"`` row
order): the operative whose activation or counteraction is in progress (``active``), and the
single operative (``named_op``) and single target (``named_target``) that every one of the
viewer's legal actions naming one names (at the viewer's own decisions: the attacker choosing
its weapon and target, a retaliating operative...; the observation shows no procedure in
progress, so an attack is given only where the viewer's options name it)."""

_OP = {name: i for i, name in enumerate(OPERATIVE_FEATURES)}
_BOARD = {name: i for i, name in enumerate(BOARD_LAYERS)}
_GLOBAL = {name: i for i, name in enumerate(GLOBAL_FEATURES)}
_TERRAIN_LAYERS = tuple(_BOARD[f"terrain_{t.value.lower()}"] for t in TerrainType)
_STATIC_LAYERS = _BOARD["drop_zone_viewer"]  # layers [0, this) come from the killzone alone
_MAX_KILLZONES = 64  # static board layers kept per encoder (hatchway and terrain states)


class ObservationError(KillTeamError, ValueError):
    """A battle the encoder cannot represent (a killzone larger than the grid, too many
    operatives or weapon profiles) or a bad argument (a player other than A or B, a state of
    another battle); the message names what is wrong."""


@attrs.frozen(slots=True)
class ArraySpec:
    """The shape of one observation array (framework-neutral; the environment adapters turn
    it into their own spaces).

    Attributes:
        shape: the array's shape. dtype: ``"float32"``.
        low, high: bounds of every entry (``-inf``/``inf`` where a stat change may be
            negative or a count has no fixed bound).
        names: what the last axis (``"operatives"``, ``"globals"``) or the first axis
            (``"board"``'s layers) holds, in order.
    """

    shape: tuple[int, ...]
    dtype: str
    low: float
    high: float
    names: tuple[str, ...]


_SPECS: Mapping[str, ArraySpec] = MappingProxyType(
    {
        "operatives": ArraySpec(
            (2 * MAX_OPERATIVES_PER_SIDE, len(OPERATIVE_FEATURES)),
            "float32",
            -math.inf,
            math.inf,
            OPERATIVE_FEATURES,
        ),
        "board": ArraySpec(
            (len(BOARD_LAYERS), GRID_ROWS, GRID_COLUMNS), "float32", 0.0, math.inf, BOARD_LAYERS
        ),
        "globals": ArraySpec((len(GLOBAL_FEATURES),), "float32", 0.0, math.inf, GLOBAL_FEATURES),
    }
)

_Static = tuple[NDArray[np.float32], dict[str, NDArray[np.float32]]]
"""The killzone's own board layers and each drop zone's raster."""

_ENCODERS: weakref.WeakKeyDictionary[GameContext, ObservationEncoder] = weakref.WeakKeyDictionary()


def _static_operatives(ctx: GameContext, player: str) -> NDArray[np.float32]:
    """The datacard columns of ``player``'s operative slots (``(MAX_OPERATIVES_PER_SIDE, F)``)."""
    mine = [op_id for op_id in ctx.ids if ctx.owner[op_id] == player]
    if len(mine) > MAX_OPERATIVES_PER_SIDE:
        raise ObservationError(
            f"player {player} has {len(mine)} operatives; observations hold at most "
            f"{MAX_OPERATIVES_PER_SIDE} per side"
        )
    rows = np.zeros((MAX_OPERATIVES_PER_SIDE, len(OPERATIVE_FEATURES)), dtype=np.float32)
    for slot, op_id in enumerate(mine):
        card = ctx.datacards[op_id]
        row = rows[slot]
        row[_OP["present"]] = 1.0
        row[_OP["max_wounds"]] = card.wounds
        row[_OP["apl"]] = card.apl
        row[_OP["move"]] = card.move
        row[_OP["save"]] = card.save
        row[_OP["base"]] = card.base_mm / 25.4
        profiles = [(w.kind, p) for w in card.weapons for p in w.profiles]
        if len(profiles) > WEAPON_SLOTS:
            raise ObservationError(
                f"operative {op_id} carries {len(profiles)} weapon profiles; observations "
                f"hold at most {WEAPON_SLOTS}"
            )
        for k, (kind, p) in enumerate(profiles):
            at = _OP[f"w{k}_present"]
            row[at : at + len(WEAPON_FEATURES)] = (
                1.0,
                kind == "ranged",
                kind == "melee",
                p.attacks,
                p.hit,
                p.normal_damage,
                p.critical_damage,
            )
    return rows


def _cell(x: float, y: float) -> tuple[int, int]:
    """The (row, column) of the board cell holding the point ``(x, y)`` (inches)."""
    c = min(max(math.floor(x / CELL_INCHES), 0), GRID_COLUMNS - 1)
    r = min(max(math.floor(y / CELL_INCHES), 0), GRID_ROWS - 1)
    return r, c


def _check_killzone(kz: Killzone) -> None:
    if kz.width > GRID_COLUMNS * CELL_INCHES or kz.depth > GRID_ROWS * CELL_INCHES:
        raise ObservationError(
            f'killzone {kz.name!r} is {kz.width:g}" x {kz.depth:g}"; observations cover at '
            f'most {GRID_COLUMNS * CELL_INCHES:g}" x {GRID_ROWS * CELL_INCHES:g}" '
            f'({CELL_INCHES:g}" cells)'
        )


def _make_cells() -> tuple[NDArray[np.object_], STRtree]:
    """The board cells as shapely boxes in row-major order (``GRID_ROWS * GRID_COLUMNS``),
    and their spatial index."""
    x0, y0 = np.meshgrid(np.arange(GRID_COLUMNS) * CELL_INCHES, np.arange(GRID_ROWS) * CELL_INCHES)
    boxes = shapely.box(x0.ravel(), y0.ravel(), x0.ravel() + CELL_INCHES, y0.ravel() + CELL_INCHES)
    return boxes, STRtree(boxes)


_CELLS, _CELL_TREE = _make_cells()


def _coverage(area: Any) -> NDArray[np.float32]:
    """The fraction of each cell's area inside the geometry ``area`` (0 to 1),
    ``(GRID_ROWS, GRID_COLUMNS)``: 1 for the cells it contains, the area of the intersection
    for the cells on its edge only (clipped to each cell's rectangle)."""
    out = np.zeros(GRID_ROWS * GRID_COLUMNS, dtype=np.float32)
    shapely.prepare(area)
    inside = _CELL_TREE.query(area, predicate="contains")
    edge = np.setdiff1d(_CELL_TREE.query(area, predicate="intersects"), inside)
    out[inside] = 1.0
    if len(edge):
        clip = shapely.clip_by_rect
        for i in edge.tolist():
            x0, y0 = i % GRID_COLUMNS * CELL_INCHES, i // GRID_COLUMNS * CELL_INCHES
            piece = clip(area, x0, y0, x0 + CELL_INCHES, y0 + CELL_INCHES)
            out[i] = shapely.area(piece) / (CELL_INCHES * CELL_INCHES)
    return out.reshape(GRID_ROWS, GRID_COLUMNS)


def _static_board(kz: Killzone) -> _Static:
    """The killzone's own layers ``[0, drop_zone_viewer)`` and each drop zone's raster
    (fractions of cell areas, :data:`BOARD_LAYERS`), with vectorised shapely operations on
    the cells each part or area overlaps."""
    _check_killzone(kz)
    layers = np.zeros((_STATIC_LAYERS, GRID_ROWS, GRID_COLUMNS), dtype=np.float32)
    layers[_BOARD["on_board"]] = _coverage(kz.board)
    polygons = np.array([p.polygon for p in kz.parts], dtype=object)
    if len(polygons):
        # A part is over a cell when their interiors meet: they intersect and do not only
        # touch along an edge or at a corner.
        part, cell = _CELL_TREE.query(polygons, predicate="intersects")
        over = ~shapely.touches(polygons[part], _CELLS[cell])
        height = np.zeros(GRID_ROWS * GRID_COLUMNS)
        np.maximum.at(height, cell[over], kz.heights[part[over]] / ELEVATION_SCALE)
        layers[_BOARD["height"]] = height.reshape(GRID_ROWS, GRID_COLUMNS)
    for t, layer in zip(TerrainType, _TERRAIN_LAYERS, strict=True):
        flags = kz.flags[t]
        if flags.any():
            layers[layer] = _coverage(shapely.union_all(polygons[flags]))
    zones = {name: _coverage(poly) for name, poly in kz.drop_zones.items()}
    return layers, zones


class ObservationEncoder:
    """Encodes the states of one battle as arrays (module docstring). Build it with
    :meth:`for_state` (cached per battle context).

    Attributes:
        spaces: name -> :class:`ArraySpec` of each array.
        shapes: name -> shape of each array.
    """

    spaces: Mapping[str, ArraySpec] = _SPECS
    shapes: Mapping[str, tuple[int, ...]] = MappingProxyType(
        {k: v.shape for k, v in _SPECS.items()}
    )

    def __init__(self, ctx: GameContext) -> None:
        """An encoder for the battle of ``ctx`` (prefer :meth:`for_state`).

        Raises:
            ObservationError: the killzone is larger than the grid, a side has more than
                :data:`MAX_OPERATIVES_PER_SIDE` operatives or an operative more than
                :data:`WEAPON_SLOTS` weapon profiles.
        """
        _check_killzone(ctx.killzone)
        self._ctx = weakref.ref(ctx)
        self._rows = {p: _static_operatives(ctx, p) for p in ("A", "B")}
        self._slot: dict[str, int] = {}
        for player in ("A", "B"):
            mine = [op_id for op_id in ctx.ids if ctx.owner[op_id] == player]
            self._slot.update({op_id: k for k, op_id in enumerate(mine)})
        self._objectives = {o.name for o in ctx.killzone.objectives}
        self._boards: dict[int, tuple[Killzone, _Static]] = {}

    @classmethod
    def for_state(cls, state: GameState) -> ObservationEncoder:
        """The encoder of ``state``'s battle, built on first use and kept while the battle's
        context lives.

        Raises:
            ObservationError: as the constructor, or ``state`` is not a
                :class:`~engine.game.state.GameState`.
        """
        if not isinstance(state, GameState):
            raise ObservationError(f"expected a GameState, got {type(state).__name__}")
        enc = _ENCODERS.get(state.ctx)
        if enc is None:
            enc = _ENCODERS[state.ctx] = cls(state.ctx)
        return enc

    # -- encoding -----------------------------------------------------------------------

    def encode(self, state: GameState, player: str) -> dict[str, NDArray[np.float32]]:
        """``state`` as ``player`` sees it: ``{"operatives", "board", "globals"}`` float32
        arrays of :attr:`shapes` (module docstring), from
        :func:`~engine.game.observation.observe` only.

        Raises:
            ObservationError: ``player`` is not ``"A"`` or ``"B"``, or ``state`` is not a
                state of this encoder's battle.
        """
        if player not in ("A", "B"):
            raise ObservationError(f"player must be 'A' or 'B', not {player!r:.40}")
        if not isinstance(state, GameState) or state.ctx is not self._ctx():
            raise ObservationError("the state is not a state of this encoder's battle")
        return self.encode_observation(observe(state, player))

    def encode_observation(self, obs: Observation) -> dict[str, NDArray[np.float32]]:
        """The arrays of :meth:`encode` from an observation of this encoder's battle (what
        an agent that sees only its player's view is given).

        Raises:
            ObservationError: the battle's context no longer exists, or the observation
                names operatives of another battle.
        """
        ctx = self._ctx()
        if ctx is None:
            raise ObservationError("the encoder's battle no longer exists")
        operatives = cast(tuple[OperativeState, ...], obs.operatives)
        unknown = [o.id for o in operatives if o.id not in self._slot]
        if unknown:
            raise ObservationError(f"the observation names operatives of another battle: {unknown}")
        public = GameState(
            ctx,
            tp=obs.tp,
            phase=obs.phase,
            initiative=obs.initiative,
            players=obs.players,
            operatives=operatives,
            markers=cast(tuple[MarkerState, ...], obs.markers),
            effects=cast(tuple[Effect, ...], obs.effects),
            open_hatchways=obs.open_hatchways,
            stack=(),
            node=obs.node,
            step=obs.step,
            tokens=obs.tokens,
            mission=obs.mission,
        )
        w = Work(public)
        ops = self._operatives(obs.player, public, w)
        board = self._board(obs.player, public, w)
        glob = self._globals(obs, public)
        return {"operatives": ops, "board": board, "globals": glob}

    def _row(self, viewer: str, op_id: str, owner: str) -> int:
        return self._slot[op_id] + (0 if owner == viewer else MAX_OPERATIVES_PER_SIDE)

    def _operatives(self, viewer: str, s: GameState, w: Work) -> NDArray[np.float32]:
        out = np.concatenate((self._rows[viewer], self._rows[other(viewer)]))
        kz = s.ctx.killzone
        counts: dict[str, int] = {}
        tokens: dict[str, int] = {}
        overwatched: set[str] = set()
        for e in s.effects:
            if e.op:
                counts[e.op] = counts.get(e.op, 0) + 1
                if e.kind == "token":
                    tokens[e.op] = tokens.get(e.op, 0) + 1
                elif e.kind == OVERWATCHED:
                    overwatched.add(e.op)
        carried = {m.carrier: 0 for m in s.markers if m.carrier}
        for m in s.markers:
            if m.carrier and m.name in self._objectives:
                carried[m.carrier] += 1
        for o in s.operatives:
            row = out[self._row(viewer, o.id, o.player)]
            alive = o.placed and not o.incapacitated
            maxw = float(row[_OP["max_wounds"]])
            active = o.ap > 0 or bool(o.done)
            row[_OP["alive"]] = alive
            row[_OP["placed"]] = o.placed
            row[_OP["incapacitated"]] = o.incapacitated
            row[_OP["viewer"]] = o.player == viewer
            if o.placed:
                row[_OP["x"]] = o.x / kz.width
                row[_OP["y"]] = o.y / kz.depth
                row[_OP["elevation"]] = o.elevation / ELEVATION_SCALE
            row[_OP["wounds"]] = o.wounds
            row[_OP["wounds_frac"]] = o.wounds / maxw if maxw else 0.0
            row[_OP["engage"]] = o.order == "engage"
            row[_OP["conceal"]] = o.order == "conceal"
            row[_OP["ready"]] = o.ready
            row[_OP["expended"]] = not o.ready
            row[_OP["activated"]] = (not o.ready) or active
            row[_OP["active"]] = active
            row[_OP["counteracted"]] = o.counteracted
            row[_OP["interrupted"]] = o.interrupted or o.id in overwatched
            row[_OP["on_guard"]] = o.on_guard
            row[_OP["ap"]] = o.ap
            row[_OP["moved"]] = o.moved
            row[_OP["heavy_shot"]] = o.heavy_shot
            row[_OP["injured"]] = alive and 2 * o.wounds < maxw
            row[_OP["carrying"]] = len(o.carrying)
            row[_OP["carrying_objective"]] = carried.get(o.id, 0)
            row[_OP["effects"]] = counts.get(o.id, 0)
            row[_OP["token_effects"]] = tokens.get(o.id, 0)
            if s.effects:
                row[_OP["apl_change"]] = w.stat_change(o.id, "apl")
                row[_OP["move_change"]] = w.stat_change(o.id, "move")
                row[_OP["hit_change"]] = w.stat_change(o.id, "hit")
                row[_OP["save_change"]] = w.stat_change(o.id, "save")
        return out

    def _static(self, kz: Killzone) -> _Static:
        got = self._boards.get(id(kz))
        if got is None or got[0] is not kz:
            if len(self._boards) >= _MAX_KILLZONES:
                self._boards.clear()
            got = self._boards[id(kz)] = (kz, _static_board(kz))
        return got[1]

    def _board(self, viewer: str, s: GameState, w: Work) -> NDArray[np.float32]:
        opp = other(viewer)
        layers, zones = self._static(w.kz)
        out = np.zeros((len(BOARD_LAYERS), GRID_ROWS, GRID_COLUMNS), dtype=np.float32)
        out[:_STATIC_LAYERS] = layers
        for player, layer in ((viewer, "drop_zone_viewer"), (opp, "drop_zone_opponent")):
            zone = s.players[0 if player == "A" else 1].drop_zone
            if zone in zones:
                out[_BOARD[layer]] = zones[zone]
        for m in s.markers:
            if m.name not in self._objectives:
                continue
            r, c = _cell(m.x, m.y)
            out[_BOARD["objective"], r, c] += 1.0
            held = controller(w, m.name)
            if held:
                out[_BOARD["control_viewer" if held == viewer else "control_opponent"], r, c] += 1
            if len({o.player for o in contesting(w, m.name)}) == 2:
                out[_BOARD["contested"], r, c] += 1.0
        mine, theirs = _BOARD["operatives_viewer"], _BOARD["operatives_opponent"]
        for o in s.operatives:
            if o.placed and not o.incapacitated:
                r, c = _cell(o.x, o.y)
                out[mine if o.player == viewer else theirs, r, c] += 1.0
        mine, theirs = _BOARD["tokens_viewer"], _BOARD["tokens_opponent"]
        for t in cast(tuple[Token, ...], s.tokens):
            r, c = _cell(t.x, t.y)
            out[mine if t.owner == viewer else theirs, r, c] += 1.0
        return out

    def _globals(self, obs: Observation, s: GameState) -> NDArray[np.float32]:
        g = np.zeros(len(GLOBAL_FEATURES), dtype=np.float32)
        viewer = obs.player
        opp = other(viewer)
        k, j = (0, 1) if viewer == "A" else (1, 0)
        if 0 <= obs.tp < TURNING_POINTS:
            g[_GLOBAL[f"tp_{obs.tp}"]] = 1.0
        if obs.phase in PHASES:
            g[_GLOBAL[f"phase_{obs.phase}"]] = 1.0
        me, them = obs.players[k], obs.players[j]
        g[_GLOBAL["cp_viewer"]], g[_GLOBAL["cp_opponent"]] = me.cp, them.cp
        g[_GLOBAL["vp_viewer"]], g[_GLOBAL["vp_opponent"]] = me.vp, them.vp
        g[_GLOBAL["kill_grade_viewer"]] = me.kill_grade
        g[_GLOBAL["kill_grade_opponent"]] = them.kill_grade
        g[_GLOBAL["initiative_viewer"]] = obs.initiative == viewer
        g[_GLOBAL["initiative_opponent"]] = obs.initiative == opp
        node = obs.node
        if isinstance(node, Decision):
            if node.kind in _DECISION_KINDS:
                g[_GLOBAL[f"decision_{node.kind}"]] = 1.0
            g[_GLOBAL["decision_viewer" if node.player == viewer else "decision_opponent"]] = 1
        elif isinstance(node, Chance):
            g[_GLOBAL["chance"]] = 1.0
            g[_GLOBAL["chance_dice"]] = node.request.dice
            g[_GLOBAL["chance_viewer"]] = node.request.player == viewer
        elif isinstance(node, Terminal):
            g[_GLOBAL["terminal"]] = 1.0
            winner = node.result.winner
            g[_GLOBAL["won" if winner == viewer else "lost" if winner == opp else "drawn"]] = 1
        m = obs.mission
        if m.crit_op in CRIT_OPS:
            g[_GLOBAL[f"crit_op_{m.crit_op}"]] = 1.0
        for who, i in (("viewer", k), ("opponent", j)):
            tac = m.tac_ops[i]
            if tac in TAC_OPS:
                g[_GLOBAL[f"tac_{who}_{tac}"]] = 1.0
            g[_GLOBAL[f"tac_{who}_selected"]] = bool(tac)
            g[_GLOBAL[f"tac_{who}_revealed"]] = bool(tac) and m.tac_revealed[i]
            if m.primary_ops[i] in PRIMARY_CHOICES:
                g[_GLOBAL[f"primary_{who}_{m.primary_ops[i]}"]] = 1.0
            for op in VP_OPS:
                g[_GLOBAL[f"op_vp_{who}_{op}"]] = m.op_vp(op, "A" if i == 0 else "B")
        g[_GLOBAL["primary_opponent_selected"]] = bool(m.primary_ops[j])
        g[_GLOBAL["equipment_viewer"]] = len(me.equipment)
        g[_GLOBAL["equipment_opponent"]] = len(them.equipment)
        owner = s.ctx.owner
        for o in s.operatives:
            if o.ap > 0 or o.done:
                g[_GLOBAL[f"active_{self._row(viewer, o.id, o.player)}"]] = 1.0
        named = {a.op for a in obs.legal_actions if a.op}
        if len(named) == 1:
            (op_id,) = named
            if op_id in self._slot:
                g[_GLOBAL[f"named_op_{self._row(viewer, op_id, owner[op_id])}"]] = 1.0
        targets = {a.target for a in obs.legal_actions if a.target}
        if len(targets) == 1:
            (op_id,) = targets
            if op_id in self._slot:
                g[_GLOBAL[f"named_target_{self._row(viewer, op_id, owner[op_id])}"]] = 1.0
        return g


def encode(state: GameState, player: str) -> dict[str, NDArray[np.float32]]:
    """``ObservationEncoder.for_state(state).encode(state, player)``.

    Raises:
        ObservationError: as :meth:`ObservationEncoder.for_state` and
            :meth:`ObservationEncoder.encode`.
    """
    return ObservationEncoder.for_state(state).encode(state, player)
