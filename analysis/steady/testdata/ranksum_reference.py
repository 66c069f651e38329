#!/usr/bin/python3
"""Reference of the rank-sum p in TestCompareHandComputed's WEE comparison
(evaluate_test.go): scipy.stats.mannwhitneyu, two-sided, of
A = {10, 3, 20} against B = {1, 2, 30} (no ties, sizes 3 and 3, so the
exact distribution).

    /usr/bin/python3 analysis/steady/testdata/ranksum_reference.py

Made with Debian's python3-scipy 1.10.1: statistic 6.0, p 0.7.
"""
from scipy.stats import mannwhitneyu

r = mannwhitneyu([10, 3, 20], [1, 2, 30])
print("statistic %r p %r" % (float(r.statistic), float(r.pvalue)))
