"""Agreement between two markings computed independently, for
server/tests/agreement_reference.rs: reads {"pairs": [[a, b], ...], "max": m} from
the file named first and writes, as JSON to standard output, scikit-learn's
cohen_kappa_score with quadratic weights over the labels 0..m and pingouin's
ICC1 (one-way random, single marking), with the exact and within-one shares."""

import json
import sys

import numpy as np
import pandas as pd
import pingouin as pg
from sklearn.metrics import cohen_kappa_score

data = json.load(open(sys.argv[1]))
pairs = np.array(data["pairs"], dtype=int)
labels = list(range(data["max"] + 1))
first, second = pairs[:, 0], pairs[:, 1]
long = pd.DataFrame(
    {
        "script": np.concatenate([np.arange(len(pairs))] * 2),
        "marking": ["first"] * len(pairs) + ["second"] * len(pairs),
        "total": np.concatenate([first, second]).astype(float),
    }
)
icc = pg.intraclass_corr(data=long, targets="script", raters="marking", ratings="total")
print(
    json.dumps(
        {
            "pairs": len(pairs),
            "exact": float(np.mean(first == second)),
            "within_one": float(np.mean(np.abs(first - second) <= 1)),
            "quadratic_kappa": float(
                cohen_kappa_score(first, second, labels=labels, weights="quadratic")
            ),
            "icc": float(icc.set_index("Type").loc["ICC1", "ICC"]),
        }
    )
)
