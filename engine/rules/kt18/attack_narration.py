"""Narration of the KT18 attack events (``rules/KT18.md`` 5-7): one line per event, registered
at import with :func:`engine.game.events.add_template`."""

from __future__ import annotations

from engine.game.events import Event, add_template

__all__ = ["SECTION_NAMES"]

SECTION_NAMES = {
    "ready": "Ready, Fire!",
    "will": "Fire at Will",
    "hammer": "Hammer of Wrath",
    "lives": "Fight For Your Lives",
}
"""The sections' names as the rules print them (5.1, 7.1)."""


def _dice(e: Event) -> str:
    return ",".join(str(d) for d in e.get("dice", ()))


def _section(e: Event) -> str:
    return f"{SECTION_NAMES.get(e['section'], e['section'])} ({e['phase']} phase)"


def _passed(e: Event) -> str:
    return f"Player {e['player']} passes in {SECTION_NAMES.get(e['section'], e['section'])}"


def _chosen(e: Event) -> str:
    verb = "shoots" if e["phase"] == "shooting" else "fights"
    return f"{e['op']} {verb}"


def _fired(e: Event) -> str:
    shares = ", ".join(f"{n} at {t}" for t, n in zip(e["targets"], e["attacks"], strict=False))
    what = "fires Overwatch with" if e["overwatch"] else "attacks with"
    return f"{e['op']} {what} {e['weapon']}: {shares}"


def _hit(e: Event) -> str:
    need = "6s only (Overwatch)" if e["needed"] == 0 else f"{e['needed']}+"
    mod = f", modifier {e['modifier']:+d}" if e["modifier"] else ""
    return f"  hit rolls {_dice(e)} needing {need}{mod}: {e['hits']} hit(s)"


def _wound(e: Event) -> str:
    return f"  wound rolls {_dice(e)} needing {e['needed']}+: {e['wounds']} wound(s)"


def _save(e: Event) -> str:
    if e["save"] == "none":
        return f"  {e['target']} has no save (rolled {e['face']})"
    result = "saved" if e["saved"] else "failed"
    return f"  {e['target']} {e['save']} save: {e['face']}, {result}"


def _lost(e: Event) -> str:
    return f"  {e['op']} suffers {e['damage']} damage: {e['wounds']} wound(s) left"


def _injury(e: Event) -> str:
    mod = f" {e['modifier']:+d}" if e["modifier"] else ""
    result = "out of action" if e["out_of_action"] else "flesh wound"
    return f"  Injury roll for {e['op']}: {_dice(e)}{mod}: {result}"


def _flesh(e: Event) -> str:
    return f"  {e['op']} suffers a flesh wound ({e['flesh_wounds']} marked), back on 1 wound"


def _out(e: Event) -> str:
    return f"  {e['op']} is out of action"


def _mortal(e: Event) -> str:
    return f"  {e['op']} suffers {e['count']} mortal wound(s) ({e['source']})"


def _piled(e: Event) -> str:
    step = "piles in" if e["step"] == "pile_in" else "consolidates"
    return f"  {e['op']} {step} to {e['x']:g},{e['y']:g}"


def _fight_ended(e: Event) -> str:
    del e
    return ""


add_template("kt18_section_started", _section)
add_template("kt18_passed", _passed)
add_template("kt18_model_chosen", _chosen)
add_template("kt18_weapon_fired", _fired)
add_template("kt18_hit_roll", _hit)
add_template("kt18_wound_roll", _wound)
add_template("kt18_saving_throw", _save)
add_template("kt18_wounds_lost", _lost)
add_template("kt18_injury_roll", _injury)
add_template("kt18_flesh_wound", _flesh)
add_template("kt18_out_of_action", _out)
add_template("kt18_mortal_wounds", _mortal)
add_template("kt18_piled_in", _piled)
add_template("kt18_fight_ended", _fight_ended)
