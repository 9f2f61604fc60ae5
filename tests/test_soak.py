"""The soak: many more random playouts with every check of the conformance tests, for a
change that touches the core (issue 29: "a larger soak ... is documented"). Deselected by
default (``tests/conftest.py``; ``-m "not soak"`` in the project's ``addopts``); run it with::

    python -m pytest -m soak            # 2,000 games + 450 mission games, in parallel

or a part of it with ``benchmarks/soak.py`` (which also times it).

- :data:`SOAK_GAMES` games of ``tests/test_game_conformance.py`` (:func:`_play_checked`:
  every node-level check, the result and the replay), seeds from :data:`SOAK_SEED` on, so
  none of them is a game of the ordinary suite (seeds 0-199), rotating over every ordered
  pair of built-in teams on both layouts as there;
- :data:`SOAK_MISSION_GAMES` games per crit op of ``tests/test_mission_conformance.py``
  with every check (``full``: the secrets' independence, the notation, the replay...),
  seeds from :data:`SOAK_SEED` on (the ordinary suite plays seeds below 9,000).

Cost (issue 29, a loaded 2-core machine): about 1.0s of processor time a conformance game
(2.3ms an input checked, about 440 inputs a game) and 0.9s a mission game, so some 2,400s of
processor time in all: about 20 minutes on two cores.
"""

from __future__ import annotations

import pytest

from engine.missions.pack import CRIT_ORDER, find_op
from engine.missions.scoring import CRIT
from tests.test_game_conformance import _play_checked
from tests.test_mission_conformance import _play_mission

pytestmark = pytest.mark.soak

SOAK_GAMES = 2000
SOAK_MISSION_GAMES = 50
SOAK_SEED = 100_000
BATCH = 20
MISSION_BATCH = 10


@pytest.mark.parametrize("batch", range(SOAK_GAMES // BATCH))
def test_soak_random_playouts_conform(batch: int) -> None:
    """Each game passes every check of ``_play_checked`` (it asserts them as it plays)."""
    for seed in range(SOAK_SEED + batch * BATCH, SOAK_SEED + (batch + 1) * BATCH):
        _play_checked(seed)


@pytest.mark.parametrize("batch", range(SOAK_MISSION_GAMES // MISSION_BATCH))
@pytest.mark.parametrize("crit", CRIT_ORDER)
def test_soak_mission_random_playouts_conform(crit: str, batch: int) -> None:
    """Each game passes every check of ``_play_mission`` with ``full`` (it asserts them as
    it plays)."""
    spec = find_op(crit, CRIT)
    if spec is None:
        pytest.skip(f"crit op {crit} is not registered yet")
    first = SOAK_SEED + 1000 * CRIT_ORDER.index(crit) + batch * MISSION_BATCH
    for seed in range(first, first + MISSION_BATCH):
        _play_mission(spec.name, seed, full=True)
