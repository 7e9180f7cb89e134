"""The item analysis computed independently with numpy and scipy, for
server/tests/statistics_reference.rs: reads {"rows": [[...]], "maxima": [...]} from
the file named first, writes the figures as JSON to standard output."""

import json
import sys

import numpy as np
from scipy import stats

data = json.load(open(sys.argv[1]))
x = np.array(data["rows"], dtype=float)
maxima = np.array(data["maxima"], dtype=float)
n, k = x.shape
totals = x.sum(axis=1)
item_var = x.var(axis=0, ddof=1)
total_var = totals.var(ddof=1)
alpha = k / (k - 1) * (1 - item_var.sum() / total_var)
sd = totals.std(ddof=1)
out = {
    "n": n,
    "mean": float(totals.mean()),
    "sd": float(sd),
    "alpha": float(alpha),
    "sem": float(sd * np.sqrt(1 - alpha)),
    "facility": [float(v) for v in x.mean(axis=0) / maxima],
    "discrimination": [float(stats.pearsonr(x[:, j], totals - x[:, j]).statistic) for j in range(k)],
}
if np.isin(x, [0.0, 1.0]).all():
    # KR-20 by its own formula: p q over the totals' variance, both over N.
    p = x.mean(axis=0)
    out["kr20"] = float(k / (k - 1) * (1 - (p * (1 - p)).sum() / totals.var(ddof=0)))
print(json.dumps(out))
