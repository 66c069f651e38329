# Reference values for nonparam's tests.
# Run: /usr/bin/python3 testdata/scipy_reference.py   (scipy 1.10.1, numpy from Debian bookworm)
# Prints Go literals that are pasted into reference_test.go.
import numpy as np
import scipy
from scipy import stats

assert scipy.__version__ == "1.10.1", scipy.__version__

def gen(n, a, b, mod, scale, offset):
    # Same formula as genData in reference_test.go.
    return [((i * a + b) % mod) * scale + offset for i in range(n)]

data = {
    "exactAll":  ([1.1, 2.3, 3.7, 4.2, 5.9], [6.1, 7.4, 8.8, 9.3]),
    "exactDoc":  ([19, 22, 16, 29, 24], [20, 11, 17, 12]),  # scipy docs: males, females
    "exactMixed":([3.1, 7.4, 1.2, 9.9, 5.5, 8.1, 0.3], [2.2, 4.4, 6.6, 8.8, 1.0, 3.3]),
    "oneVsThree":([5], [1, 2, 3]),
    "oneVsOne":  ([1], [2]),
    "small5x40": (gen(5, 3, 1, 11, 1.0, 20.5), gen(40, 7, 3, 41, 1.0, 0.0)),
    "forced30x40": (gen(30, 17, 5, 31, 2.0, 7.0), gen(40, 23, 1, 41, 2.0, 1.0)),
    "tied":      ([1, 2, 2, 3, 3, 3, 4, 5], [2, 3, 4, 4, 5, 5, 6, 7, 7]),
    "largeDistinct": (gen(1000, 7919, 13, 100003, 2.0, 0.0), gen(1200, 104729, 17, 100003, 2.0, 6001.0)),
    "largeTied": (gen(600, 37, 11, 101, 1.0, 0.0), gen(500, 53, 7, 103, 1.0, 3.0)),
    "farApart": (gen(200, 7919, 13, 100003, 1.0, 0.0), gen(150, 104729, 17, 100003, 1.0, 60000.5)),
    "identical": ([3, 3, 3, 3], [3, 3, 3, 3]),
    "sameValues":([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]),
}

cases = [
    # (name, method, use_continuity)
    ("exactAll", "auto", True), ("exactDoc", "auto", True), ("exactMixed", "auto", True),
    ("oneVsThree", "auto", True), ("oneVsOne", "auto", True), ("small5x40", "auto", True),
    ("forced30x40", "exact", True), ("forced30x40", "asymptotic", True),
    ("exactDoc", "asymptotic", True), ("exactDoc", "asymptotic", False),
    ("tied", "auto", True), ("tied", "auto", False), ("tied", "exact", True),
    ("largeDistinct", "auto", True), ("largeTied", "auto", True),
    ("farApart", "auto", True), ("identical", "auto", True), ("sameValues", "auto", True),
]
method_go = {"auto": "MethodAuto", "exact": "MethodExact", "asymptotic": "MethodAsymptotic"}
alt_go = {"two-sided": "TwoSided", "greater": "Greater", "less": "Less"}
print("// Mann-Whitney U")
for name, method, cont in cases:
    x, y = data[name]
    for alt in ("two-sided", "greater", "less"):
        r = stats.mannwhitneyu(x, y, use_continuity=cont, alternative=alt, method=method)
        print('{"%s", %s, %s, %s, %r, %r},' % (name, method_go[method], alt_go[alt],
              "false" if cont else "true", float(r.statistic), float(r.pvalue)))

print("// Kruskal-Wallis and Dunn")
def gen_groups():
    return [gen(50 + 10 * g, 31 + 2 * g, 7 * g, 97, 1.0, 9.0 * g) for g in range(5)]
groups = {
    "hollanderWolfe": [[2.9, 3.0, 2.5, 2.6, 3.2], [3.8, 2.7, 4.0, 2.4], [2.8, 3.4, 3.7, 2.2, 2.0]],
    "posthocsDoc": [[1, 2, 3, 5, 1], [12, 31, 54], [10, 12, 6, 74, 11]],
    "fiveGroups": gen_groups(),
}
for name, gs in groups.items():
    h, p = stats.kruskal(*gs)
    print('{"%s", %r, %r},' % (name, float(h), float(p)))
    # Dunn (1964) by the textbook formula, tie-corrected, Bonferroni.
    pooled = np.concatenate([np.asarray(g, float) for g in gs])
    ranks = stats.rankdata(pooled)
    N = len(pooled)
    _, t = np.unique(pooled, return_counts=True)
    T = float((t**3 - t).sum())
    sizes = [len(g) for g in gs]
    bounds = np.cumsum([0] + sizes)
    rbar = [ranks[bounds[i]:bounds[i + 1]].mean() for i in range(len(gs))]
    k = len(gs); m = k * (k - 1) // 2
    for i in range(k):
        for j in range(i + 1, k):
            se = np.sqrt((N * (N + 1) / 12 - T / (12 * (N - 1))) * (1 / sizes[i] + 1 / sizes[j]))
            z = (rbar[i] - rbar[j]) / se
            pz = 2 * stats.norm.sf(abs(z))
            print('  {"%s", %d, %d, %r, %r, %r},' % (name, i, j, float(z), float(pz), float(min(1, pz * m))))

print("// normal upper tail")
for z in (0.5, 6.25, 10.0, 20.0):
    print("{%r, %r}," % (z, float(stats.norm.sf(z))))
print("// rankdata / tiecorrect")
v = [3.5, 1.0, 2.0, 3.5, 3.5, -7.0, 2.0, 10.0, np.inf]
print(list(map(float, stats.rankdata(v))), float(stats.tiecorrect(stats.rankdata(v))))
