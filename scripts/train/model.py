"""The learned correction: FFCC-style histogram filters for cast (2-D, log-chroma) and exposure (1-D,
log-luminance), the measured veil, and how the amount follows the confidence. Sources/CorrectionModel mirrors
`chroma_histogram`, `luma_histogram`, `veil`, the two estimates and `amount` in Swift; keep them in step.
"""
import hashlib
import json
import os
import struct

import numpy as np

N_UV, DUV = 64, 1.0 / 16          # log-chroma bins (wrap-around: 4 log units)
N_Y, DY, Y_LOW = 128, 1.0 / 8, -16.0  # log2-luminance bins from 2^-16 to 1 (the top bin holds clipped pixels)
C_MIN, N_C = -1.5, 29              # exposure corrections in stops: -1.5 … +2.0 in steps of DY
DARK, BRIGHT = 0.004, 0.95         # chroma only from pixels with every channel in (DARK, BRIGHT)
LUMA = np.array([0.2126, 0.7152, 0.0722])
LONG_SIDE = 256


def downscale(lin, long_side=LONG_SIDE):
    """Box-average to at most `long_side` pixels on the long side (integer factor)."""
    h, w, _ = lin.shape
    f = max(1, int(np.ceil(max(h, w) / long_side)))
    h2, w2 = h // f, w // f
    return lin[:h2 * f, :w2 * f].reshape(h2, f, w2, f, 3).mean(axis=(1, 3))


def veil(small, threshold):
    """The veil to remove: the 0.5th percentile of each pixel's smallest channel above `threshold`."""
    black = float(np.percentile(small.min(axis=-1), 0.5))
    return max(0.0, black - threshold)


def remove_veil(lin, v):
    """x → (x − v) / (1 − min v): `v` one veil for every channel, or a tinted one per channel (a shoot's), whose
    removal scales the channels alike so that the cast under the veil is left for the white balance."""
    return (lin - v) / (1 - np.min(v)) if np.any(np.asarray(v) > 0) else lin


def chroma_histogram(small):
    """Normalised 64×64 histogram of u = log(G/R), v = log(G/B), wrapped; and the number of pixels used."""
    px = small.reshape(-1, 3)
    keep = (px.min(axis=1) > DARK) & (px.max(axis=1) < BRIGHT)
    px = px[keep]
    h = np.zeros((N_UV, N_UV))
    if len(px) == 0:
        return h, 0
    u = np.log(px[:, 1] / px[:, 0])
    v = np.log(px[:, 1] / px[:, 2])
    i = np.floor(u / DUV + 0.5).astype(np.int64) % N_UV
    j = np.floor(v / DUV + 0.5).astype(np.int64) % N_UV
    np.add.at(h, (i, j), 1.0)
    return h / len(px), len(px)


def luma_histogram(small):
    """Normalised histogram of log2 luminance over N_Y bins; darker pixels go to the first, clipped to the last."""
    y = np.clip(small.reshape(-1, 3) @ LUMA, 2.0 ** Y_LOW, 1.0)
    k = np.clip(np.floor((np.log2(y) - Y_LOW) / DY).astype(np.int64), 0, N_Y - 1)
    h = np.bincount(k, minlength=N_Y).astype(np.float64)
    return h / h.sum()


