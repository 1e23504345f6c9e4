"""The engine over NumPy arrays."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence, Union

import numpy as np

from ._errors import InvalidArgumentError, error_for
from ._library import ffi, lib

PathLike = Union[str, "os.PathLike[str]"]
_OUTPUT = {"keep": 0, "srgb": 1, "display-p3": 2, "adobe-rgb": 3, "rec2020": 4}
_INTENT = {"relative": 0, "perceptual": 1}
_INTERPOLATION = {"tetrahedral": 0, "trilinear": 1}


@dataclass(frozen=True)
class Look:
    """A catalog look."""

    guid: str
    name: str
    tags: tuple[str, ...]
    description: str
    cube_size: int
    version: int
    working_space: str


@dataclass(frozen=True)
class Face:
    """A face box in the image's pixels (it may reach past the edges) and the detector's score."""

    x: int
    y: int
    width: int
    height: int
    score: float


@dataclass(frozen=True)
class Analysis:
    """An image analysed once (`Engine.detect`): reuse it for any number of `Engine.correct` calls."""

    scene: int
    scene_name: str
    confidence: float
    faces: tuple[Face, ...]
    report: dict[str, Any] = field(repr=False)
    _handle: Any = field(repr=False, compare=False)


def _check(status: int, error: Any) -> None:
    """Raises the exception for a failed call, freeing the C error."""
    if status == 0:
        return
    message = ffi.string(lib.lookstudio_error_message(error[0])).decode("utf-8", "replace")
    lib.lookstudio_error_free(error[0])
    raise error_for(status, message)


def _text(value: Optional[PathLike], keep: list) -> Any:
    """A C string for `value` (NULL for None), kept alive in `keep` for the call."""
    if value is None:
        return ffi.NULL
    data = ffi.new("char[]", os.fsencode(value))
    keep.append(data)
    return data


def _choice(table: dict[str, int], value: str, name: str) -> int:
    try:
        return table[value]
    except KeyError:
        raise InvalidArgumentError(f"{name}={value!r}: use one of {', '.join(map(repr, table))}") from None


class _Image:
    """A C image over an array's memory (never copied); the array stays referenced while the image lives."""

    def __init__(self, array: np.ndarray, icc: Optional[bytes], role: str = "array") -> None:
        channels, itemsize = _check_array(array, role)
        desc = ffi.new("lookstudio_image_desc *")
        lib.lookstudio_image_desc_init(desc)
        desc.channels, desc.bits = channels, 8 * itemsize
        desc.height, desc.width = array.shape[0], array.shape[1]
        desc.stride = array.strides[0]
        desc.pixels = ffi.cast("void *", array.__array_interface__["data"][0])
        self._keep = [array]
        if icc:
            data = ffi.from_buffer(icc)
            self._keep.append(data)
            desc.icc, desc.icc_size = ffi.cast("const uint8_t *", data), len(icc)
        out, error = ffi.new("lookstudio_image **"), ffi.new("lookstudio_error **")
        _check(lib.lookstudio_image_create(desc, out, error), error)
        self.handle = ffi.gc(out[0], lib.lookstudio_image_free)


