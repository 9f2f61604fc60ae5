"""The rule modules of Kill Team 2018 (``rules/KT18.md``), installed by the KT18 composition
root (:mod:`engine.rulesets.kt18`; DESIGN.md "Rulesets")."""
