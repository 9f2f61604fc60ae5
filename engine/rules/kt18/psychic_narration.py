"""Narration of the KT18 Psychic phase's events (``rules/KT18.md`` 4): one line per event,
registered at import with :func:`engine.game.events.add_template`."""

from __future__ import annotations

from engine.game.events import Event, add_template

__all__: list[str] = []

_WHY = {
    "test": "the Psychic test failed",
    "perils": "Perils of the Warp took the psyker out of action",
    "denied": "it was denied",
}


def _dice(e: Event) -> str:
    return ",".join(str(d) for d in e.get("dice", ()))


def _not_played(e: Event) -> str:
    return (
        f"{e['op']} knows {', '.join(e['powers'])}, which the engine does not play (never offered)"
    )


def _test(e: Event) -> str:
    result = "passed" if e["success"] else "failed"
    return (
        f"{e['op']} attempts {e['power']}: Psychic test {_dice(e)} = {e['total']} "
        f"against warp charge {e['warp_charge']}, {result}"
    )


def _blast(e: Event) -> str:
    hit = ", ".join(e["targets"]) if e["targets"] else "no model"
    return f'  the warp erupts around {e["op"]}: D3 mortal wounds to each model within 3": {hit}'


def _deny(e: Event) -> str:
    result = "denied" if e["denied"] else "not denied"
    return (
        f"  {e['op']} tries to deny the witch: {_dice(e)} = {e['total']} against "
        f"{e['needed']} (must beat it), {result}"
    )


def _psybolt(e: Event) -> str:
    if not e["target"]:
        return f"  {e['op']}'s Psybolt finds no visible enemy within 18\""
    return f"  {e['op']}'s Psybolt strikes {e['target']}: {e['mortal']} mortal wound(s)"


add_template("kt18_powers_not_played", _not_played)
add_template("kt18_psyker_chosen", lambda e: f"Player {e['player']} chooses {e['op']} as psyker")
add_template("kt18_psychic_declined", lambda e: f"Player {e['player']} manifests no psychic power")
add_template("kt18_psychic_test", _test)
add_template("kt18_perils", lambda e: f"  Perils of the Warp! {e['op']} suffers D3 mortal wounds")
add_template("kt18_perils_blast", _blast)
add_template("kt18_deny_test", _deny)
add_template(
    "kt18_power_failed",
    lambda e: f"  {e['op']}'s {e['power']} has no effect: {_WHY.get(e['why'], e['why'])}",
)
add_template("kt18_power_manifested", lambda e: f"  {e['op']} manifests {e['power']}")
add_template("kt18_psybolt", _psybolt)
