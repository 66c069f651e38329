#!/usr/bin/python3
"""Step 3 of the reference vectors (see README.md, "Re-running"): Kneedle
(the Python package kneed) on R's CROPS results.

    KNEED_086=DIR KNEED_070=DIR /usr/bin/python3 kneedle.py WORKDIR

DIR is a source checkout of arvkevi/kneed (the folder holding the kneed/
package): 0.8.6 is commit ad1449ffa0fdb7f8ac7d74c75d77159562d92fdf, 0.7.0
is tag v0.7.0, commit a69d563353c3965ae2f6a6b1226c9ab89fd2d475. Each runs
in a child python3 with only its DIR on PYTHONPATH (numpy and scipy from
Debian: python3-numpy 1.24.2, python3-scipy 1.10.1).

For every WORKDIR/r_<series>.json (changepoint.R run) it writes
k_<series>.json, the "kneedle" block of each CROPS run, and k_<series>.sel,
one line per CROPS run with the penalties Kneedle selected (sorted, %.17g),
for changepoint.R selected. The two protocols are described in README.md.
"""
import json
import math
import os
import subprocess
import sys
import warnings

PROTOCOL = dict(S=1.0, curve="convex", direction="decreasing")


def clean(v):
    """numpy values to JSON values: NaN becomes null."""
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def tolist(a):
    return [clean(v) for v in a.tolist()]


def locate(x, y):
    """Runs KneeLocator (the kneed on sys.path) on x, y with PROTOCOL and
    returns what it computed, with the warnings raised meanwhile (their
    first lines, sorted) and the exception, if any."""
    import numpy as np
    from kneed import KneeLocator

    out = {"x": [float(v) for v in x], "y": list(y), "S": PROTOCOL["S"],
           "curve": PROTOCOL["curve"], "direction": PROTOCOL["direction"],
           "interp_method": "interp1d", "online": False}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(all="warn"):
            try:
                kl = KneeLocator(x, y, **PROTOCOL)
                exc = None
            except Exception as e:  # IndexError in 0.7.0, see README
                kl, exc = None, "%s: %s" % (type(e).__name__, e)
    msgs = sorted(str(w.message).split("\n")[0] for w in caught)
    out["exception"] = exc
    if kl is None:
        out.update(knee=None, knee_y=None, norm_knee=None)
    else:
        out["knee"] = None if kl.knee is None else float(kl.knee)
        out["knee_y"] = None if kl.knee_y is None else float(kl.knee_y)
        out["norm_knee"] = None if kl.norm_knee is None else float(kl.norm_knee)
        out["x_normalized"] = tolist(kl.x_normalized)
        out["y_normalized_transformed"] = tolist(kl.y_normalized)
        out["y_difference"] = tolist(kl.y_difference)
        out["maxima_indices"] = [int(i) for i in kl.maxima_indices]
        out["minima_indices"] = [int(i) for i in kl.minima_indices]
        out["Tmx"] = tolist(kl.Tmx)
    out["warnings"] = msgs
    return out


def traini(crops, default_pen):
    """find_penalty() of SEALABQualityGroup/steady-state changepoint.py."""
    penalties = crops["pen_value_full"]
    ncpts = [sum(1 for v in row if v is not None and v > 0) for row in crops["cpts_full_rows"]]
    res = {"default_pen_15logn": default_pen, "penalties": penalties}
    if len(penalties) == len(ncpts) + 1:
        ncpts = ncpts + [0]
    res["ncpts"] = ncpts
    if len(penalties) != len(ncpts):
        res["outcome"] = "AssertionError (len(penalties) != len(ncpts)); the original script would crash"
        res["selected_penalty"] = None
        return res
    kl = locate(penalties[::-1], ncpts[::-1])
    res["kneelocator"] = kl
    if kl["exception"] is not None and kl["exception"].startswith("IndexError"):
        res["outcome"], res["selected_penalty"] = "IndexError -> default 15*log(n)", default_pen
    elif not kl["knee"]:
        res["outcome"], res["selected_penalty"] = "no elbow -> default 15*log(n)", default_pen
    else:
        res["outcome"], res["selected_penalty"] = "elbow found", kl["knee"]
    return res


