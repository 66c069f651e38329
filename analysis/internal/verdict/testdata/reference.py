# The reference values of verdict_test.go: scipy 1.10.1 (Debian's
# python3-scipy, /usr/bin/python3).
from scipy import stats
import numpy as np
x = np.array([1, 2, 3, 4, 5.])
print(repr(stats.t.ppf(0.975, 4)))                                  # TQuantile(0.975, 4)
print(repr(stats.t.ppf(0.975, 4) * x.std(ddof=1) / np.sqrt(5)))     # MeanError(x, 0.05) half-width
print(repr(stats.t.ppf(0.9995, 19)))                                # JMH's 99.9 % score error, 20 iterations
