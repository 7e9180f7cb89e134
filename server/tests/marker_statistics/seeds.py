"""Each marker's figures against the definitive marks of the check scripts
(seeds) he scored, computed independently for
server/tests/marker_statistics_reference.rs: reads {"seeds": [[result, marker,
deviation, at_ms], ...], "at_least": n} from the file named first and writes, as
JSON to standard output, with pandas and NumPy: per marker his count, the mean
of his deviations, the mean of their absolute values, the share that are 0, and
(from n seeds) the slope of numpy.polyfit of his deviations over his seeds in
the order he scored them (time, then result), per 10 seeds; and the same but
the slope over every marker's seeds."""

import json
import sys

import numpy as np
import pandas as pd

data = json.load(open(sys.argv[1]))
frame = pd.DataFrame(data["seeds"], columns=["result", "marker", "deviation", "at"])
frame = frame.sort_values(["marker", "at", "result"])


def figures(deviations, drift):
    values = deviations.to_numpy(dtype=float)
    out = {
        "seeds": int(len(values)),
        "mean": float(values.mean()),
        "absolute": float(np.abs(values).mean()),
        "exact": float((values == 0).mean()),
        "drift_per_ten": None,
    }
    if drift and len(values) >= data["at_least"]:
        out["drift_per_ten"] = float(np.polyfit(np.arange(len(values)), values, 1)[0]) * 10.0
    return out


out = {
    "question": figures(frame["deviation"], False),
    "markers": {m: figures(his["deviation"], True) for m, his in frame.groupby("marker", sort=True)},
}
print(json.dumps(out))
