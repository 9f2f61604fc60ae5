"""Exceptions raised by the engine.

Every error carries a message that names what is wrong and where, so that the command line
can print it on one line without a traceback.
"""


class KillTeamError(Exception):
    """Base class of every error the engine raises on bad input."""


class WeaponRuleError(KillTeamError, ValueError):
    """A weapon-rule string could not be parsed.

    Attributes:
        token: the offending comma-separated token (as written).
        text: the whole string being parsed.
    """

    def __init__(self, message: str, *, token: str = "", text: str = "") -> None:
        super().__init__(message)
        self.token = token
        self.text = text


class ProfileError(KillTeamError, ValueError):
    """An attack profile, target or fighter was given an impossible value (e.g. Hit 7+)."""
