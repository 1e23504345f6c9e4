"""The Python package against an installed liblookstudio: results, and clear exceptions for bad arrays and
references. Run by scripts/check-sdk.sh with LOOKSTUDIO_TEST_CATALOG set to a seeded catalog."""

import os
import unittest
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import lookstudio

CATALOG = os.environ["LOOKSTUDIO_TEST_CATALOG"]


def photo(height: int = 48, width: int = 64, channels: int = 3, dtype=np.uint8) -> np.ndarray:
    """Smooth gradients with some texture."""
    y, x = np.mgrid[0:height, 0:width]
    planes = [x * 255 // (width - 1), y * 255 // (height - 1), (x * 7 + y * 13) % 256, (x + y) % 256][:channels]
    image = np.stack(planes, axis=-1).astype(np.uint8)
    return image.astype(np.uint16) * 257 if dtype == np.uint16 else image


class EngineTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.engine = lookstudio.Engine(catalog=CATALOG)
        cls.looks = cls.engine.looks()

    def test_apply_returns_a_new_array_of_the_same_shape_and_dtype_and_leaves_the_input(self) -> None:
        image = photo()
        before = image.copy()
        out = self.engine.apply(image, look=self.looks[0].guid, strength=60)
        self.assertEqual((out.shape, out.dtype), (image.shape, image.dtype))
        self.assertFalse(np.shares_memory(out, image))
        self.assertTrue(np.array_equal(image, before))
        self.assertFalse(np.array_equal(out, image))

    def test_out_receives_the_bytes_of_a_new_array_and_is_returned(self) -> None:
        for image in (photo(), photo(channels=4, dtype=np.uint16), photo(width=100)[5:40, 10:70]):
            expected = self.engine.apply(image, look=self.looks[0].guid, strength=60)
            out = np.full(image.shape, 7, dtype=image.dtype)
            self.assertIs(self.engine.apply(image, look=self.looks[0].guid, strength=60, out=out), out)
            self.assertTrue(np.array_equal(out, expected))

    def test_correct_renders_into_out(self) -> None:
        image = photo()
        analysis = self.engine.detect(image)
        expected = self.engine.correct(image, analysis=analysis, strength=70)
        out = np.empty_like(image)
        self.assertIs(self.engine.correct(image, analysis=analysis, strength=70, out=out), out)
        self.assertTrue(np.array_equal(out, expected))
        self.assertTrue(np.array_equal(self.engine.correct(image, out=np.empty_like(image)),
                                       self.engine.correct(image)))

    def test_a_look_by_name_is_the_look_by_guid(self) -> None:
        image = photo()
        by_guid = self.engine.apply(image, look=self.looks[1].guid)
        self.assertTrue(np.array_equal(by_guid, self.engine.apply(image, look=self.looks[1].name)))
        self.assertEqual(self.engine.look(self.looks[1].name), self.looks[1])

    def test_sixteen_bit_rgba_keeps_alpha(self) -> None:
        image = photo(channels=4, dtype=np.uint16)
        out = self.engine.apply(image, look=self.looks[0].guid)
        self.assertEqual(out.dtype, np.uint16)
        self.assertTrue(np.array_equal(out[..., 3], image[..., 3]))

    def test_a_crop_with_rows_apart_is_applied_without_a_copy_and_as_its_copy(self) -> None:
        image = photo(width=100)
        crop = image[5:40, 10:70]
        self.assertFalse(crop.flags.c_contiguous)
        expected = self.engine.apply(np.ascontiguousarray(crop), look=self.looks[2].guid)
        self.assertTrue(np.array_equal(self.engine.apply(crop, look=self.looks[2].guid), expected))

    def test_detect_once_correct_many(self) -> None:
        image = photo()
        analysis = self.engine.detect(image)
        self.assertEqual(analysis.report["label"], analysis.scene)
        outputs = [self.engine.correct(image, analysis=analysis, look=self.looks[0].guid, strength=s)
                   for s in (0, 40, 100)]
        self.assertTrue(np.array_equal(outputs[0], image))
        self.assertFalse(np.array_equal(outputs[1], outputs[2]))

    def test_the_cube_is_float32_indexed_blue_green_red(self) -> None:
        cube = self.engine.cube(self.looks[0].guid, size=5, strength=0)
        self.assertEqual((cube.shape, cube.dtype), ((5, 5, 5, 3), np.float32))
        self.assertTrue(np.allclose(cube[1, 2, 3], (0.75, 0.5, 0.25), atol=1e-6))

    def test_a_thread_pool_gives_the_sequential_outputs(self) -> None:
        image = photo(96, 128)
        jobs = [(look.guid, 30 + 10 * i) for i, look in enumerate(self.looks)] * 3
        sequential = [self.engine.apply(image, look=g, strength=s) for g, s in jobs]
        with ThreadPoolExecutor(4) as pool:
            parallel = list(pool.map(lambda job: self.engine.apply(image, look=job[0], strength=job[1]), jobs))
        self.assertTrue(all(np.array_equal(a, b) for a, b in zip(sequential, parallel)))


class BadInputTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.engine = lookstudio.Engine(catalog=CATALOG)
        cls.guid = cls.engine.looks()[0].guid

    def refused(self, error: type, array: object, needle: str, **kwargs: object) -> None:
        with self.assertRaises(error) as caught:
            self.engine.apply(array, look=kwargs.pop("look", self.guid), **kwargs)
        self.assertIn(needle, str(caught.exception))

    def test_wrong_dtypes_are_type_errors(self) -> None:
        self.refused(TypeError, photo().astype(np.float32), "dtype float32")
        self.refused(TypeError, photo().astype(np.int16), "dtype int16")
        self.refused(TypeError, [[1, 2, 3]], "numpy.ndarray")

    def test_wrong_shapes_are_invalid_arguments(self) -> None:
        self.refused(lookstudio.InvalidArgumentError, photo()[..., 0], "shape (48, 64)")
        self.refused(lookstudio.InvalidArgumentError, photo()[..., :2], "(height, width, 3)")
        self.refused(lookstudio.InvalidArgumentError, photo()[:0], "at least one pixel")

    def test_non_contiguous_pixels_and_foreign_byte_order_are_refused(self) -> None:
        self.refused(ValueError, photo()[:, ::2], "not contiguous within its rows")
        self.refused(ValueError, photo()[::-1], "not contiguous within its rows")
        self.refused(ValueError, photo(dtype=np.uint16).astype(">u2"), "byte order")

    def test_an_unusable_out_is_refused_with_what_is_wrong(self) -> None:
        image = photo()
        self.refused(TypeError, image, "out must be a numpy.ndarray", out=bytearray(image.nbytes))
        self.refused(TypeError, image, "out has dtype uint16", out=np.empty(image.shape, np.uint16))
        self.refused(ValueError, image, "out has shape (48, 63, 3)", out=np.empty((48, 63, 3), np.uint8))
        self.refused(ValueError, image, "not C-contiguous", out=np.empty((48, 128, 3), np.uint8)[:, ::2])
        self.refused(ValueError, image, "not C-contiguous", out=np.empty((48, 80, 3), np.uint8)[:, :64])
        read_only = np.empty_like(image)
        read_only.flags.writeable = False
        self.refused(ValueError, image, "read-only", out=read_only)
        self.refused(ValueError, image, "overlaps the array's memory", out=image)
        shifted = np.zeros(image.size + 3, np.uint8)
        self.refused(ValueError, shifted[:image.size].reshape(image.shape), "overlaps the array's memory",
                     out=shifted[3:].reshape(image.shape))
        with self.assertRaises(ValueError) as caught:
            self.engine.correct(image, out=image)
        self.assertIn("overlaps the array's memory", str(caught.exception))

    def test_unknown_looks_and_bad_values_raise_the_engines_exceptions(self) -> None:
        self.refused(lookstudio.NotFoundError, photo(), "no-such-look", look="no-such-look")
        self.refused(lookstudio.InvalidArgumentError, photo(), "250", strength=250)
        self.refused(lookstudio.InvalidArgumentError, photo(), "output_space", output_space="cmyk")
        with self.assertRaises(lookstudio.InvalidArgumentError):
            self.engine.cube(self.guid, size=1)

    def test_a_damaged_catalog_is_a_catalog_broken_error(self) -> None:
        path = CATALOG + ".damaged"
        with open(path, "wb") as file:
            file.write(bytes(range(256)) * 16)
        try:
            with self.assertRaises(lookstudio.CatalogBrokenError) as caught:
                lookstudio.Engine(catalog=path)
            self.assertIn(path, str(caught.exception))
        finally:
            os.remove(path)

    def test_a_closed_engine_refuses_calls(self) -> None:
        engine = lookstudio.Engine(catalog=CATALOG)
        engine.close()
        with self.assertRaises(lookstudio.InvalidArgumentError):
            engine.looks()


if __name__ == "__main__":
    unittest.main()
