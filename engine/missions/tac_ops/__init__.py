"""The twelve tac ops of Approved Ops 2025 (``rules/KT24.md`` 8.4), one module each; each
registers an :class:`engine.missions.pack.OpSpec`."""