def _check_array(array: Any, role: str) -> tuple[int, int]:
    """Channels and bytes per sample of an array the engine accepts; a clear exception for any other."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{role} must be a numpy.ndarray, not {type(array).__name__}")
    if array.dtype.kind != "u" or array.itemsize not in (1, 2):
        raise TypeError(f"{role} has dtype {array.dtype}: use numpy.uint8 or numpy.uint16 (convert with "
                        f"array.astype(numpy.uint16) after scaling to 0…65535)")
    if array.ndim != 3 or array.shape[2] not in (3, 4):
        raise InvalidArgumentError(f"{role} has shape {array.shape}: use (height, width, 3) for RGB or "
                                   f"(height, width, 4) for RGBA")
    if array.shape[0] == 0 or array.shape[1] == 0:
        raise InvalidArgumentError(f"{role} has shape {array.shape}: an image needs at least one pixel")
    if not array.dtype.isnative:
        raise InvalidArgumentError(f"{role} has byte order {array.dtype.byteorder!r}: use native-endian samples "
                                   f"(array.astype(array.dtype.newbyteorder('=')))")
    channels, itemsize = array.shape[2], array.itemsize
    if array.strides[2] != itemsize or array.strides[1] != channels * itemsize or array.strides[0] <= 0:
        raise InvalidArgumentError(f"{role} is not contiguous within its rows (strides {array.strides}): pass "
                                   f"numpy.ascontiguousarray({role}); rows may be apart, pixels may not")
    return channels, itemsize


def _output(array: Any, out: Any) -> np.ndarray:
    """`out` once it is an array `array` can be rendered into, or a new array when it is None; a clear exception
    otherwise."""
    _check_array(array, "array")
    if out is None:
        return np.empty(array.shape, dtype=array.dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy.ndarray, not {type(out).__name__}")
    if out.dtype != array.dtype:
        raise TypeError(f"out has dtype {out.dtype}, the array {array.dtype}: out needs the array's dtype")
    if out.shape != array.shape:
        raise InvalidArgumentError(f"out has shape {out.shape}, the array {array.shape}: out needs the array's shape")
    if not out.flags.c_contiguous:
        raise InvalidArgumentError(f"out is not C-contiguous (strides {out.strides}): pass an array made by "
                                   f"numpy.empty_like(array) or numpy.ascontiguousarray")
    if not out.flags.writeable:
        raise InvalidArgumentError("out is read-only: pass a writeable array")
    # The bounds test, as the C library's: an `out` between a crop's rows is refused too.
    if np.may_share_memory(out, array):
        raise InvalidArgumentError("out overlaps the array's memory: the input would be overwritten while it is "
                                   "read; pass a separate array")
    return out


class Engine:
    """LookStudio's engine, opened once on a catalog; every method is safe from any thread at once and releases
    the GIL while it works. Results are the bytes `lookstudio apply --look` (`apply`) and `lookstudio correct`
    (`correct`) write for the same decoded pixels."""

    def __init__(self, catalog: Optional[PathLike] = None, *, plugin_dirs: Sequence[PathLike] = ()) -> None:
        """Opens `catalog` (None: $LOOKSTUDIO_CATALOG, else the XDG default, as the command line) read-only; a
        catalog that does not exist is created and seeded. `plugin_dirs` are searched for plugins first."""
        options = ffi.new("lookstudio_engine_options *")
        lib.lookstudio_engine_options_init(options)
        keep: list = []
        options.catalog_path = _text(catalog, keep)
        if plugin_dirs:
            options.plugin_dirs = _text(":".join(os.fsdecode(d) for d in plugin_dirs), keep)
        out, error = ffi.new("lookstudio_engine **"), ffi.new("lookstudio_error **")
        _check(lib.lookstudio_engine_open(options, out, error), error)
        self._engine = ffi.gc(out[0], lib.lookstudio_engine_close)

    def close(self) -> None:
        """Closes the engine now rather than when it is collected; no call may be running."""
        if self._engine is not None:
            ffi.release(self._engine)
            self._engine = None

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def looks(self, tag: Optional[str] = None) -> list[Look]:
        """The catalog's looks by name (those tagged `tag` when given)."""
        keep: list = []
        out, error = ffi.new("lookstudio_looks **"), ffi.new("lookstudio_error **")
        _check(lib.lookstudio_looks_list(self._handle(), _text(tag, keep), out, error), error)
        return _looks(out[0])

    def look(self, reference: str) -> Look:
        """The look `reference` names (GUID, GUID prefix, name or name@N); NotFoundError when there is none."""
        keep: list = []
        out, error = ffi.new("lookstudio_looks **"), ffi.new("lookstudio_error **")
        _check(lib.lookstudio_look_find(self._handle(), _text(reference, keep), out, error), error)
        return _looks(out[0])[0]

    def detect(self, array: np.ndarray, *, icc: Optional[bytes] = None) -> Analysis:
        """Analyses an image once: scene, confidence, faces, the automatic correction's plan. `icc` is the
        pixels' ICC profile (None: sRGB)."""
        image = _Image(array, icc)
        out, error = ffi.new("lookstudio_analysis **"), ffi.new("lookstudio_error **")
        _check(lib.lookstudio_detect(self._handle(), image.handle, out, error), error)
        return _analysis(out[0])

    def detect_file(self, path: PathLike) -> Analysis:
        """Analyses an image file exactly as `lookstudio detect` and `correct` do (a JPEG through a reduced
        decode, so its analysis can differ slightly from `detect` on its fully decoded pixels)."""
        keep: list = []
        out, error = ffi.new("lookstudio_analysis **"), ffi.new("lookstudio_error **")
        _check(lib.lookstudio_detect_file(self._handle(), _text(path, keep), out, error), error)
        return _analysis(out[0])

    def apply(self, array: np.ndarray, look: str, strength: float = 100.0, *, icc: Optional[bytes] = None,
              output_space: str = "keep", intent: str = "relative", interpolation: str = "tetrahedral",
              threads: Optional[int] = None, out: Optional[np.ndarray] = None) -> np.ndarray:
        """A new array (or `out`) of the same shape and dtype: `array` (not copied) with the catalog look `look`
        (GUID, GUID prefix or name) at `strength` percent (0…200), as `lookstudio apply --look LOOK --strength
        STRENGTH`. `output_space`: keep (the input's), srgb, display-p3, adobe-rgb, rec2020; `threads`: cores (None:
        all). `out`: an array to render into and return instead of a new one (same shape and dtype as `array`,
        C-contiguous, writeable, sharing no memory with `array`), so a loop over frames allocates nothing."""
        target = _output(array, out)
        return self._render(array, icc, None, dict(look=look, look_strength=strength, auto_correct=0,
                                                   output_space=output_space, intent=intent,
                                                   interpolation=interpolation, threads=threads), target)

    def correct(self, array: np.ndarray, analysis: Optional[Analysis] = None, look: Optional[str] = None,
                strength: float = 100.0, *, look_strength: Optional[float] = None, look_contrast: float = 0.0,
                look_saturation: float = 0.0, no_look: bool = False, auto: Optional[bool] = None,
                exposure: float = 100.0, levels: float = 100.0, white_balance: float = 100.0,
                contrast: float = 100.0, vibrance: float = 100.0, recipe: Optional[PathLike] = None,
                icc: Optional[bytes] = None, output_space: str = "keep", intent: str = "relative",
                interpolation: str = "tetrahedral", threads: Optional[int] = None,
                out: Optional[np.ndarray] = None) -> np.ndarray:
        """A new array (or `out`): `array` corrected as `lookstudio correct` does — automatic correction (`auto`
        None: the scene's preset; stages in percent of the engine's choice), `recipe` (a pre-look recipe file,
        composed with the plugins), the look (None: the scene's default), overall `strength` 0…100. Pass the
        `analysis` of an earlier `detect` to analyse once and render many. `out`: as in `apply`, an array to render
        into and return."""
        # A bad `out` is refused before the analysis, which is the slow part.
        target = _output(array, out)
        if analysis is None:
            analysis = self.detect(array, icc=icc)
        return self._render(array, icc, analysis, dict(
            look=look, look_strength=look_strength, strength=strength, look_contrast=look_contrast,
            look_saturation=look_saturation, no_look=no_look, auto_correct=-1 if auto is None else int(auto),
            exposure=exposure, levels=levels, white_balance=white_balance, contrast=contrast, vibrance=vibrance,
            recipe=recipe, output_space=output_space, intent=intent, interpolation=interpolation, threads=threads),
            target)

    def cube(self, look: Optional[str] = None, size: int = 33, strength: float = 100.0, *,
             analysis: Optional[Analysis] = None, icc: Optional[bytes] = None, output_space: str = "keep",
             intent: str = "relative") -> np.ndarray:
        """The one cube `apply` (or, with `analysis`, `correct`) uses for an image tagged `icc` (None: sRGB), as a
        float32 array (size, size, size, 3) indexed [blue, green, red], mapping input code values 0…1 to output
        code values: for applying the look on a GPU."""
        values = np.empty((size, size, size, 3), dtype=np.float32) if 2 <= size <= 256 else np.empty(0, np.float32)
        keep: list = []
        params = self._params(dict(look=look, look_strength=strength, auto_correct=0 if analysis is None else -1,
                                   output_space=output_space, intent=intent), keep)
        image = _Image(np.zeros((1, 1, 3), np.uint8), icc) if icc else None
        error = ffi.new("lookstudio_error **")
        _check(lib.lookstudio_cube(self._handle(), image.handle if image else ffi.NULL,
                                   analysis._handle if analysis else ffi.NULL, params, size,
                                   ffi.cast("float *", values.ctypes.data), values.size, error), error)
        return values

    def _handle(self) -> Any:
        if self._engine is None:
            raise InvalidArgumentError("the engine is closed")
        return self._engine

    def _render(self, array: np.ndarray, icc: Optional[bytes], analysis: Optional[Analysis],
                fields: dict[str, Any], result: np.ndarray) -> np.ndarray:
        keep: list = []
        params = self._params(fields, keep)
        source = _Image(array, icc)
        target = _Image(result, None, role="out")
        error = ffi.new("lookstudio_error **")
        _check(lib.lookstudio_apply(self._handle(), source.handle, analysis._handle if analysis else ffi.NULL,
                                    params, target.handle, error), error)
        return result

    @staticmethod
    def _params(fields: dict[str, Any], keep: list) -> Any:
        """A `lookstudio_params` from keyword values (None: the default); strings kept alive in `keep`."""
        params = ffi.new("lookstudio_params *")
        lib.lookstudio_params_init(params)
        keep.append(params)
        for name, value in fields.items():
            if value is None:
                continue
            if name in ("look", "recipe"):
                setattr(params, name, _text(value, keep))
            elif name in ("output_space", "intent", "interpolation"):
                table = {"output_space": _OUTPUT, "intent": _INTENT, "interpolation": _INTERPOLATION}[name]
                setattr(params, name, _choice(table, value, name))
            else:
                setattr(params, name, value)
        return params