def ascending(crops):
    """The textbook form: lower penalty bound of each segmentation against
    its number of change points, ascending."""
    segs = crops["segmentations"]
    res = {"penalties": crops["pen_value_full"][:len(segs)], "ncpts": [len(s) for s in segs]}
    if len(segs) < 2:
        res["outcome"], res["selected_penalty"] = "fewer than 2 points", None
        return res
    kl = locate(res["penalties"], res["ncpts"])
    res["kneelocator"] = kl
    if kl["knee"] is None:
        res["outcome"], res["selected_penalty"] = "no elbow", None
    else:
        res["outcome"], res["selected_penalty"] = "elbow found", kl["knee"]
    return res


def child():
    """Runs both protocols on the tasks read from stdin with the kneed on
    PYTHONPATH; writes the results to stdout."""
    import kneed
    tasks = json.load(sys.stdin)
    out = [{"version": kneed.__version__,
            "traini_protocol": traini(t["crops"], t["default_pen"]),
            "ascending_protocol": ascending(t["crops"])} for t in tasks]
    json.dump(out, sys.stdout)


def run(src, tasks):
    env = dict(os.environ, PYTHONPATH=src)
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--child"], input=json.dumps(tasks),
                       capture_output=True, text=True, env=env, check=True)
    return json.loads(p.stdout)


def short(res):
    """The 0.7.0 record: the outcome, with kneed's answer when it ran."""
    out = {"outcome": res["outcome"], "selected_penalty": res["selected_penalty"]}
    if "kneelocator" in res:
        kl = res["kneelocator"]
        out.update(knee=kl["knee"], knee_y=kl["knee_y"], exception=kl["exception"], warnings=kl["warnings"])
    return out


BLOCKS = ("crops_meanvar_4_1e5", "crops_meanvar_traini")


def main():
    if sys.argv[1:] == ["--child"]:
        child()
        return
    if len(sys.argv) != 2:
        sys.exit("usage: KNEED_086=DIR KNEED_070=DIR kneedle.py WORKDIR")
    work = sys.argv[1]
    new, old = os.environ["KNEED_086"], os.environ["KNEED_070"]
    for name in sorted(os.listdir(work)):
        if not (name.startswith("r_") and name.endswith(".json")):
            continue
        series = name[2:-5]
        with open(os.path.join(work, name)) as f:
            r = json.load(f)
        default_pen = r["pelt_meanvar_manual"]["pen_value"]
        tasks = [{"crops": r[b], "default_pen": default_pen} for b in BLOCKS]
        r086, r070 = run(new, tasks), run(old, tasks)
        assert r086[0]["version"] == "0.8.6" and r070[0]["version"] == "0.7.0", (r086[0]["version"], r070[0]["version"])
        blocks, sel = {}, []
        for b, a, o in zip(BLOCKS, r086, r070):
            k = {"kneed_0.8.6": {}, "kneed_0.7.0": {}}
            chosen = set()
            for proto in ("traini_protocol", "ascending_protocol"):
                k["kneed_0.8.6"][proto] = a[proto]
                s = short(o[proto])
                s["same_outcome_as_0.8.6"] = (o[proto]["outcome"], o[proto]["selected_penalty"]) == \
                    (a[proto]["outcome"], a[proto]["selected_penalty"])
                k["kneed_0.7.0"][proto] = s
                for res in (a[proto], o[proto]):
                    if res["selected_penalty"] is not None:
                        chosen.add(res["selected_penalty"])
            blocks[b] = k
            sel.append(" ".join([b] + ["%.17g" % p for p in sorted(chosen)]))
        with open(os.path.join(work, "k_%s.json" % series), "w") as f:
            json.dump(blocks, f)
        with open(os.path.join(work, "k_%s.sel" % series), "w") as f:
            f.write("\n".join(sel) + "\n")
        print(series)


if __name__ == "__main__":
    main()
