"""Missions (``rules/KT24.md`` 8; DESIGN.md "Growing the rules"): the kill op, the Approved
Ops 2025 pack (:mod:`engine.missions.pack`) and one module per crit op and tac op
(:mod:`engine.missions.crit_ops`, :mod:`engine.missions.tac_ops`), all on the engine's hooks,
events and rule actions; the core names no op.

- :mod:`engine.missions.scoring`: VP by op with the caps, the ops' facts;
- :mod:`engine.missions.markers`: the objective markers as the ops see them;
- :mod:`engine.missions.actions`: mission actions and their common conditions.
"""

from engine.missions.pack import install

__all__ = ["install"]
