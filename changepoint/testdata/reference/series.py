#!/usr/bin/python3
"""Step 1 of the reference vectors (see README.md, "Re-running"): the ten
input series s01…s10.

    /usr/bin/python3 series.py OUTDIR
    /usr/bin/python3 series.py --check REFDIR
    /usr/bin/python3 series.py --binary CSVDIR OUTDIR

The first form writes OUTDIR/<series>.csv (header "value", one value a line as %.17g, so
every value parses back to the same double) and OUTDIR/<series>.f64 (the
same doubles, little-endian float64, for R to read with readBin), and
OUTDIR/series.json (name, n, generator text for each series). --check
compares the generated values with the CSVs in REFDIR; --binary copies the
CSVs of CSVDIR (the source of truth) to OUTDIR with their .f64 dumps, the
input of changepoint.R.

Needs numpy (Debian python3-numpy 1.24.2 made the committed files; the
PCG64 stream and standard_normal of default_rng are stable across numpy
versions). The generator strings are the ones stored in each JSON's
"generator" field.
"""
import json
import os
import sys

import numpy as np


def series():
    out = []

    z = np.random.default_rng(101).standard_normal(1000)
    out.append(("s01_flat_noise", 2.5e-3 + 2.5e-5 * z,
                "flat: 2.5e-3 + 2.5e-5*N(0,1), n=1000, numpy default_rng(101)"))

    t = np.arange(3000)
    z = np.random.default_rng(102).standard_normal(3000)
    out.append(("s02_warmup_exp", 0.1 * (1 + 3 * np.exp(-t / 120)) + 1e-3 * z,
                "warmup: 0.1*(1+3*exp(-t/120)) + 1e-3*N(0,1), t=0..2999, default_rng(102)"))

    rng = np.random.default_rng(103)
    x = np.concatenate([rng.normal(100, 2, 250), rng.normal(130, 3, 550)])
    out.append(("s03_step_up", x,
                "step up: 250 x N(100,2^2) then 550 x N(130,3^2), n=800, default_rng(103)"))

    rng = np.random.default_rng(104)
    x = np.concatenate([rng.normal(5e-6, 2e-8, 700), rng.normal(5e-6, 2e-7, 500)])
    out.append(("s04_variance_change", x,
                "variance change only: mean 5e-6, sd 2e-8 for 700 points then sd 2e-7 for 500 points, n=1200, default_rng(104)"))

    z = np.random.default_rng(105).standard_normal(2000)
    x = np.concatenate([1000 * (1 + 0.002 * z[:1850]), 1050 * (1 + 0.002 * z[1850:])])
    out.append(("s05_late_slowdown", x,
                "late slowdown: 1850 x 1000*(1+0.002*N) then 150 x 1050*(1+0.002*N), n=2000, default_rng(105)"))

    t = np.arange(1500)
    z = np.random.default_rng(106).standard_normal(1500)
    out.append(("s06_oscillating", 0.02 * (1 + 0.15 * np.sin(2 * np.pi * t / 250)) + 4e-4 * z,
                "no steady state: 0.02*(1+0.15*sin(2*pi*t/250)) + 4e-4*N, t=0..1499, default_rng(106)"))

    t = np.arange(20)
    z = np.random.default_rng(107).standard_normal(20)
    out.append(("s07_short", 1 + 2 * np.exp(-t / 2) + 0.02 * z,
                "very short warmup: 1+2*exp(-t/2)+0.02*N, t=0..19, n=20, default_rng(107)"))

    out.append(("s08_constant", np.full(100, 0.1),
                "constant 0.1 (not exactly representable in binary) x 100: zero variance"))

    z = np.random.default_rng(109).standard_normal(1000)
    x = 3e-8 * (1 + 0.01 * z)
    x[[100, 101, 500, 998]] *= np.array([40, 60, 100, 50])
    out.append(("s09_outliers", x,
                "3e-8*(1+0.01*N) n=1000 default_rng(109), with outliers at 0-based positions 100,101,500,998 multiplied by 40,60,100,50"))

    out.append(("s10_two_level_exact", np.concatenate([np.full(60, 0.25), np.full(40, 0.5)]),
                "exact zero-variance two-level series: 60 x 0.25 then 40 x 0.5 (dyadic values, exactly representable)"))
    return out


def binary(src, dst):
    """Copies every <series>.csv of src to dst with its <series>.f64."""
    os.makedirs(dst, exist_ok=True)
    for name in sorted(os.listdir(src)):
        if not (name.startswith("s") and name.endswith(".csv")):
            continue
        with open(os.path.join(src, name)) as f:
            text = f.read()
        lines = text.split("\n")
        assert lines[0] == "value", name
        x = np.array([float(v) for v in lines[1:] if v], dtype="<f8")
        with open(os.path.join(dst, name), "w") as f:
            f.write(text)
        x.tofile(os.path.join(dst, name[:-4] + ".f64"))


def check(ref):
    """Compares the generated series with the CSVs in ref, value by value."""
    ok = True
    for name, x, _ in series():
        with open(os.path.join(ref, name + ".csv")) as f:
            want = np.array([float(v) for v in f.read().split("\n")[1:] if v])
        x = np.asarray(x, dtype=float)
        if len(x) != len(want):
            print("%s: %d values, want %d" % (name, len(x), len(want)))
            ok = False
            continue
        diff = np.flatnonzero(x != want)
        if len(diff) == 0:
            print("%s: identical" % name)
            continue
        ok = False
        ulps = np.abs(x.view(np.int64)[diff] - want.view(np.int64)[diff])
        print("%s: %d of %d values differ, by at most %d ulp" % (name, len(diff), len(x), ulps.max()))
    return ok


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--binary":
        binary(sys.argv[2], sys.argv[3])
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(0 if check(sys.argv[2]) else 1)
    if len(sys.argv) != 2:
        sys.exit("usage: series.py OUTDIR | --check REFDIR | --binary CSVDIR OUTDIR")
    dst = sys.argv[1]
    os.makedirs(dst, exist_ok=True)
    index = []
    for name, x, gen in series():
        x = np.asarray(x, dtype="<f8")
        with open(os.path.join(dst, name + ".csv"), "w") as f:
            f.write("value\n")
            for v in x:
                f.write("%.17g\n" % v)
        x.tofile(os.path.join(dst, name + ".f64"))
        index.append({"series": name, "n": len(x), "generator": gen})
    with open(os.path.join(dst, "series.json"), "w") as f:
        json.dump(index, f, indent=1)


if __name__ == "__main__":
    main()
