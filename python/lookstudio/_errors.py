"""The exceptions the engine raises, one per C status."""

from __future__ import annotations


class LookStudioError(Exception):
    """An engine call failed; `status` is the C API's status value, the message says what to change."""

    status = 5

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidArgumentError(LookStudioError, ValueError):
    """The call was wrong: a size, a stride, a value out of range, an unusable ICC profile."""

    status = 1


class NotFoundError(LookStudioError, LookupError):
    """No look (scene, version, file) by that reference."""

    status = 2


class UnavailableError(LookStudioError):
    """The catalog is busy or the disk is full: the call may be retried."""

    status = 3


class CatalogBrokenError(LookStudioError):
    """The catalog cannot be used until it is repaired (not a catalog, damaged, from a newer LookStudio)."""

    status = 4


_BY_STATUS = {cls.status: cls for cls in (InvalidArgumentError, NotFoundError, UnavailableError, CatalogBrokenError)}


def error_for(status: int, message: str) -> LookStudioError:
    """The exception for a C status."""
    return _BY_STATUS.get(status, LookStudioError)(message)
