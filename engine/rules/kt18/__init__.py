"""The KT18 rule modules (``rules/KT18.md``): the battle round's phases and their frames.

(A placeholder of the package in the attacks branch: the ruleset's own ``__init__`` replaces
it and calls :func:`engine.rules.kt18.attacks_install.install_attacks`.)
"""
