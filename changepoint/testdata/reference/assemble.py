#!/usr/bin/python3
"""Step 5 of the reference vectors (see README.md, "Re-running"): the
final <series>.json files.

    /usr/bin/python3 assemble.py WORKDIR [REFDIR]

merges, per series, WORKDIR/r_<series>.json (changepoint.R run),
k_<series>.json (kneedle.py) and sel_<series>.json (changepoint.R
selected) into WORKDIR/<series>.json, in the layout of the committed files
(two-space indent, lists of numbers on one line). With REFDIR it then
compares every file with REFDIR/<series>.json: all values must be equal
(floats bit for bit) except the elapsed_s timings; it prints the
differences and exits 1 if there are any.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import series as seriesmod  # noqa: E402

INDEX_CONVENTION = (
    "All changepoint/segment indices are R's 1-based positions. 'cpts' = R cpts(obj): last index of every "
    "segment except the final one (n is NOT included). 'seg_ends' = obj@cpts = cpts plus n. To get 0-based "
    "'last index of segment' subtract 1; the 0-based start of segment k+1 equals the 1-based cpts[k].")
CHANGEPOINT_SOURCE = ("github rkillick/changepoint snapshot commit d2d364d2dd2f382e235457eda72c1ee71114997a "
                      "(2024-12-03), DESCRIPTION Version 2.3, built with R CMD INSTALL")
KNEED_VERSIONS = ("kneed 0.8.6 (arvkevi/kneed commit ad1449ffa0fdb7f8ac7d74c75d77159562d92fdf) and kneed 0.7.0 "
                  "(tag v0.7.0, commit a69d563353c3965ae2f6a6b1226c9ab89fd2d475)")
BLOCKS = ("crops_meanvar_4_1e5", "crops_meanvar_traini")


def python_env():
    import numpy
    import scipy
    return "Debian python3 %d.%d.%d, numpy %s, scipy %s" % (sys.version_info[:3] + (numpy.__version__, scipy.__version__))


def dumps(v, ind=0):
    """JSON with objects and lists of containers one entry a line, lists of
    scalars on one line."""
    pad = " " * (ind + 2)
    if isinstance(v, dict):
        if not v:
            return "{}"
        items = ["%s%s: %s" % (pad, json.dumps(k), dumps(x, ind + 2)) for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * ind + "}"
    if isinstance(v, list):
        if any(isinstance(x, (dict, list)) for x in v):
            return "[\n" + ",\n".join(pad + dumps(x, ind + 2) for x in v) + "\n" + " " * ind + "]"
        return "[" + ", ".join(dumps(x) for x in v) + "]"
    return json.dumps(v)


def load(path):
    with open(path) as f:
        return json.load(f)


def assemble(work, name, gen):
    r = load(os.path.join(work, "r_%s.json" % name))
    k = load(os.path.join(work, "k_%s.json" % name))
    sel = load(os.path.join(work, "sel_%s.json" % name))
    env = r["environment"]
    out = {
        "series": name,
        "csv_file": name + ".csv",
        "n": r["n"],
        "generator": gen,
        "index_convention": INDEX_CONVENTION,
        "environment": {
            "r_version": env["r_version"],
            "changepoint_version": env["changepoint_version"],
            "zoo_version": env["zoo_version"],
            "changepoint_source": CHANGEPOINT_SOURCE,
            "kneed_versions": KNEED_VERSIONS,
            "python": python_env(),
            "platform": env["platform"],
        },
        "r_read_csv_identical_to_binary": r["r_read_csv_identical_to_binary"],
        "pelt_meanvar_manual": r["pelt_meanvar_manual"],
        "pelt_mean_manual": r["pelt_mean_manual"],
    }
    for b in BLOCKS:
        c = dict(r[b])
        del c["cpts_full_rows"]  # Kneedle's input only
        c["kneedle"] = k[b]
        c["pelt_meanvar_at_selected_penalties"] = sel.get(b, [])
        out[b] = c
    return out


def diff(a, b, path, out):
    """Appends to out the places where a and b differ (floats bit for bit),
    ignoring elapsed_s."""
    if path.endswith(".elapsed_s"):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            out.append("%s: keys %s, want %s" % (path, list(a), list(b)))
        for key in a:
            if key in b:
                diff(a[key], b[key], path + "." + key, out)
        return
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append("%s: %d entries, want %d" % (path, len(a), len(b)))
            return
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, "%s[%d]" % (path, i), out)
        return
    if type(a) is not type(b) or a != b:
        out.append("%s: %r, want %r" % (path, a, b))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: assemble.py WORKDIR [REFDIR]")
    work = sys.argv[1]
    ref = sys.argv[2] if len(sys.argv) == 3 else None
    bad = 0
    for name, _, gen in seriesmod.series():
        if not os.path.exists(os.path.join(work, "r_%s.json" % name)):
            continue
        out = assemble(work, name, gen)
        path = os.path.join(work, name + ".json")
        with open(path, "w") as f:
            f.write(dumps(out) + "\n")
        if ref is None:
            print(path)
            continue
        want = load(os.path.join(ref, name + ".json"))
        got = load(path)
        d = []
        diff(got, want, name, d)
        if d:
            bad += 1
            print("%s: %d differences" % (name, len(d)))
            for line in d[:20]:
                print("  " + line)
        else:
            print("%s: identical but for elapsed_s" % name)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
