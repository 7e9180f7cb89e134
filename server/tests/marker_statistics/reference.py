"""Each marker's figures computed independently, for
server/tests/marker_statistics_reference.rs: reads {"scripts": [[result, marker,
total, at_ms], ...], "break_ms": b, "window": w} from the file named first and
writes, as JSON to standard output, per marker with pandas, NumPy and SciPy:
his count, mean, standard deviation (ddof 1), the median of the gaps between
his scripts that are at most b, the slope of numpy.polyfit over his scripts in
order (per 100), the mean difference from the other markers' scripts and
Welch's t (scipy.stats.ttest_ind, equal_var=False), and each window of w
scripts' mean less the question's mean."""

import json
import sys

import numpy as np
import pandas as pd
from scipy import stats

data = json.load(open(sys.argv[1]))
frame = pd.DataFrame(data["scripts"], columns=["result", "marker", "total", "at"])
frame = frame.sort_values(["marker", "at", "result"])
question_mean = frame["total"].mean()
out = {"question_mean": question_mean, "markers": {}}
pooled = []
for marker, his in frame.groupby("marker", sort=True):
    totals = his["total"].to_numpy(dtype=float)
    others = frame.loc[frame["marker"] != marker, "total"].to_numpy(dtype=float)
    gaps = np.diff(his["at"].to_numpy())
    gaps = gaps[(gaps >= 0) & (gaps <= data["break_ms"])]
    pooled.extend(gaps.tolist())
    welch = stats.ttest_ind(totals, others, equal_var=False)
    windows = [
        float(np.mean(totals[i : i + data["window"]]) - question_mean)
        for i in range(0, len(totals), data["window"])
    ]
    out["markers"][marker] = {
        "scripts": int(len(totals)),
        "mean": float(totals.mean()),
        "spread": float(totals.std(ddof=1)),
        "median_seconds": float(np.median(gaps)) / 1000.0,
        "marking_minutes": float(gaps.sum()) / 60000.0,
        "drift_per_hundred": float(np.polyfit(np.arange(len(totals)), totals, 1)[0]) * 100.0,
        "mean_difference": float(totals.mean() - others.mean()),
        "welch_t": float(welch.statistic),
        "windows": windows,
    }
out["median_seconds"] = float(np.median(pooled)) / 1000.0
print(json.dumps(out))
