# Exact two-sided Mann-Whitney p-value for two samples of 450 (C(900, 450) ≈ 1e269,
# beyond float64 without scaling), in exact integer arithmetic.
# Run: /usr/bin/python3 testdata/exact_bigint.py   (about 10 s; scipy 1.10.1 for U only:
# its own method="exact" would need a 451×451×92509 table)
from math import comb
from fractions import Fraction
from scipy import stats

def gen(n, a, b, mod, scale, offset):
    return [((i * a + b) % mod) * scale + offset for i in range(n)]

x = gen(450, 7919, 13, 100003, 2.0, 9000.0)
y = gen(450, 104729, 17, 100003, 2.0, 1.0)
n = m = 450
U1 = stats.mannwhitneyu(x, y, method="asymptotic").statistic
k = int(min(U1, n * m - U1))
# Coefficients of the Gaussian binomial [n+m choose m]_q up to degree k
# (number of rank sets with U = u), as Python integers.
c = [0] * (k + 1)
c[0] = 1
for i in range(1, m + 1):
    s = n + i
    for u in range(k, s - 1, -1):
        c[u] -= c[u - s]
    for u in range(i, k + 1):
        c[u] += c[u - i]
print(U1, float(Fraction(2 * sum(c), comb(n + m, n))))
# Output: 109992.0 0.024923623797979556
