"""The registry of team rule implementations, and the team rules each team declares
(DESIGN.md "Growing the rules"; ``rules/KT24.md`` 2.2, 7).

Every team rule (faction rule, operative ability, unique action, strategy ploy, firefight
ploy, team equipment, team weapon rule written with a trailing ``*``) has a stable id made of
the team's identity, the rule's kind and a slug of its name::

    kasrkin/weapon_rule/concealed_position
    legionaries/strategy_ploy/dark_gods_favour

The team's identity is its ``Team.id`` normalised to lower case and underscores, so a team
imported from a community dataset (whose id comes from its name) gets the same ids as the
built-in team and plays with the same rules. The universal rules (Command Re-roll, the
universal weapon rules...) are not team rules.

**Rules shared across teams.** A rule's identity is its kind, its name's slug and its printed
text (:mod:`engine.teams.rule_text`: normalised, the team keyword a placeholder, kept as a
digest). Each implementation's printed text is recorded in
:data:`engine.rules.printed_texts.PRINTED_TEXTS`; a team that carries the texts of its rules
(``Team.rule_texts``: the imported teams) and prints a rule another team's implementation
plays, with the same identity, plays it through that implementation (:func:`team_rules` says
which: :attr:`RuleDeclaration.played_by`). A same-named rule with another text is not played,
and :attr:`RuleDeclaration.reason` says why. When the text names the team keyword and the
teams' keywords differ, the implementation must say how to play it for another keyword
(``register(..., for_keyword=...)``); without that the rule is not played (the reason says
so).

Whether a rule is played is said here alone, by a registered :class:`RuleImplementation`;
the team data never claims it. Implementations live in the ``teams`` package (one module per
team, ``teams/<team>.py``), which this module imports on first use, so the core names no
team. :func:`install` subscribes the implementations of the teams in play to a battle's hooks.

A team module also declares here what its rules need beyond the battle: the choices made
when a roster is built (:class:`ChoiceSpec`, :func:`register_choice`: Marks of Chaos, Chapter
Tactics; rosters carry them, ``GameContext.choice`` / ``op_choice`` read them) and how much
the heuristic agent values each of its equipment options (:func:`register_equipment_value`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import attrs

from engine.dice.rules import TeamRule
from engine.names import slug
from engine.rules.printed_texts import PRINTED_TEXTS
from engine.teams import choices
from engine.teams.choices import ChoiceSpec
from engine.teams.rule_text import names_keyword, rule_ref, team_keyword

if TYPE_CHECKING:
    from engine.game.context import Hooks
    from engine.teams.model import Roster, Team, Weapon

__all__ = [
    "KINDS",
    "ChoiceSpec",
    "RuleDeclaration",
    "RuleImplementation",
    "choice_specs",
    "equipment_value",
    "implementation",
    "install",
    "installer_of",
    "register",
    "register_choice",
    "register_equipment_value",
    "rule_id",
    "slug",
    "team_key",
    "team_rules",
    "unimplemented_rules",
]

KINDS = (
    "faction_rule",
    "ability",
    "unique_action",
    "strategy_ploy",
    "firefight_ploy",
    "equipment",
    "weapon_rule",
)
"""The kinds of team rule, in the order listings show them."""

Installer = Callable[["Hooks", tuple[str, ...]], None]
"""``installer(hooks, players)``: subscribe a rule's hooks for the operatives of ``players``
(``("A",)``, ``("B",)`` or ``("A", "B")``: the players whose team declares the rule)."""

_REGISTRY: dict[str, RuleImplementation] = {}
_BY_REF: dict[str, list[str]] = {}  # "kind/slug" -> registered ids, sorted; "" -> [size]
_FOR_KEYWORD: dict[tuple[str, str], Installer] = {}  # (rule id, keyword) -> installer
_LOADED: list[bool] = [False]
_ID_RE = re.compile(r"[a-z0-9_]+/[a-z_]+/[a-z0-9_]+")


@attrs.frozen(slots=True)
class RuleImplementation:
    """The code that plays one team rule.

    Attributes:
        rule_id: the rule's id (module docstring).
        installer: :data:`Installer`. Several ids may share one installer (a weapon rule
            printed on several teams' datacards); a battle installs it once.
        summary: the project's own one-line summary of what the rule does.
        for_keyword: ``for_keyword(keyword)``: the installer of the same rule for a team
            whose operatives have ``keyword`` instead (``"ANGEL OF DEATH"``), or None when
            the installer cannot be given another keyword (module docstring).
    """

    rule_id: str
    installer: Installer
    summary: str
    for_keyword: Callable[[str], Installer] | None = None


@attrs.frozen(slots=True)
class RuleDeclaration:
    """One team rule as a team declares it.

    Attributes:
        id: the stable rule id. kind: one of :data:`KINDS`. name: as printed.
        implemented: a registered implementation plays it (its own or a shared one).
        sources: where it appears, in data order (``"team"``, ``"operative Kasrkin
            Sergeant"``, ``"Kasrkin Sharpshooter: hot-shot marksman rifle (concealed)"``...).
        played_by: the id of the implementation that plays it: ``id`` itself, or another
            team's rule with the same identity (module docstring); None when not played.
        reason: why it is not played (``""`` when it is).
    """

    id: str
    kind: str
    name: str
    implemented: bool
    sources: tuple[str, ...] = ()
    played_by: str | None = None
    reason: str = ""

    @property
    def shared(self) -> bool:
        """Played through another team's implementation of the same rule."""
        return self.played_by is not None and self.played_by != self.id


def team_key(team: Team) -> str:
    """The team's identity for rule ids: ``Team.id`` as a :func:`slug` (``"kasrkin"``;
    ``"hierotek-circle"`` -> ``"hierotek_circle"``)."""
    return slug(team.id)


def rule_id(team: str, kind: str, name: str) -> str:
    """The id of the rule ``name`` of kind ``kind`` of the team with key ``team``.

    Raises:
        ValueError: an unknown kind.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown team rule kind {kind!r} (kinds: {', '.join(KINDS)})")
    return f"{slug(team)}/{kind}/{slug(name)}"


def register(
    rule_id: str,
    installer: Installer,
    summary: str,
    *,
    for_keyword: Callable[[str], Installer] | None = None,
) -> None:
    """Register the implementation of the rule ``rule_id`` (module docstring); with
    ``for_keyword``, how to install it for another team keyword
    (:attr:`RuleImplementation.for_keyword`).

    Raises:
        ValueError: a malformed id, an unknown kind, or a second, different implementation
            of the same id.
    """
    if not _ID_RE.fullmatch(rule_id) or rule_id.split("/")[1] not in KINDS:
        raise ValueError(f"malformed team rule id {rule_id!r} (expected team/kind/name_slug)")
    old = _REGISTRY.get(rule_id)
    if old is not None and old.installer is not installer:
        raise ValueError(f"team rule {rule_id!r} is already implemented by {old.installer!r}")
    _REGISTRY[rule_id] = RuleImplementation(rule_id, installer, summary, for_keyword)
    _BY_REF.clear()


_EQUIPMENT_VALUES: dict[str, float] = {}


def register_choice(team: str, spec: ChoiceSpec) -> None:
    """Declare the roster-time choice ``spec`` of the team with key ``team``
    (:func:`team_key`, e.g. ``"legionaries"``); stored in the team model
    (:func:`engine.teams.choices.declare`), where rosters read it.

    Raises:
        ValueError: a spec without options, a count below 1, a default that is not a legal
            value, a forbidden option that is not an option, or a second, different spec of
            the same name for the team.
    """
    choices.declare(team, spec)


def choice_specs(team: Team | str) -> tuple[ChoiceSpec, ...]:
    """The roster-time choices the team (a :class:`Team` or a team key) declares, in
    declaration order."""
    _load()
    key = team if isinstance(team, str) else team_key(team)
    return choices.specs_of(key)


def register_equipment_value(rule_id: str, value: float) -> None:
    """How much the heuristic agent values the team equipment ``rule_id``
    (``"<team>/equipment/<slug>"``): it selects equipment by decreasing value; universal
    options in :data:`engine.agents.equipment_choices.PREFERENCE` are worth 4, 3, 2, 1 (the
    others are not selected), unregistered team equipment :data:`DEFAULT_EQUIPMENT_VALUE`;
    a negative value is never selected."""
    _EQUIPMENT_VALUES[rule_id] = float(value)


DEFAULT_EQUIPMENT_VALUE = 2.5
"""The heuristic agent's value of a team equipment option no module valued: below the two
grenade options, above the Ammo Cache and the Portable Barricade (so with the default values
the heuristic takes both grenade options and two team options)."""


def equipment_value(rule_id: str) -> float:
    """The value registered by :func:`register_equipment_value`, or
    :data:`DEFAULT_EQUIPMENT_VALUE`."""
    _load()
    return _EQUIPMENT_VALUES.get(rule_id, DEFAULT_EQUIPMENT_VALUE)


_RULE_LOADERS: list[Callable[[], None]] = []
_RAN: list[Callable[[], None]] = []  # the loaders run already


def add_rule_loader(loader: Callable[[], None]) -> None:
    """Have the registry call ``loader()`` once, before it is first read: a composition root
    (:mod:`engine.rulesets`) names the packages of team rule code it plays this way (the
    loader imports them, and each module registers its rules), so the rule framework
    imports no team's code itself. A loader added twice runs once."""
    if loader not in _RULE_LOADERS:
        _RULE_LOADERS.append(loader)
        _LOADED[0] = False


def _load() -> None:
    """Run the rule loaders not run yet (:func:`add_rule_loader`), after the installed rule
    packages' (:func:`engine.teams.choices.discover_rule_packages`)."""
    if _LOADED[0]:
        return
    _LOADED[0] = True
    choices.discover_rule_packages()
    for loader in list(_RULE_LOADERS):
        if loader not in _RAN:
            _RAN.append(loader)
            loader()


choices.add_loader(_load)


def implementation(rule_id: str) -> RuleImplementation | None:
    """The registered implementation of ``rule_id``, or None."""
    _load()
    return _REGISTRY.get(rule_id)


def _weapon_label(weapon_name: str, profile_name: str) -> str:
    return f"{weapon_name} ({profile_name})" if profile_name else weapon_name


def _same_rule(ref: str) -> list[str]:
    """The registered ids whose ``kind/slug`` is ``ref``, sorted."""
    if _BY_REF.get("", [""])[0] != str(len(_REGISTRY)):
        _BY_REF.clear()
        _BY_REF[""] = [str(len(_REGISTRY))]
        for rid in sorted(_REGISTRY):
            _BY_REF.setdefault(rid.split("/", 1)[1], []).append(rid)
    return [rid for rid in _BY_REF.get(ref, []) if rid in _REGISTRY]


def _played_by(rid: str, text: str | None, keyword: str) -> tuple[str | None, str]:
    """``(played_by, reason)`` of the rule ``rid`` of a team whose printed text of it has
    the key ``text`` (None: no text) and whose keyword is ``keyword`` (module docstring)."""
    own = implementation(rid)
    printed = PRINTED_TEXTS.get(rid)
    if own is not None:
        if text is not None and printed is not None and printed[0] != text:
            return None, f"its printed text is not the text {rid} plays"
        return rid, ""
    others = [o for o in _same_rule(rid.split("/", 1)[1]) if o != rid]
    if not others:
        return None, "not implemented"
    if text is None:
        return None, f"no printed text to compare with {', '.join(others)}"
    same = [o for o in others if o in PRINTED_TEXTS and PRINTED_TEXTS[o][0] == text]
    if not same:
        return None, f"same name as {', '.join(others)}, another text"
    for other in same:
        theirs = PRINTED_TEXTS[other][1]
        if not names_keyword(text) or theirs == keyword:
            return other, ""
        if _REGISTRY[other].for_keyword is not None:
            return other, ""
    return None, (
        f"same text as {same[0]}, which plays it for {PRINTED_TEXTS[same[0]][1]} operatives "
        f"only (not for {keyword or 'a team without a keyword'})"
    )


def team_rules(team: Team) -> list[RuleDeclaration]:
    """Every team rule of ``team``, sorted by kind (:data:`KINDS` order) then id; a rule that
    appears in several places is one entry listing all of them in ``sources``; each says
    whether it is played and through which implementation (module docstring).

    Args:
        team: a :class:`~engine.teams.model.Team`.
    """
    _load()
    key = team_key(team)
    found: dict[str, tuple[str, str, list[str]]] = {}

    def add(kind: str, name: str, source: str) -> None:
        rid = rule_id(key, kind, name)
        entry = found.setdefault(rid, (kind, name, []))
        if source not in entry[2]:
            entry[2].append(source)

    for ab in team.abilities:
        add("faction_rule", ab.name, "team")
    for op in team.operatives:
        for ab in op.abilities:
            add("ability", ab.name, f"operative {op.name}")
        for act in op.actions:
            add("unique_action", act.name, f"operative {op.name}")
    for ploy in team.ploys:
        add(f"{ploy.kind}_ploy", ploy.name, "team")
    for eq in team.equipment:
        add("equipment", eq.name, "team")
    carriers: list[tuple[str, tuple[Weapon, ...]]] = [
        (op.name, op.weapons) for op in team.operatives
    ]
    carriers += [(f"equipment {eq.name}", eq.weapons) for eq in team.equipment]
    for owner, weapons in carriers:
        for weapon in weapons:
            for prof in weapon.profiles:
                for spec in prof.rules:
                    if isinstance(spec, TeamRule):
                        label = _weapon_label(weapon.name, prof.name)
                        add("weapon_rule", spec.rule_name, f"{owner}: {label}")
                for name in prof.kt21_rules.team_rules():  # KT21 "Name*" (rules/KT21.md 12)
                    add("weapon_rule", name, f"{owner}: {_weapon_label(weapon.name, prof.name)}")
                kt18_abilities = prof.kt18.abilities if prof.kt18 is not None else ()
                for name in kt18_abilities:  # a KT18 weapon's abilities (rules/KT18.md 1.8)
                    add("weapon_rule", name, f"{owner}: {_weapon_label(weapon.name, prof.name)}")
    order = {k: i for i, k in enumerate(KINDS)}
    texts = dict(team.rule_texts)
    keyword = team_keyword(team) if texts else ""
    out = []
    for rid, (kind, name, src) in found.items():
        by, why = _played_by(rid, texts.get(rule_ref(kind, name)), keyword)
        out.append(RuleDeclaration(rid, kind, name, by is not None, tuple(src), by, why))
    return sorted(out, key=lambda d: (order[d.kind], d.id))


def unimplemented_rules(team: Team) -> list[RuleDeclaration]:
    """The rules of :func:`team_rules` that no implementation plays, in the same order."""
    return [d for d in team_rules(team) if not d.implemented]


def installer_of(decl: RuleDeclaration, keyword: str) -> Installer | None:
    """The installer that plays ``decl`` (a :func:`team_rules` entry) for a team with
    ``keyword``: its implementation's, or, for a rule shared from a team of another keyword
    whose text names it, the one ``for_keyword`` builds (one per rule and keyword, so a
    battle installs it once); None when it is not played."""
    if decl.played_by is None:
        return None
    impl = _REGISTRY[decl.played_by]
    printed = PRINTED_TEXTS.get(decl.played_by)
    if (
        not decl.shared
        or printed is None
        or not names_keyword(printed[0])
        or printed[1] == keyword
        or impl.for_keyword is None
    ):
        return impl.installer
    made = _FOR_KEYWORD.get((decl.played_by, keyword))
    if made is None:
        made = _FOR_KEYWORD[(decl.played_by, keyword)] = impl.for_keyword(keyword)
    return made


def install(hooks: Hooks, rosters: Mapping[str, Roster]) -> None:
    """Subscribe the implemented rules of the teams in play to ``hooks``: each installer
    once, for the players whose team declares one of its rule ids (in registry order of the
    first player's rules, so the hook order is deterministic).

    Args:
        hooks: the battle's :class:`~engine.game.context.Hooks`.
        rosters: ``{"A": roster, "B": roster}``.
    """
    plan: list[tuple[Installer, list[str]]] = []
    for player in sorted(rosters):
        team = rosters[player].team
        keyword = team_keyword(team)
        for decl in team_rules(team):
            installer = installer_of(decl, keyword)
            if installer is None:
                continue
            for inst, players in plan:
                if inst is installer:
                    if player not in players:
                        players.append(player)
                    break
            else:
                plan.append((installer, [player]))
    for inst, players in plan:
        inst(hooks, tuple(players))


def install_universal(hooks: Hooks) -> None:
    """Subscribe the universal rule modules (``engine.rules``: Command Re-roll, effects
    with durations, the universal equipment) to a battle's ``hooks``."""
    from engine.rules import command_reroll, effects, equipment

    command_reroll.install(hooks)
    effects.install(hooks)
    equipment.install(hooks)