def shift_grid():
    """Cast offsets (log units) of every chroma bin, wrapped to [-N/2, N/2) bins."""
    k = (np.arange(N_UV) + N_UV // 2) % N_UV - N_UV // 2
    return k * DUV


def chroma_logits(hist_fft, f, b):
    """Z(L) = Σx H(x) F(x − L) + B(L) for a batch of histogram FFTs (…, N, N//2+1)."""
    return np.fft.irfft2(hist_fft * np.conj(np.fft.rfft2(f)), s=(N_UV, N_UV)) + b


def luma_logits(hists, f, b):
    """Z(c) = Σx H(x) F(x + c) + B(c) over the exposure corrections c."""
    windows = np.lib.stride_tricks.sliding_window_view(f, N_Y)  # (N_C, N_Y)
    return hists @ windows.T + b


def softmax(z, axes):
    z = z - z.max(axis=axes, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axes, keepdims=True)


def chroma_estimate(p):
    """Posterior mean (around the peak, wrap-aware) and spread sqrt(var u + var v) of a 64×64 posterior."""
    i0, j0 = np.unravel_index(np.argmax(p), p.shape)
    k = np.arange(N_UV)
    du = ((k - i0 + N_UV // 2) % N_UV - N_UV // 2) * DUV
    dv = ((k - j0 + N_UV // 2) % N_UV - N_UV // 2) * DUV
    pu, pv = p.sum(axis=1), p.sum(axis=0)
    mu, mv = (pu * du).sum(), (pv * dv).sum()
    var = (pu * (du - mu) ** 2).sum() + (pv * (dv - mv) ** 2).sum()
    g = shift_grid()
    return g[i0] + mu, g[j0] + mv, float(np.sqrt(var))


def luma_estimate(p):
    c = C_MIN + np.arange(N_C) * DY
    mean = (p * c).sum()
    return mean, float(np.sqrt((p * (c - mean) ** 2).sum()))


def ramp_amount(spread, low, high):
    """All of the estimate when the posterior spread is at most `low`, nothing from `high` on."""
    return float(np.clip((high - spread) / (high - low), 0.0, 1.0))


class Model:
    def __init__(self, params):
        self.p = params

    def analyse(self, lin_small):
        """Everything the correction needs from a small linear copy: veil, cast, exposure, amounts."""
        p = self.p
        v = veil(lin_small, p["veil_threshold"])
        x = remove_veil(lin_small, v)
        h, n = chroma_histogram(x)
        z = chroma_logits(np.fft.rfft2(h), p["chroma_filter"], p["chroma_bias"])
        u, vv, spread_c = chroma_estimate(softmax(z, (0, 1)))
        a_c = ramp_amount(spread_c, *p["chroma_ramp"]) if n >= 64 else 0.0
        gains = np.array([np.exp(a_c * u), 1.0, np.exp(a_c * vv)])
        hy = luma_histogram(x * gains)
        zl = luma_logits(hy, p["luma_filter"], p["luma_bias"])
        c, spread_e = luma_estimate(softmax(zl, (0,)))
        a_e = ramp_amount(spread_e, *p["luma_ramp"])
        return dict(veil=v, cast=(u, vv), cast_spread=spread_c, cast_amount=a_c, gains=gains,
                    exposure=c, exposure_spread=spread_e, exposure_amount=a_e, stops=a_e * c)

    def correct_linear(self, lin, analysis):
        x = remove_veil(lin, analysis["veil"])
        return x * analysis["gains"] * 2.0 ** analysis["stops"]


MAGIC = b"LSCM"
VERSION = 1


def save(path, params, record):
    """Little-endian float32 binary: magic, version, JSON header length, JSON header (shapes, settings,
    training record), then chroma filter, chroma bias, luma filter, luma bias."""
    arrays = [params["chroma_filter"], params["chroma_bias"], params["luma_filter"], params["luma_bias"]]
    header = dict(record)
    header.update(n_uv=N_UV, duv=DUV, n_y=N_Y, dy=DY, y_low=Y_LOW, c_min=C_MIN, n_c=N_C, dark=DARK, bright=BRIGHT,
                  long_side=LONG_SIDE, veil_threshold=params["veil_threshold"],
                  chroma_ramp=list(params["chroma_ramp"]), luma_ramp=list(params["luma_ramp"]))
    body = b"".join(np.asarray(a, dtype="<f4").tobytes() for a in arrays)
    header["body_sha256"] = hashlib.sha256(body).hexdigest()
    text = json.dumps(header, sort_keys=True).encode()
    with open(path + ".tmp", "wb") as out:
        out.write(MAGIC + struct.pack("<II", VERSION, len(text)) + text + body)
    os.replace(path + ".tmp", path)


def load(path):
    blob = open(path, "rb").read()
    assert blob[:4] == MAGIC
    version, n = struct.unpack_from("<II", blob, 4)
    header = json.loads(blob[12:12 + n])
    data = np.frombuffer(blob[12 + n:], dtype="<f4").astype(np.float64)
    sizes = [N_UV * N_UV, N_UV * N_UV, N_Y + N_C - 1, N_C]
    parts, start = [], 0
    for s in sizes:
        parts.append(data[start:start + s])
        start += s
    params = dict(chroma_filter=parts[0].reshape(N_UV, N_UV), chroma_bias=parts[1].reshape(N_UV, N_UV),
                  luma_filter=parts[2], luma_bias=parts[3], veil_threshold=header["veil_threshold"],
                  chroma_ramp=tuple(header["chroma_ramp"]), luma_ramp=tuple(header["luma_ramp"]))
    return Model(params), header
