"""A real OData client nobody here wrote (pyodata 1.12.1) against a running server.

Usage: check_client.py SERVICE_ROOT USER PASSWORD QUESTION_ID TASK_QUESTION_ID TASK_RESULT_ID
Builds the model from $metadata, filters and pages a feed, reads an entity by an
Int64 key and counts; then scores the task the way a scoring tool does: PUT its
Status, follow it to its ScoringResult, PUT that with the ModifiedDateTime it read
(and see a stale one refused), set the task to 3 and read the answer's new score.
Exits non-zero (with the reason) on any mismatch.
"""
import sys

import pyodata
import requests
from pyodata.exceptions import HttpError


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

    score_task(client, int(sys.argv[5]), int(sys.argv[6]))

    print(f"pyodata ok: {len(names)} entity sets, {counted} open tasks, question {question.QuestionID}")


def score_task(client, question_id: int, result_id: int) -> None:
    tasks = client.entity_sets.ScoringTasks
    key = {"QuestionID": question_id, "ResultID": result_id}
    tasks.update_entity(method="PUT", **key).set(Status=1).execute()
    task = tasks.get_entity(**key).execute()
    assert task.Status == 1, f"status {task.Status}"

    scoring_results = task.nav("ScoringResult").get_entities().execute()
    assert len(scoring_results) == 1, f"{len(scoring_results)} scoring results"
    read = scoring_results[0]
    sr_key = {"QuestionID": question_id, "RubricID": read.RubricID, "ResultID": result_id}
    client.entity_sets.ScoringResults.update_entity(method="PUT", **sr_key).set(
        Score=2, Comments="scored by pyodata", ModifiedDateTime=read.ModifiedDateTime
    ).execute()
    try:
        client.entity_sets.ScoringResults.update_entity(method="PUT", **sr_key).set(
            Score=0, Comments="stale", ModifiedDateTime=read.ModifiedDateTime
        ).execute()
        raise AssertionError("a stale ModifiedDateTime was accepted")
    except HttpError as error:
        assert error.response.status_code == 412, f"stale PUT gave {error.response.status_code}"
    stored = client.entity_sets.ScoringResults.get_entity(**sr_key).execute()
    assert (stored.Score, stored.Comments) == (2, "scored by pyodata"), f"{stored.Score} {stored.Comments}"

    tasks.update_entity(method="PUT", **key).set(Status=3).execute()
    answer = tasks.get_entity(**key).nav("Answer").execute()
    assert answer.ActualScore == 2, f"answer score {answer.ActualScore}"


if __name__ == "__main__":
    main()
