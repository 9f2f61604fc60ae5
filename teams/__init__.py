"""Built-in kill teams shipped with the engine: the JSON data files (see README.md here) and
one package of rule code per team (``teams/<team>/``), plus rules several teams print
(:mod:`teams.astartes`).

**One way to write a team rule.** Each rule module defines the rule (its installer, ploy,
action class...) and, at module level, registers it with one explicit call per rule id::

    register(
        "kasrkin/unique_action/battle_comms",
        install_battle_comms,
        "Vox-Trooper, 1AP: another friendly Kasrkin gets APL +1 (max 3) ...",
    )

- The id is written out as a literal ``"<team>/<kind>/<slug>"`` (``engine.rules.registry``:
  ``rule_id`` gives the same string from the printed name), so ``grep`` finds a rule's code
  from its id; no tables of rules registered in a loop, no computed ids.
- A ploy's installer is ``ploy_installer(PLOY, extra_hooks)`` (``engine.rules.ploys``); an
  equipment item's value to the agents is a ``register_equipment_value("<id>", value)``
  call right after its ``register``; roster choices are ``register_choice(team, spec)``.
- Each team's ``__init__`` imports every rule module of the team, so loading the package
  registers its rules; helpers shared by a team's modules live in its ``common.py``.
- Rule code imports nothing of :mod:`engine.agents`: what an outcome is worth to the agents
  (a rule's ``advice``) comes from :mod:`engine.advice`. A rule several teams print is
  written once in :mod:`engine.rules` (e.g. :class:`engine.rules.medic.Medikit`) or here
  (:mod:`teams.astartes`) and configured by each team.
"""
