"""The Kommandos' team equipment
(registered by rule id in ``engine.rules.registry``).
"""
