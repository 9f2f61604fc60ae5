"""What the readings of the editions before KT24 share (:class:`PriorEdition`): the KT21
(:mod:`engine.teams.importers.bsdata21`, ``rules/KT21.md`` 4.1) and KT18
(:mod:`engine.teams.importers.bsdata18`, ``rules/KT18.md`` 1.6) catalogues make teams whose
ids name their edition (``kt21_kasrkin``, ``kt18_orks``), whose dataslate names it too, and
they are read only with their own game system."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from engine.teams.importers.bsdata_common import Edition
from engine.teams.importers.bsdata_xml import _cut

__all__ = ["PriorEdition"]


class PriorEdition(Edition):
    """An edition before KT24 (:class:`~engine.teams.importers.bsdata_common.Edition`):
    ``--team`` also takes the team's id, the dataslate is ``<EDITION> catalogue revision N``
    and a catalogue of another game system than the ``.gst``'s, or a library catalogue, is
    refused. A subclass still implements :meth:`team_id` (its edition's ids)."""

    def matches(self, name: str, wanted: str) -> bool:
        """As for every edition, or ``wanted`` is the team's id (``kt21_kasrkin``,
        ``kt18_orks``: :meth:`team_id`)."""
        return super().matches(name, wanted) or wanted.lower() == self.team_id(name)

    def dataslate(self, revision: str | None) -> str:
        """``KT21 catalogue revision N`` (the edition in upper case; ``KT21`` alone when
        there is no revision)."""
        label = self.edition.upper()
        return f"{label} catalogue revision {revision}" if revision else label

    def refusal(self, cat: ET.Element, gst: ET.Element | None) -> str | None:
        """A catalogue of another game system than the ``.gst``'s (the message names both,
        and the edition's game system file, :attr:`game_system`), or a library catalogue,
        is no team of this edition."""
        if gst is not None and cat.get("gameSystemId") != gst.get("id"):
            return (
                f"refused: its game system {_cut(cat.get('gameSystemId', ''))} is not "
                f"{self.game_system!r} ({_cut(gst.get('id', ''))})"
            )
        if cat.get("library") == "true":
            return "refused: a library catalogue, not a team"
        return None
