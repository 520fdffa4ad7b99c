#!/usr/bin/env python3
"""One table from fft_bench's and cufft.py's JSON of the same run (bench/fft_any_gpu.sh):
per N, spdgen's default and best variant and cuFFT, each as TB/s of bytes read + written and
as a percentage of the copy floor each program measured in that run, and spdgen's best time
against cuFFT's. Issue 27's targets beside them: mixed radix >= 80% of the floor and within
10% of cuFFT (or ahead), Rader and Bluestein >= 30% of the floor; powers of two issue 5's.

usage: python3 bench/fft_any_summary.py FFT_BENCH.json [CUFFT.json] > SUMMARY.md
"""
import json
import sys


# spdgen's prime radices (gen/fft/fft_radix.c): a length with a larger factor is Rader's or
# Bluestein's.
PRIME_RADICES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31)


def kind(n):
    if n & (n - 1) == 0:
        return "power of two"
    m = n
    for r in PRIME_RADICES:
        while m % r == 0:
            m //= r
    if m == 1:
        return "mixed"
    prime = m == n and all(n % d for d in range(2, int(n ** 0.5) + 1))
    rest = n - 1
    for r in PRIME_RADICES:
        while rest % r == 0:
            rest //= r
    return "Rader" if prime and rest == 1 else "Bluestein"


def target(n):
    k = kind(n)
    if k == "mixed":
        return 0.80
    if k in ("Rader", "Bluestein"):
        return 0.30
    return 0.90 if n <= 8192 else 0.85 if n <= 16384 else 0.45


def gbps(nbytes, us):
    return nbytes / us / 1e3 if us else None


def cell(x, fmt):
    return "—" if x is None else fmt.format(x)


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        spd = json.load(f)
    cu = None
    if len(argv) == 3:
        with open(argv[2]) as f:
            cu = json.load(f)
    cu_rows = {r["n"]: r for r in cu["one_d"]} if cu else {}
    dev = spd.get("device", {})
    out = ["# Any FFT length: spdgen and cuFFT in one run", ""]
    st = spd.get("settings", {})
    out.append(f"spdgen: {spd.get('spdgen', '')} on {dev.get('name', '?')} (fft_bench, "
               f"{st.get('batch_mib', '?')} MiB per transform, median of {st.get('reps', '?')} "
               f"cold runs after {st.get('heat_ms', '?')} ms of heat); {spd.get('date', '')}.")
    if cu:
        out.append(f"cuFFT: PyTorch {cu['torch']} (CUDA {cu['cuda']}) on {cu['device']}, "
                   f"{cu['batch_mib']} MiB per transform, median of {cu['reps']} cold runs.")
    else:
        out.append("cuFFT: not run (no CUDA device or no PyTorch here).")
    if spd.get("smoke_run"):
        out.append("")
        out.append("> **Smoke run on a CPU implementation**: the times are not GPU figures and the "
                   "targets do not apply.")
    out += ["",
            "| N | path | rows | floor GB/s | default us | default GB/s | default % of floor | "
            "best variant | best us | best GB/s | best % of floor | target | cuFFT us | "
            "cuFFT GB/s | cuFFT % of its floor | best vs cuFFT | error (best) |",
            "|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for g in spd["groups"]:
        if g["kind"] != "1d":
            continue
        n, nbytes = g["n"], g["bytes"]
        floor = g["floor"]["median_us"] if g["floor"]["status"] == "ok" else None
        good = [v for v in g["variants"]
                if v["time"]["status"] == "ok" and v["check"]["status"] == "ok"]
        dflt = next((v for v in good if v["default"]), None)
        best = next((v for v in good if v["best"]), None)
        # A prime's path is the one its default took (spdgen's --prime auto).
        path = kind(n)
        if path == "Rader" and dflt and "Rader" not in dflt.get("shape", ""):
            path = "Bluestein"
        row = [str(n), path, str(g["batch"]), cell(gbps(nbytes, floor), "{:.1f}")]
        for v in (dflt,):
            us = v["time"]["median_us"] if v else None
            row += [cell(us, "{:.1f}"), cell(gbps(nbytes, us), "{:.1f}"),
                    cell(100 * floor / us if us and floor else None, "{:.1f}%")]
        bus = best["time"]["median_us"] if best else None
        name = best["spdgen"].replace("spdgen ", "") if best else "—"
        row += [f"`{name}` ({best['shape']})" if best else "—", cell(bus, "{:.1f}"),
                cell(gbps(nbytes, bus), "{:.1f}")]
        frac = floor / bus if bus and floor else None
        row.append(cell(100 * frac if frac else None, "{:.1f}%"))
        t = target(n)
        met = "" if frac is None or spd.get("smoke_run") else (" ✓" if frac >= t else " ✗")
        row.append(f">= {100 * t:.0f}%{met}")
        c = cu_rows.get(n)
        cus = c["us"] if c else None
        row += [cell(cus, "{:.1f}"), cell(c["tb_per_s"] * 1e3 if c else None, "{:.1f}"),
                cell(c["percent_of_floor"] if c else None, "{:.1f}%"),
                cell(cus / bus if cus and bus else None, "{:.2f}x")]
        row.append(f"{best['check']['rel_l2']:.1e} / {best['check']['max_rel']:.1e}"
                   if best else "—")
        out.append("| " + " | ".join(row) + " |")
    out += ["",
            "GB/s = (input read + output written) / median time; % of floor = that program's own "
            "copy of the same bytes in the same run / its time (fft_bench: a compute copy timed "
            "first and last in each group; cuFFT: a device-to-device copy). best vs cuFFT = "
            "cuFFT's time / spdgen's best: above 1.00x spdgen is ahead. Targets: issue 27 for "
            "N not a power of two (mixed radix >= 80%, Bluestein >= 30% of the floor, mixed "
            "also within 10% of cuFFT), issue 5 for powers of two. The full tables are "
            "fft_any.md and cufft_any.md beside this file."]
    failures = spd.get("failures", 0)
    out.append("")
    error = f"; {spd['error']}" if spd.get("error") else ""
    out.append(f"fft_bench: {failures} failure(s){error}.")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
