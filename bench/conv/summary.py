#!/usr/bin/env python3
"""The convolution run's summary (bench/conv/run-gpu.sh): conv_bench's JSON beside
conv_torch.py's, one table per case against issue 24's speed targets:
- the spdgen pipeline >= 2x faster than the cuFFT pipeline (its faster figure: eager PyTorch
  or the same pipeline replayed from a CUDA graph, cold medians both);
- 1280x720 with a 256x256 PSF under 40 us;
- every pass >= 70% of its copy floor.
Each "met" is computed here from the JSON files; nothing is typed in. Then the variants
(conv_bench --spdgen-args runs) beside the default jobs they vary.

usage: python3 bench/conv/summary.py CONV_JSON [TORCH_JSON|-] [VARIANT_JSON...] > summary.md
"""
import json
import sys


def median(t):
    return t["median_us"] if t.get("status") == "ok" else None


def main():
    conv = json.load(open(sys.argv[1]))
    torch_rows = json.load(open(sys.argv[2])) if len(sys.argv) > 2 and sys.argv[2] != "-" else []
    variants = [json.load(open(f)) for f in sys.argv[3:]]
    cufft = {}
    for r in torch_rows:
        times = [r[k] for k in ("pipeline_us", "pipeline_graph_us") if k in r]
        cufft[(r["image"][0], r["image"][1], r["psf"])] = (min(times), r)
    print(f"# spdgen --conv against cuFFT on {conv['device']['name']}\n")
    print(f"{conv['spdgen']}, {conv['date']}; cuFFT through PyTorch "
          f"{torch_rows[0]['torch'] if torch_rows else '(not run)'}. Cold medians (us); cuFFT's figure "
          "is the faster of eager PyTorch and a CUDA graph replay.\n")
    print("| job | pass 1 | pass 2 | pass 3 | pipeline | cuFFT | speed-up | >= 2x | < 40 us | "
          "passes >= 70% of floor | check |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for j in conv["jobs"]:
        key = (j["image"][0], j["image"][1], j["psf"])
        passes = [j[f"pass{p}"] for p in (1, 2, 3)]
        cells = []
        shares = []
        for p in passes:
            m, f = median(p), p.get("fraction_of_floor")
            shares.append(f)
            cells.append(f"{m:.1f} ({100 * f:.0f}%)" if m is not None and f is not None else "—")
        pipe = median(j["pipeline"])
        base = cufft.get(key)
        speed = base[0] / pipe if base and pipe else None
        under40 = ("yes" if pipe < 40 else "no") if key == (1280, 720, 256) and pipe is not None else ""
        floors = "yes" if all(f is not None and f >= 0.7 for f in shares) else "no"
        print(f"| {key[0]}x{key[1]}, PSF {key[2]}, {j['spectrum']}, {j['storage']} | " + " | ".join(cells) +
              (f" | {pipe:.1f} | " if pipe is not None else " | — | ") +
              (f"{base[0]:.1f} | {speed:.2f}x | {'yes' if speed >= 2 else 'no'}" if speed else "— | — | —") +
              f" | {under40} | {floors} | {'ok' if j['check']['ok'] else 'MISMATCH'} |")
    if variants:
        print("\nVariants (cold medians, us; the default first):\n")
        print("| job | spdgen flags added | pass 1 | pass 2 | pass 3 | pipeline | check |")
        print("|---|---|---|---|---|---|---|")
        for j in conv["jobs"]:
            key = (j["image"][0], j["image"][1], j["psf"], j["spectrum"], j["storage"])
            rows = [("(default)", j)]
            for v in variants:
                rows += [(v["spdgen_args"], w) for w in v["jobs"]
                         if (w["image"][0], w["image"][1], w["psf"], w["spectrum"], w["storage"]) == key]
            if len(rows) == 1:
                continue
            for flags, w in rows:
                cells = [f"{median(w[f'pass{p}']):.1f}" if median(w[f"pass{p}"]) is not None else "—"
                         for p in (1, 2, 3)]
                pipe = median(w["pipeline"])
                print(f"| {key[0]}x{key[1]}, PSF {key[2]}, {key[3]}, {key[4]} | `{flags}` | " +
                      " | ".join(cells) + f" | {pipe:.1f} | {'ok' if w['check']['ok'] else 'MISMATCH'} |"
                      if pipe is not None else f"| {key[0]}x{key[1]} | `{flags}` | failed: {w['note']} |||||")
    bad = [r for r in torch_rows if r.get("check") != "ok"]
    if bad:
        print("\ncuFFT's own check failed for: " + ", ".join(f"{r['image'][0]}x{r['image'][1]}" for r in bad))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
