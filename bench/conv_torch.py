#!/usr/bin/env python3
"""The FFT convolution through cuFFT (PyTorch), the baseline of bench/conv/conv_bench.c
(issue 24), timed the same way as bench/cufft.py: the GPU heated first, CUDA events around
each run, cold medians (a scrub buffer written between repetitions evicts the L2).

For each case (default 1280x720 with a 256x256 PSF and 1920x1080 with 512x512, 3 channels):
the image (fp16, as the rgba16f image conv_bench reads) padded to the powers of two holding
image + PSF - 1, rfft2, the product with the kernel's spectrum (computed once, untimed, at the
padded size: the exact path), irfft2, the crop and the composite src + t (conv - src) back to
fp16. The whole pipeline is timed, and its pieces apart; the result is checked on a sample of
pixels against a direct convolution in float64 on the CPU.

A case may name its padded size, WxH:K:PWxPH (e.g. the sizes spdgen --pad-to smooth chose,
from its plan file), so cuFFT runs on the same points.

usage: python3 bench/conv_torch.py [--cases 1280x720:256,1920x1080:512] [--reps 21]
                                   [--heat-ms 200] [--json FILE]
"""
import argparse
import json
import statistics
import time

import torch


def timed(fn, reps, scrub):
    """Median and min of `reps` cold runs of fn() in microseconds, by CUDA events."""
    times = []
    for _ in range(reps):
        scrub.fill_(1.0)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0)
    return statistics.median(times), min(times)


def heat(fn, ms):
    stop = time.time() + ms / 1000.0
    while time.time() < stop:
        fn()
    torch.cuda.synchronize()


def next_pow2(v):
    p = 1
    while p < v:
        p *= 2
    return p


def direct_pixel(img, psf, x, y):
    """out(x, y) = sum_ij psf(i, j) img(x - i + kw // 2, y - j + kh // 2), zero outside; float64
    (img zero-padded by the PSF's size on each side: the window, flipped, times the PSF)."""
    c, h, w = img.shape
    _, kh, kw = psf.shape
    ext = torch.zeros(c, h + 2 * kh, w + 2 * kw, dtype=torch.float64)
    ext[:, kh:kh + h, kw:kw + w] = img
    y0, x0 = y + kh // 2 - kh + 1 + kh, x + kw // 2 - kw + 1 + kw
    window = ext[:, y0:y0 + kh, x0:x0 + kw].flip(1).flip(2)
    return (window * psf).sum(dim=(1, 2))


def case(w, h, k, reps, heat_ms, scrub, padded=None, intensity=0.3):
    dev = "cuda"
    c = 3
    pw, ph = padded or (next_pow2(w + k - 1), next_pow2(h + k - 1))
    gen = torch.Generator(device="cpu").manual_seed(7)
    src = (torch.rand(c, h, w, generator=gen) * 4).to(torch.float16).to(dev)
    psf = torch.rand(c, k, k, generator=gen, dtype=torch.float64)
    psf /= psf.sum(dim=(1, 2), keepdim=True)
    # The kernel spectrum at the padded size, its centre moved to the origin (untimed).
    padded_psf = torch.zeros(c, ph, pw, dtype=torch.float32, device=dev)
    padded_psf[:, :k, :k] = psf.to(torch.float32).to(dev)
    padded_psf = torch.roll(padded_psf, shifts=(-(k // 2), -(k // 2)), dims=(1, 2))
    kspec = torch.fft.rfft2(padded_psf)
    padded = torch.zeros(c, ph, pw, dtype=torch.float32, device=dev)
    out = torch.empty(c, h, w, dtype=torch.float16, device=dev)

    def pad():
        padded[:, :h, :w] = src
    def forward():
        return torch.fft.rfft2(padded)
    spec = forward()
    def product():
        return spec * kspec
    prod = product()
    def inverse():
        return torch.fft.irfft2(prod, s=(ph, pw))
    conv = inverse()
    def composite():
        s = src.to(torch.float32)
        out.copy_((s + intensity * (conv[:, :h, :w] - s)).to(torch.float16))

    def whole():
        padded[:, :h, :w] = src
        r = torch.fft.irfft2(torch.fft.rfft2(padded) * kspec, s=(ph, pw))
        s = src.to(torch.float32)
        out.copy_((s + intensity * (r[:, :h, :w] - s)).to(torch.float16))

    heat(whole, heat_ms)
    result = {"image": [w, h], "psf": k, "padded": [pw, ph]}
    for name, fn in (("pad", pad), ("rfft2", forward), ("product", product), ("irfft2", inverse),
                     ("crop_composite", composite), ("pipeline", whole)):
        med, best = timed(fn, reps, scrub)
        result[name + "_us"] = med
        result[name + "_min_us"] = best
    # The check: 16 pixels against the direct sum in float64.
    whole()
    torch.cuda.synchronize()
    img64 = src.to(torch.float64).cpu()
    got = out.to(torch.float64).cpu()
    err, ref_max = 0.0, 0.0
    for s in range(16):
        x, y = (s * 7919 + 3) % w, (s * 104729 + 5) % h
        d = direct_pixel(img64, psf, x, y)
        ref = img64[:, y, x] + intensity * (d - img64[:, y, x])
        err = max(err, float((got[:, y, x] - ref).abs().max()))
        ref_max = max(ref_max, float(ref.abs().max()))
    result["check_max_rel"] = err / ref_max
    result["check"] = "ok" if err <= (2.0 ** -10 + 1e-5) * ref_max else "MISMATCH"
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default="1280x720:256,1920x1080:512")
    ap.add_argument("--reps", type=int, default=21)
    ap.add_argument("--heat-ms", type=float, default=200)
    ap.add_argument("--json")
    a = ap.parse_args()
    scrub = torch.empty(64 << 20, dtype=torch.float32, device="cuda")
    rows = []
    print(f"cuFFT through PyTorch {torch.__version__} on {torch.cuda.get_device_name()}: "
          f"medians of {a.reps} cold runs\n")
    print("| case | padded | rfft2 | product | irfft2 | crop + composite | pipeline | check |")
    print("|---|---|---|---|---|---|---|---|")
    for item in a.cases.split(","):
        size, k, *pad = item.split(":")
        w, h = (int(v) for v in size.split("x"))
        padded = tuple(int(v) for v in pad[0].split("x")) if pad else None
        r = case(w, h, int(k), a.reps, a.heat_ms, scrub, padded)
        rows.append(r)
        print(f"| {w}x{h}, PSF {k}x{k} | {r['padded'][0]}x{r['padded'][1]} | {r['rfft2_us']:.1f} us | "
              f"{r['product_us']:.1f} us | {r['irfft2_us']:.1f} us | {r['crop_composite_us']:.1f} us | "
              f"{r['pipeline_us']:.1f} us | {r['check_max_rel']:.2g} {r['check']} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0 if all(r["check"] == "ok" for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
