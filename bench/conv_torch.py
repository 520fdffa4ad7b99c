#!/usr/bin/env python3
"""The FFT convolution through cuFFT (PyTorch), the baseline of bench/conv/conv_bench.c
(issue 24), timed as conv_bench times spdgen's (bench/gpu.h): the GPU heated before each
measured thing (~heat-ms of back-to-back runs), then warm-up and timed repetitions all
enqueued before the host waits once, each after a scrub of a 256 MiB buffer (larger than
the L2: cold caches) with CUDA events around the work alone; medians. Also the whole
pipeline back to back (b2b, no scrub) and replayed from a CUDA graph (no launch overhead:
the closest to conv_bench's one pre-recorded command buffer).

For each case (default 1280x720 with a 256x256 PSF and 1920x1080 with 512x512, 3 channels):
the image (fp16, as the rgba16f image conv_bench reads) padded to the powers of two holding
image + PSF - 1, rfft2, the product with the kernel's spectrum (computed once, untimed, at the
padded size: the exact path), irfft2, the crop and the composite src + t (conv - src) back to
fp16. The whole pipeline is timed, and its pieces apart; the result is checked on a sample of
pixels against a direct convolution in float64 on the CPU.

usage: python3 bench/conv_torch.py [--cases 1280x720:256,1920x1080:512] [--reps 21]
                                   [--warmup 3] [--b2b 10] [--heat-ms 200] [--json FILE]
"""
import argparse
import json
import statistics
import time

import torch


def timed(fn, reps, warmup, scrub):
    """Median and min of `reps` cold runs of fn() in microseconds (after `warmup` untimed
    ones), by CUDA events: every run enqueued before the host waits, so the GPU does not
    idle between them (as conv_bench's one submission)."""
    events = []
    for i in range(warmup + reps):
        scrub.fill_(1.0)  # evict the previous run's data from the L2
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        if i >= warmup:
            events.append((start, end))
    torch.cuda.synchronize()
    times = [s.elapsed_time(e) * 1000.0 for s, e in events]
    return statistics.median(times), min(times)


def back_to_back(fn, runs):
    """fn() `runs` times in a row, no scrub: the mean in microseconds (after one untimed run)."""
    fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(runs):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1000.0 / runs


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


def case(w, h, k, reps, warmup, b2b, heat_ms, scrub, intensity=0.3):
    dev = "cuda"
    c = 3
    pw, ph = next_pow2(w + k - 1), next_pow2(h + k - 1)
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

    result = {"image": [w, h], "psf": k, "padded": [pw, ph], "torch": torch.__version__,
              "device": torch.cuda.get_device_name()}
    for name, fn in (("pad", pad), ("rfft2", forward), ("product", product), ("irfft2", inverse),
                     ("crop_composite", composite), ("pipeline", whole)):
        heat(whole, heat_ms)
        med, best = timed(fn, reps, warmup, scrub)
        result[name + "_us"] = med
        result[name + "_min_us"] = best
    if b2b:
        heat(whole, heat_ms)
        result["pipeline_b2b_us"] = back_to_back(whole, b2b)
    # The same pipeline replayed from a CUDA graph: cuFFT's kernels without PyTorch's launches.
    try:
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            for _ in range(3):
                whole()  # cuFFT plans made before the capture
        torch.cuda.current_stream().wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            whole()
        heat(graph.replay, heat_ms)
        med, best = timed(graph.replay, reps, warmup, scrub)
        result["pipeline_graph_us"], result["pipeline_graph_min_us"] = med, best
        if b2b:
            result["pipeline_graph_b2b_us"] = back_to_back(graph.replay, b2b)
        graph.replay()  # the check below reads what the graph wrote
    except Exception as e:  # an older PyTorch or cuFFT that cannot capture: say so
        result["pipeline_graph_error"] = str(e)[:200]
        whole()
    # The check: 16 pixels (the graph's output, else the eager one's) against the direct sum.
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


def us(r, key):
    return f"{r[key]:.1f} us" if key in r else "n/a"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default="1280x720:256,1920x1080:512")
    ap.add_argument("--reps", type=int, default=21)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--b2b", type=int, default=10)
    ap.add_argument("--heat-ms", type=float, default=200)
    ap.add_argument("--json")
    a = ap.parse_args()
    scrub = torch.empty(64 << 20, dtype=torch.float32, device="cuda")
    rows = []
    print(f"cuFFT through PyTorch {torch.__version__} on {torch.cuda.get_device_name()}: "
          f"medians of {a.reps} cold runs\n")
    print("| case | padded | rfft2 | product | irfft2 | crop + composite | pipeline | b2b | "
          "CUDA graph | graph b2b | check |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for item in a.cases.split(","):
        size, k = item.split(":")
        w, h = (int(v) for v in size.split("x"))
        r = case(w, h, int(k), a.reps, a.warmup, a.b2b, a.heat_ms, scrub)
        rows.append(r)
        print(f"| {w}x{h}, PSF {k}x{k} | {r['padded'][0]}x{r['padded'][1]} | {r['rfft2_us']:.1f} us | "
              f"{r['product_us']:.1f} us | {r['irfft2_us']:.1f} us | {r['crop_composite_us']:.1f} us | "
              f"{r['pipeline_us']:.1f} us | {us(r, 'pipeline_b2b_us')} | {us(r, 'pipeline_graph_us')} | "
              f"{us(r, 'pipeline_graph_b2b_us')} | {r['check_max_rel']:.2g} {r['check']} |")
        if "pipeline_graph_error" in r:
            print(f"\nCUDA graph of {w}x{h}: {r['pipeline_graph_error']}\n")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0 if all(r["check"] == "ok" for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