def _string(pointer: Any) -> str:
    return ffi.string(pointer).decode("utf-8")


def _looks(handle: Any) -> list[Look]:
    """The looks of a C look list, which is freed."""
    handle = ffi.gc(handle, lib.lookstudio_looks_free)
    info, error = ffi.new("lookstudio_look_info *"), ffi.new("lookstudio_error **")
    info.struct_size = ffi.sizeof("lookstudio_look_info")
    found = []
    for index in range(lib.lookstudio_looks_count(handle)):
        _check(lib.lookstudio_looks_get(handle, index, info, error), error)
        found.append(Look(guid=_string(info.guid), name=_string(info.name),
                          tags=tuple(_string(info.tags[i]) for i in range(info.tag_count)),
                          description=_string(info.description), cube_size=info.cube_size, version=info.version,
                          working_space=_string(info.working_space)))
    return found


def _analysis(handle: Any) -> Analysis:
    """An Analysis owning the C analysis."""
    handle = ffi.gc(handle, lib.lookstudio_analysis_free)
    info, error = ffi.new("lookstudio_analysis_info *"), ffi.new("lookstudio_error **")
    info.struct_size = ffi.sizeof("lookstudio_analysis_info")
    _check(lib.lookstudio_analysis_get(handle, info, error), error)
    faces = tuple(Face(f.x, f.y, f.width, f.height, f.score) for f in (info.faces[i] for i in range(info.face_count)))
    return Analysis(scene=info.scene, scene_name=_string(info.scene_name),
                    confidence=info.confidence, faces=faces, report=json.loads(ffi.string(info.json)),
                    _handle=handle)
