#!/usr/bin/python3
"""Reference values for internal/stats tests.

Run with Debian's python3 (numpy 1.24.2, scipy 1.10.1):
    /usr/bin/python3 internal/stats/testdata/reference.py
The printed numbers are pasted into the *_test.go files as constants.
"""
import numpy as np
from scipy import stats, special

np.set_printoptions(precision=17)

def show(name, v):
    v = np.atleast_1d(np.asarray(v, dtype=float))
    print(f"{name} = {', '.join(repr(float(x)) for x in v)}")

# --- quantiles, numpy default method 'linear' (Hyndman-Fan type 7)
xq = np.array([3.1, 1.4, 1.4, 9.2, 2.6, 5.3, 5.8, 9.7, 9.3, 2.3, 8.4])
ps = [0, 0.1, 0.25, 0.5, 0.9, 0.995, 1]
show("quantile xq", np.quantile(xq, ps))
vw = np.array([20.0, 10, 13, 12, 15])
cw = np.array([5, 3, 4, 1, 1])
show("weighted quantile (np.repeat)", np.quantile(np.repeat(vw, cw), ps))
show("median even", np.median([4.0, 1.0, 3.0, 2.0]))

# --- dispersion on a timing sample
t = np.array([1021.5, 1019.8, 1030.2, 1018.7, 1025.1, 1090.4, 1022.3, 1020.9,
              1023.8, 1019.5, 1021.1, 1024.6])
show("mean", np.mean(t))
show("pop sd", np.std(t))
show("sample sd", np.std(t, ddof=1))
show("cv", np.std(t) / np.mean(t))
show("median", np.median(t))
show("mad", stats.median_abs_deviation(t, scale=1.0))
show("rmad", stats.median_abs_deviation(t, scale=1.0) / np.median(t))
tc = np.array([2, 1, 1, 3, 1, 1, 4, 1, 2, 1, 1, 1])
te = np.repeat(t, tc)
show("weighted mean", np.mean(te))
show("weighted cv", np.std(te) / np.mean(te))
show("weighted median", np.median(te))
show("weighted mad", stats.median_abs_deviation(te, scale=1.0))

# --- bootstrap percentile definition: np.percentile of replicates
r = np.array([(i * 37) % 101 / 7.0 for i in range(101)])
show("percentile 0.5,99.5", np.percentile(r, [0.5, 99.5]))
show("percentile 2.5,97.5", np.percentile(r, [2.5, 97.5]))

# --- bandwidths (R's bw.nrd / bw.nrd0 with type-7 quartiles)
def nrd(x, c):
    q1, q3 = np.quantile(x, [0.25, 0.75])
    return c * min(np.std(x, ddof=1), (q3 - q1) / 1.34) * len(x) ** -0.2
show("bw nrd t", nrd(t, 1.06))
show("bw nrd0 t", nrd(t, 0.9))
show("bw nrd te", nrd(te, 1.06))

# --- Gaussian KDE via scipy.stats.gaussian_kde with a fixed bandwidth h
def kde(x, h, w=None):
    k = stats.gaussian_kde(x, weights=w)
    k.set_bandwidth(h / np.sqrt(k._data_covariance[0, 0]))
    assert abs(k.covariance[0, 0] - h * h) < 1e-12 * h * h
    return k
pts = [1000, 1015, 1020, 1022, 1030, 1050, 1090]
show("kde t h=2.5", kde(t, 2.5)(pts))
show("kde t weighted h=2.5", kde(t, 2.5, tc)(pts))
g = 1000 + 0.5 * np.arange(201)
show("kde t h=2.5 grid[0,57,100,200]", kde(t, 2.5)(g)[[0, 57, 100, 200]])

# --- KLD stability probability (PT4Cloud / Laaber et al.)
def kld_stability(a, b, c=1.06, k=1.5, G=1000, eps=1e-12):
    def fence(x):
        q1, q3 = np.quantile(x, [0.25, 0.75])
        return q1 - k * (q3 - q1), q3 + k * (q3 - q1)
    lo = max(0.0, min(fence(a)[0], fence(b)[0]))
    hi = max(fence(a)[1], fence(b)[1])
    step = (hi - lo) / (G - 1)
    grid = lo + step * np.arange(G)
    p = np.maximum(kde(a, nrd(a, c))(grid) * step, eps)
    q = np.maximum(kde(b, nrd(b, c))(grid) * step, eps)
    d = special.rel_entr(p, q).sum() + special.rel_entr(q, p).sum()
    return d, 2.0 ** -d

rng = np.random.default_rng(7)
a = rng.normal(100, 5, 40).round(2)
b = rng.normal(103, 6, 50).round(2)
print("kld a =", ", ".join(repr(float(x)) for x in a))
print("kld b =", ", ".join(repr(float(x)) for x in b))
show("kld D, p (a,b)", kld_stability(a, b))
show("kld D, p (a,b) nrd0", kld_stability(a, b, c=0.9))
c2 = rng.normal(100, 1, 30).round(2)
d2 = rng.normal(130, 1, 30).round(2)
print("kld c =", ", ".join(repr(float(x)) for x in c2))
print("kld d =", ", ".join(repr(float(x)) for x in d2))
show("kld D, p (c,d) disjoint", kld_stability(c2, d2))
hv = np.array([41.0, 42, 43, 44, 46])
hc1 = np.array([10, 40, 30, 15, 5])
hc2 = np.array([5, 30, 40, 20, 5])
show("kld D, p histogram", kld_stability(np.repeat(hv, hc1), np.repeat(hv, hc2)))
