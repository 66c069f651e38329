#!/usr/bin/env python3
"""Reference BCa intervals for internal/stats TestBCaScipy.

Run with scipy 1.10.1 / numpy 1.24.2 (Debian bookworm python3-scipy):

    python3 internal/stats/testdata/bca_reference.py > internal/stats/testdata/bca_reference.json

For each (distribution, n, seed) it draws x with numpy's default_rng(seed)
and averages the bounds of REPS = 5 calls of scipy.stats.bootstrap((x,),
np.mean, method='BCa', confidence_level=0.95, n_resamples=200000,
random_state=1000*seed+rep). The many resamples keep scipy's Monte-Carlo
error of each bound near 0.1 % of the interval width (up to about 0.7 % for
a log-normal sample with an outlier), so the Go test can compare its own,
differently drawn, bounds (also averaged over 5 streams) with a 1 %
tolerance. The acceleration a_hat is
deterministic and comes from scipy's _bca_interval.
"""
import json

import numpy as np
import scipy
from scipy import stats
from scipy.stats import _resampling

B = 200000
REPS = 5
cases = []
for dist in ("normal", "lognormal", "exponential"):
    for n in (10, 20, 30, 50):
        for seed in (1, 2, 3):
            rng = np.random.default_rng(seed)
            if dist == "normal":
                x = rng.normal(10.0, 2.0, n)
            elif dist == "lognormal":
                x = rng.lognormal(0.0, 0.75, n)
            else:
                x = rng.exponential(3.0, n)
            lows, highs = [], []
            for rep in range(REPS):
                res = stats.bootstrap((x,), np.mean, method="BCa", confidence_level=0.95,
                                      n_resamples=B, random_state=1000 * seed + rep)
                lows.append(res.confidence_interval.low)
                highs.append(res.confidence_interval.high)
            _, _, a_hat = _resampling._bca_interval(
                (x,), np.mean, axis=-1, alpha=0.025,
                theta_hat_b=res.bootstrap_distribution[None, :], batch=None)
            cases.append({
                "dist": dist, "n": n, "seed": seed,
                "x": [float(v) for v in x],
                "low": float(np.mean(lows)),
                "high": float(np.mean(highs)),
                "a_hat": float(np.asarray(a_hat).ravel()[0]),
            })
print(json.dumps({"scipy": scipy.__version__, "numpy": np.__version__,
                  "resamples": B, "repetitions": REPS, "confidence": 0.95, "cases": cases}, indent=1))
