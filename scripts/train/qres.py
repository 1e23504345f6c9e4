"""Reader for Qt resource files (`.rcc`, the "qres" format) — enough to list and extract the files inside.

Layout (all big-endian): magic "qres", version, tree offset, data offset, names offset (+ flags from version 3).
A tree node is name offset (u32), flags (u16), then either child count + first child (directories) or
country, language (u16 each) + data offset (files), then an 8-byte modification time from version 2.
Flag 1 = zlib-compressed (the data starts with the uncompressed size), 2 = directory, 4 = zstd-compressed.
"""
import struct
import zlib

COMPRESSED, DIRECTORY, ZSTD = 1, 2, 4


class QRes:
    def __init__(self, blob: bytes):
        if blob[:4] != b"qres":
            raise ValueError("not a Qt resource file (no 'qres' magic)")
        self.blob = blob
        self.version, self.tree, self.data, self.names = struct.unpack_from(">IIII", blob, 4)
        self.node_size = 14 if self.version < 2 else 22

    def _name(self, offset):
        length = struct.unpack_from(">H", self.blob, self.names + offset)[0]
        start = self.names + offset + 6  # length (u16) + hash (u32)
        return self.blob[start:start + 2 * length].decode("utf-16-be")

    def _node(self, index):
        base = self.tree + index * self.node_size
        name_offset, flags = struct.unpack_from(">IH", self.blob, base)
        if flags & DIRECTORY:
            count, first = struct.unpack_from(">II", self.blob, base + 6)
            return name_offset, flags, (count, first)
        data_offset = struct.unpack_from(">I", self.blob, base + 10)[0]
        return name_offset, flags, data_offset

    def files(self):
        """Yields (path, flags, data offset) for every file, depth first from the root node."""
        stack = [(0, "")]
        while stack:
            index, prefix = stack.pop()
            name_offset, flags, payload = self._node(index)
            name = "" if index == 0 else self._name(name_offset)
            path = f"{prefix}/{name}" if prefix else name
            if flags & DIRECTORY:
                count, first = payload
                stack.extend((first + i, path) for i in range(count))
            else:
                yield path, flags, payload

    def read(self, flags, data_offset):
        """The uncompressed bytes of one file."""
        start = self.data + data_offset
        size = struct.unpack_from(">I", self.blob, start)[0]
        raw = self.blob[start + 4:start + 4 + size]
        if flags & ZSTD:
            raise ValueError("zstd-compressed entry (not needed for images, which rcc stores as is)")
        if flags & COMPRESSED:
            return zlib.decompress(raw[4:])
        return raw
