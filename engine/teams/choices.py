"""Roster-time choices a team's rules ask for (:class:`ChoiceSpec`: Marks of Chaos, Chapter
Tactics...) and where the team model finds them (``rules/KT24.md`` 2.2; DESIGN.md "Growing
the rules").

The specs are declared by the team rule modules (``teams/<team>/``, a higher layer) through
:func:`engine.rules.registry.register_choice`, which stores them here with :func:`declare`;
:class:`~engine.teams.roster.Roster` reads them with :func:`specs_of`. The declaring modules
are imported on first use, so the registry also hands this module a loader
(:func:`add_loader`) that :func:`specs_of` runs once before its first read: the team model
imports nothing of ``engine.rules`` or ``engine.game``. Before its first read it also loads
the rule packages installed under the ``killteam.rules`` entry point group
(:func:`discover_rule_packages`; the engine's own: the built-in teams of the ``kt24``
ruleset), so a roster read before any battle or ruleset was loaded still knows its team's
choices.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points

import attrs

from engine.names import slug

__all__ = [
    "RULE_PACKAGES_GROUP",
    "ChoiceSpec",
    "add_loader",
    "declare",
    "discover_rule_packages",
    "specs_of",
]

RULE_PACKAGES_GROUP = "killteam.rules"
"""The entry point group through which installed packages of rule code announce a loader
(``pyproject.toml``: ``[project.entry-points."killteam.rules"]``): a function of no argument
that imports the rule modules, each registering its rules and choices."""

_DISCOVERED: list[bool] = [False]


def discover_rule_packages() -> None:
    """Run, once per process, the loader of every installed rule package
    (:data:`RULE_PACKAGES_GROUP`, in name order). This is how the team model and the rule
    registry find the rule code of an installed ruleset without importing anything above
    them (a package that is not installed, only on ``sys.path``, announces nothing: import
    :mod:`engine.rulesets` first)."""
    if _DISCOVERED[0]:
        return
    _DISCOVERED[0] = True
    for ep in sorted(entry_points(group=RULE_PACKAGES_GROUP), key=lambda e: e.name):
        ep.load()()


@attrs.frozen(slots=True)
class ChoiceSpec:
    """A choice a team's rules ask for when its roster is built (Marks of Chaos, Chapter
    Tactics...), declared by the team's module with
    :func:`engine.rules.registry.register_choice`.

    A value is always a tuple of ``count`` option names (canonical spelling). Team-level
    choices are made once per roster; per-operative choices once per operative of the types
    in ``operatives`` (every type when empty).

    Attributes:
        name: as the rules print it (``"Mark of Chaos"``); rosters and rules name it so.
        options: the option names, in printed order.
        per_operative: one value per operative instead of one per roster.
        count: options chosen (e.g. 2: a primary and a secondary Chapter Tactic, in that
            order).
        distinct: the ``count`` options must differ from each other.
        default: the value when a roster does not fix it; empty: the first ``count`` options
            (either way, options of the ``distinct_from`` choices are skipped).
        operatives: for a per-operative choice, the operative types that make it (empty:
            all); others have the value ``()``.
        distinct_from: names of team-level choices whose options this one may not repeat
            (a Sergeant's extra Chapter Tactic differs from the team's).
        forbidden: for a per-operative choice, ``(operative type, options)`` pairs: options
            that type may not take (a Balefire Acolyte cannot take Khorne).
        keyword: the chosen options are keywords the operatives have for the battle (in
            upper case, added to their datacards in ``GameContext.datacards``: a Mark of
            Chaos); for a team-level choice, every operative of the roster has them.
        summary: the project's own one-line summary.
    """

    name: str
    options: tuple[str, ...]
    per_operative: bool = False
    count: int = 1
    distinct: bool = True
    default: tuple[str, ...] = ()
    operatives: tuple[str, ...] = ()
    distinct_from: tuple[str, ...] = ()
    forbidden: tuple[tuple[str, tuple[str, ...]], ...] = ()
    keyword: bool = False
    summary: str = ""

    def forbidden_for(self, operative_type: str) -> tuple[str, ...]:
        """The options an operative of ``operative_type`` may not take (:attr:`forbidden`)."""
        return tuple(o for t, opts in self.forbidden if t == operative_type for o in opts)

    def default_value(self, excluded: tuple[str, ...] = ()) -> tuple[str, ...]:
        """``default``, or the first ``count`` options (repeating the first when there are
        fewer options and repeats are allowed). With ``excluded`` (the options of the
        ``distinct_from`` choices), a default that would repeat one of them is replaced by
        the first options that do not, so a default is always legal when possible."""
        base = self.default or (
            self.options[: self.count]
            if len(self.options) >= self.count
            else (self.options[0],) * self.count
        )
        if not set(base) & set(excluded):
            return base
        free = tuple(o for o in self.options if o not in excluded)
        return free[: self.count] if len(free) >= self.count else base

    def applies_to(self, operative_type: str) -> bool:
        """Whether an operative of ``operative_type`` makes this (per-operative) choice."""
        return not self.operatives or operative_type in self.operatives

    def canonical(self, value: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
        """``value`` (one name or a sequence; case-insensitive) as canonical option names.

        Raises:
            ValueError: naming the choice: an unknown option (listing the options), the
                wrong number of options, or a repeat when ``distinct``.
        """
        names = (value,) if isinstance(value, str) else tuple(value)
        out: list[str] = []
        for n in names:
            got = next(
                (o for o in self.options if isinstance(n, str) and o.casefold() == n.casefold()),
                None,
            )
            if got is None:
                raise ValueError(
                    f"choice {self.name!r}: no option {n!r} (options: {', '.join(self.options)})"
                )
            out.append(got)
        if len(out) != self.count:
            raise ValueError(f"choice {self.name!r}: choose {self.count} option(s), got {len(out)}")
        if self.distinct and len(set(out)) != len(out):
            raise ValueError(f"choice {self.name!r}: each option at most once, got {out}")
        return tuple(out)


_CHOICES: dict[str, dict[str, ChoiceSpec]] = {}
_LOADERS: list[Callable[[], None]] = []


def add_loader(loader: Callable[[], None]) -> None:
    """Have :func:`specs_of` call ``loader()`` before it reads (each loader once; a loader
    imports the modules that declare specs, e.g. the registry's import of the ``teams``
    package)."""
    if loader not in _LOADERS:
        _LOADERS.append(loader)


def declare(team: str, spec: ChoiceSpec) -> None:
    """Store the roster-time choice ``spec`` of the team with key ``team`` (a team key such as
    ``"legionaries"``; :func:`engine.names.slug` is applied).

    Raises:
        ValueError: a spec without options, a count below 1, a default that is not a legal
            value, a forbidden option that is not an option, or a second, different spec of
            the same name for the team.
    """
    if not spec.options or spec.count < 1:
        raise ValueError(f"choice {spec.name!r}: needs options and a count of at least 1")
    if spec.default:
        spec.canonical(spec.default)
    for _type, opts in spec.forbidden:
        unknown = [o for o in opts if o not in spec.options]
        if unknown:
            raise ValueError(f"choice {spec.name!r}: forbidden options {unknown} are not options")
    key = slug(team)
    old = _CHOICES.setdefault(key, {}).get(spec.name)
    if old is not None and old != spec:
        raise ValueError(f"choice {spec.name!r} of team {key!r} is already declared differently")
    _CHOICES[key][spec.name] = spec


def specs_of(team: str) -> tuple[ChoiceSpec, ...]:
    """The roster-time choices declared for the team with key ``team``, in declaration
    order (after running the loaders, :func:`add_loader`, and the installed rule packages'
    loaders, :func:`discover_rule_packages`)."""
    discover_rule_packages()
    for loader in _LOADERS:
        loader()
    return tuple(_CHOICES.get(slug(team), {}).values())
