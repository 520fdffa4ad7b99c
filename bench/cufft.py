#!/usr/bin/env python3
"""cuFFT through PyTorch, timed as bench/fft_bench times spdgen, so the two can sit in one
report from one call on the GPU machine: the GPU heated first, CUDA events around each
transform, cold medians (a scrub buffer written between repetitions evicts the L2), and the
floor measured in the same run (a device-to-device copy of the same bytes).

Batched 1D complex-to-complex fp32 FFTs of 512 MiB per transform (bytes read + written per
transform / time, as fft_bench counts them), any N (cuFFT picks its own radices, or
Bluestein for large prime factors), with the same rows as fft_bench (512 MiB / 8N, an even
count for odd N); the 2D 1024x2048 complex fft2 and the real rfft2 of the same shape
(--no-2d leaves them out).

usage: python3 bench/cufft.py [--sizes 256,1000,1009,...] [--batch-mib 512] [--reps 19]
                              [--heat-ms 200] [--no-2d] [--json FILE] [--markdown FILE]
"""
import argparse
import json
import statistics
import sys
import time

import torch


def timed(fn, reps, scrub):
    """Median and min of `reps` cold runs of fn() in microseconds, by CUDA events."""
    times = []
    for _ in range(reps):
        scrub.fill_(1.0)  # evict the previous run's data from the L2
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0)
    return statistics.median(times), min(times)


def heat(fn, ms):
    """Runs fn until `ms` milliseconds have passed: the GPU idles at a low clock."""
    stop = time.time() + ms / 1000.0
    while time.time() < stop:
        fn()
    torch.cuda.synchronize()


def one_d(n, batch_bytes, reps, heat_ms, scrub):
    rows = max(1, batch_bytes // (8 * n))
    if rows > 1 and rows * n % 2:  # fft_bench's floor copies 16-byte elements: even rows
        rows -= 1
    x = torch.randn(rows, n, dtype=torch.complex64, device="cuda")
    y = torch.empty_like(x)
    moved = 2 * rows * n * 8  # bytes read + written

    # Not out=y: PyTorch then transforms into a temporary and copies it, twice the bytes.
    # A fresh output comes from the caching allocator at no cost.
    def fft():
        return torch.fft.fft(x, dim=-1)

    def copy():
        y.copy_(x)

    heat(fft, heat_ms)
    fft_us, fft_min = timed(fft, reps, scrub)
    floor_us, _ = timed(copy, reps, scrub)
    # Accuracy of the sample against a double-precision FFT of its first rows.
    k = min(rows, 8)
    want = torch.fft.fft(x[:k].to(torch.complex128), dim=-1)
    got = fft()[:k].to(torch.complex128)
    rel_l2 = float(torch.linalg.vector_norm(got - want) / torch.linalg.vector_norm(want))
    return {"n": n, "rows": rows, "us": fft_us, "min_us": fft_min, "floor_us": floor_us,
            "tb_per_s": moved / fft_us / 1e6, "floor_tb_per_s": moved / floor_us / 1e6,
            "percent_of_floor": 100.0 * floor_us / fft_us, "rel_l2": rel_l2}


def two_d(real, reps, heat_ms, scrub):
    shape = (1024, 2048)
    if real:
        x = torch.randn(shape, dtype=torch.float32, device="cuda")
        fn = lambda: torch.fft.rfft2(x)  # noqa: E731
        moved = x.numel() * 4 + 1024 * 1025 * 8
    else:
        x = torch.randn(shape, dtype=torch.complex64, device="cuda")
        fn = lambda: torch.fft.fft2(x)  # noqa: E731
        moved = 2 * x.numel() * 8
    heat(fn, heat_ms)
    us, mn = timed(fn, reps, scrub)
    return {"what": "rfft2 1024x2048" if real else "fft2 1024x2048 complex", "us": us,
            "min_us": mn, "bytes": moved}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="256,1024,2048,4096,8192,16384,32768,65536")
    p.add_argument("--batch-mib", type=int, default=512)
    p.add_argument("--reps", type=int, default=19)
    p.add_argument("--heat-ms", type=int, default=200)
    p.add_argument("--no-2d", action="store_true", help="leave out fft2 and rfft2")
    p.add_argument("--json")
    p.add_argument("--markdown")
    a = p.parse_args()
    if not torch.cuda.is_available():
        print("cufft.py: no CUDA device", file=sys.stderr)
        return 1
    sizes = [int(s) for s in a.sizes.split(",") if s]
    scrub = torch.empty(64 << 20, dtype=torch.float32, device="cuda")  # 256 MiB
    dev = torch.cuda.get_device_name(0)
    result = {"device": dev, "torch": torch.__version__, "cuda": torch.version.cuda,
              "batch_mib": a.batch_mib, "reps": a.reps, "one_d": [], "two_d": []}
    for n in sizes:
        result["one_d"].append(one_d(n, a.batch_mib << 20, a.reps, a.heat_ms, scrub))
    for real in () if a.no_2d else (False, True):
        result["two_d"].append(two_d(real, a.reps, a.heat_ms, scrub))
    lines = [f"cuFFT through PyTorch {torch.__version__} (CUDA {torch.version.cuda}) on {dev}; "
             f"{a.batch_mib} MiB per transform, median of {a.reps} cold runs after "
             f"{a.heat_ms} ms of heat", "",
             "| N | rows | us | TB/s | floor us | floor TB/s | % of floor | rel L2 |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in result["one_d"]:
        lines.append(f"| {r['n']} | {r['rows']} | {r['us']:.1f} | {r['tb_per_s']:.2f} | "
                     f"{r['floor_us']:.1f} | {r['floor_tb_per_s']:.2f} | "
                     f"{r['percent_of_floor']:.1f} | {r['rel_l2']:.2e} |")
    if result["two_d"]:
        lines += ["", "| 2D | us |", "|---|---:|"]
    for r in result["two_d"]:
        lines.append(f"| {r['what']} | {r['us']:.1f} |")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
