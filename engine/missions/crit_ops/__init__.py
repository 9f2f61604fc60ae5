"""The nine crit ops of Approved Ops 2025 (``rules/KT24.md`` 8.3), one module each; each
registers an :class:`engine.missions.pack.OpSpec`."""
