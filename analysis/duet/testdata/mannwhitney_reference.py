#!/usr/bin/python3
"""Reference p-values of TestMannWhitneyOptions (stages_test.go):
scipy.stats.mannwhitneyu with its defaults (two-sided, method "auto": the
exact distribution unless both samples have more than 8 values or there are
ties, otherwise the asymptotic normal with tie and continuity correction).

    /usr/bin/python3 analysis/duet/testdata/mannwhitney_reference.py

Made with Debian's python3-scipy 1.10.1 (numpy 1.24.2); prints one line per
case: p with %r, and whether the exact distribution was used.
"""
import numpy as np
from scipy.stats import mannwhitneyu


def seq(start, n, add):
    return [float(start + i) + add for i in range(n)]


cases = [
    ([1, 2, 2, 3], [2, 4, 5]),
    ([1, 2.5, 3.5, 7], [2, 4, 5]),
    (seq(0, 12, 0), seq(3, 12, 0.5)),
]
for a, b in cases:
    r = mannwhitneyu(a, b)
    ties = len(set(a) | set(b)) < len(a) + len(b)
    exact = not (len(a) > 8 and len(b) > 8) and not ties  # scipy's _mwu_choose_method
    print("%r %s" % (float(r.pvalue), "exact" if exact else "asymptotic"))
