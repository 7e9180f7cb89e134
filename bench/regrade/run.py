"""scripts/bench --regrade: a lead corrects the rubric of the question that
mark.sql scored and regrades its scripts over HTTP, while a scorer's client polls
Q1; prints one Markdown row: scripts, seconds, scripts a second, the pace of the
last fifth against the first (from the audit entry's Regraded, sampled), the
readers' p99 meanwhile, totals changed and results rescored.

    python3 run.py BASE_URL USER PASSWORD DATABASE_NAME
"""

import base64
import json
import statistics
import sys
import threading
import time
import urllib.parse
import urllib.request

base, user, password, name = sys.argv[1:5]
auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Authorization", auth)
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=3600) as response:
        text = response.read()
    return json.loads(text) if text else None


def q(path):
    return urllib.parse.quote(path, safe="/?=&(),'$")


question = call("GET", q("Questions?$filter=Rubric/any()&$orderby=QuestionID&$top=1&$select=QuestionID"))["value"][0]["QuestionID"]
old = call("GET", q(f"Questions({question}L)/Rubric?$expand=Dimensions"))["value"][0]
dimensions = sorted(old["Dimensions"], key=lambda d: d["Order"])
correction = {
    "QuestionID": question,
    "Name": old["Name"] + " (corrected)",
    "MaxScore": old["MaxScore"],
    "Dimensions": [{"Order": d["Order"], "Name": d["Name"], "MaxScore": d["MaxScore"]} for d in dimensions],
}
new = call("POST", "Rubrics", correction)["ID"]
counted = call("GET", f"RegradeCount?RubricID={old['ID']}")
top = dimensions[0]["MaxScore"]
body = {
    "FromRubricID": old["ID"],
    "ToRubricID": new,
    "Scripts": counted["Scripts"],
    "Reason": "bench: the first dimension's levels each worth one less",
    "Dimensions": [{"Order": 1, "Scores": [max(s - 1, 0) for s in range(top + 1)]}],
}

done = threading.Event()
reads = []
progress = []


def poll_q1():
    path = q("ScoringTasks?$filter=Status eq 0&$orderby=Result/WhenFinished desc&$top=50&$expand=Result")
    while not done.is_set():
        started = time.perf_counter()
        call("GET", path)
        reads.append(time.perf_counter() - started)
        time.sleep(0.1)


def poll_progress(started):
    path = q("RubricRegrades?$orderby=ID desc&$top=1")
    while not done.is_set():
        rows = call("GET", path)["value"]
        if rows:
            progress.append((time.perf_counter() - started, rows[0]["Regraded"]))
        time.sleep(0.5)


readers = threading.Thread(target=poll_q1)
readers.start()
started = time.perf_counter()
watcher = threading.Thread(target=poll_progress, args=(started,))
watcher.start()
audit = call("POST", "RubricRegrades", body)
# A regrade longer than the server's wait is answered while it runs.
while audit["CompletedDateTime"] is None:
    time.sleep(0.2)
    audit = call("GET", f"RubricRegrades({audit['ID']})")
seconds = time.perf_counter() - started
done.set()
readers.join()
watcher.join()

scripts = audit["Regraded"]
# The pace of the last fifth of the scripts against the first, from the samples.
fifth = scripts / 5


def pace(low, high):
    inside = [(t, n) for t, n in progress if low <= n <= high]
    if len(inside) < 2 or inside[-1][0] == inside[0][0]:
        return None
    return (inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0])


first, last = pace(0, fifth), pace(4 * fifth, scripts)
trend = f"{100 * (last - first) / first:+.1f} %" if first and last else "n/a"
p99 = statistics.quantiles(reads, n=100)[98] * 1000 if len(reads) >= 2 else float("nan")
print(
    f"| {name} | {scripts} | {seconds:.1f} | {scripts / seconds:,.0f} | {trend} | {p99:.1f} ms ({len(reads)}) "
    f"| {audit['TotalsChanged']} | {audit['ResultsRescored']} |"
)
