"""LookStudio's colour engine on NumPy arrays: catalog looks by GUID or name, scene detection once, automatic
correction and looks applied many times, cubes for GPUs. The results are the bytes the `lookstudio` command writes
for the same decoded pixels.

    engine = lookstudio.Engine()
    out = engine.apply(pixels, look="Warm Film", strength=60)
"""

from ._engine import Analysis, Engine, Face, Look
from ._errors import (CatalogBrokenError, InvalidArgumentError, LookStudioError, NotFoundError,
                      UnavailableError)
from ._library import lib as _lib

__version__ = "1.0.0"
#: The C ABI version of the loaded liblookstudio.
abi_version: int = _lib.lookstudio_abi_version()

__all__ = ["Analysis", "CatalogBrokenError", "Engine", "Face", "InvalidArgumentError", "Look", "LookStudioError",
           "NotFoundError", "UnavailableError", "abi_version"]
