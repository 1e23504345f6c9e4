"""Finds liblookstudio and declares its C API to cffi (ABI mode: no compiler needed at install time)."""

from __future__ import annotations

import ctypes.util
import os
import subprocess
import sys
from importlib import resources

import cffi

ffi = cffi.FFI()
# The declarations between the "cdef" markers of lookstudio.h, shipped with the package (a check in the
# LookStudio repository keeps the copy equal to the header).
ffi.cdef(resources.files(__package__).joinpath("_cdef.h").read_text(encoding="utf-8"))

_NAME = "liblookstudio.so"


def _candidates() -> list[str]:
    """Where the library may be, in the order tried."""
    found = []
    named = os.environ.get("LOOKSTUDIO_LIBRARY")
    if named:
        found.append(named)
    try:
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "lookstudio"], capture_output=True, text=True,
                                check=True, timeout=10).stdout.strip()
        if libdir:
            found.append(os.path.join(libdir, _NAME))
    except (OSError, subprocess.SubprocessError):
        pass
    found += [os.path.join(prefix, "lib", _NAME) for prefix in dict.fromkeys((sys.prefix, sys.base_prefix))]
    system = ctypes.util.find_library("lookstudio")
    if system:
        found.append(system)
    return found


def _load():
    tried = []
    for path in _candidates():
        try:
            library = ffi.dlopen(path)
        except OSError as error:
            tried.append(f"{path} ({error})")
            continue
        version = library.lookstudio_abi_version()
        if version != library.LOOKSTUDIO_ABI_VERSION:
            raise ImportError(f"{path} has C ABI version {version}; this package needs "
                              f"{library.LOOKSTUDIO_ABI_VERSION}: install matching versions")
        return library
    raise ImportError("liblookstudio was not found; install it (make install PREFIX=… in the LookStudio "
                      "repository) or set LOOKSTUDIO_LIBRARY to its path. Tried: " + "; ".join(tried or ["nothing"]))


lib = _load()
