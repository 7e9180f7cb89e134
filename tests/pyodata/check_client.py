"""A real OData client nobody here wrote (pyodata 1.12.1) against a running server.

Usage: check_client.py SERVICE_ROOT USER PASSWORD QUESTION_ID
Builds the model from $metadata, filters and pages a feed, reads an entity by an
Int64 key and counts. Exits non-zero (with the reason) on any mismatch.
"""
import sys

import pyodata
import requests


def main() -> None:
    root, user, password, question_id = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    session = requests.Session()
    session.auth = (user, password)
    session.headers.update({"MaxDataServiceVersion": "2.0"})
    client = pyodata.Client(root, session)

    names = {entity_set.name for entity_set in client.schema.entity_sets}
    for expected in ("ScoringTasks", "Results", "Questions", "Answers", "ResultsAuditLog"):
        assert expected in names, f"{expected} missing from the model: {sorted(names)}"

    open_tasks = client.entity_sets.ScoringTasks.get_entities().filter("Status eq 0").top(5).execute()
    assert len(open_tasks) == 5, f"top 5 gave {len(open_tasks)}"
    assert all(task.Status == 0 for task in open_tasks)

    counted = client.entity_sets.ScoringTasks.get_entities().filter("Status eq 0").count().execute()
    assert counted > 5, f"count {counted}"

    first = client.entity_sets.Results.get_entities().order_by("ID").top(3).execute()
    second = client.entity_sets.Results.get_entities().order_by("ID").skip(3).top(3).execute()
    assert [r.ID for r in first] + [r.ID for r in second] == sorted(r.ID for r in first + second)
    assert not {r.ID for r in first} & {r.ID for r in second}, "pages overlap"

    question = client.entity_sets.Questions.get_entity(QuestionID=question_id).execute()
    assert question.QuestionID == question_id, f"{question.QuestionID} != {question_id}"

    print(f"pyodata ok: {len(names)} entity sets, {counted} open tasks, question {question.QuestionID}")


if __name__ == "__main__":
    main()
