"""Killzone layouts shipped with the engine (data files; see README.md here)."""
