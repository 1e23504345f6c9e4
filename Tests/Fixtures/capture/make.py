"""Writes this folder's photos: small synthetic pictures with EXIF capture times and cameras (Pillow)."""
import math

from PIL import Image


def picture(k):
    im = Image.new("RGB", (96, 64))
    px = im.load()
    for y in range(64):
        for x in range(96):
            t, u = x / 95, y / 63
            px[x, y] = (int(255 * (0.2 + 0.6 * abs(math.sin(3 * t + k)))),
                        int(255 * (0.15 + 0.7 * u * (0.5 + 0.5 * math.cos(k + t)))),
                        int(255 * (0.1 + 0.5 * (1 - u) * t + 0.2 * (k % 2))))
    return im


def save(name, k, make, model, time, subseconds=None):
    exif = Image.Exif()
    exif[0x010F], exif[0x0110] = make, model
    photo = {0x9003: time}  # DateTimeOriginal
    if subseconds:
        photo[0x9291] = subseconds  # SubSecTimeOriginal
    exif[0x8769] = photo
    picture(k).save(name, quality=85, exif=exif.tobytes())


save("a1.jpg", 0, "Canon", "EOS R5", "2026:05:01 10:00:00")
save("a2.jpg", 1, "Canon", "EOS R5", "2026:05:01 10:05:00", "50")
save("a3.jpg", 2, "Canon", "EOS R5", "2026:05:01 14:00:00")
save("b1.jpg", 3, "NIKON CORPORATION", "NIKON Z 6", "2026:05:01 10:03:00")
picture(4).save("u1.jpg", quality=85)
picture(5).save("u2.png")
