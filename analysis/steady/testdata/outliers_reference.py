"""Reference outlier indices for outliers_test.go (TestFindOutliersReference).

Emulates the outlier rule of Traini et al.'s filter_outliers.py with numpy:
every window of `window` consecutive indices of range(skip, n) flags the
points outside median ± 3·(p99 − p1) of its values (np.median, np.quantile
with numpy's default linear interpolation); a point is an outlier when any
window flags it. Run with Debian's python3 (numpy 1.24.2):

    /usr/bin/python3 testdata/outliers_reference.py
"""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def series(n):
    i = np.arange(n, dtype=float)
    x = 100 + 2 * np.sin(0.7 * i) + 0.5 * np.cos(1.3 * i) + 50 * np.exp(-i / 8)
    for k, f in [(3, 3.0), (57, 1.2), (240, 1.5), (241, 1.5), (400, 0.7), (598, 2.0)]:
        x[k] *= f
    return x


def outliers(x, window, skip):
    idx = np.arange(skip, len(x))
    out = set()
    for w in sliding_window_view(idx, window):
        v = x[w]
        med = np.median(v)
        band = 3 * (np.quantile(v, 0.99) - np.quantile(v, 0.01))
        out.update(int(i) for i in w if x[i] > med + band or x[i] < med - band)
    return sorted(out)


for window, skip in [(200, 18), (200, 0), (50, 5)]:
    print(window, skip, outliers(series(600), window, skip))
