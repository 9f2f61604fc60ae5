"""The Kommandos' faction rules
(registered by rule id in ``engine.rules.registry``).
"""
