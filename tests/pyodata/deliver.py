"""External delivery driven by a real OData client (pyodata 1.12.1), as the spec's
workflow goes: create a snapshot, a print batch and an attempt with create_entity,
read the snapshot's XML, POST the upload file as a plain request (pyodata has no
media uploads), read the attempt for its ResultID and the Result with its Answers.

Usage: deliver.py SERVICE_ROOT USER PASSWORD ASSESSMENT_ID GROUP_ID PARTICIPANT_ID
Exits non-zero (with the reason) on any mismatch.
"""
import sys
import xml.etree.ElementTree as ET

import pyodata
import requests

NS = {"s": "urn:scoredesk:assessment-snapshot:1"}


def main() -> None:
    root, user, password = sys.argv[1], sys.argv[2], sys.argv[3]
    assessment_id, group_id, participant_id = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
    session = requests.Session()
    session.auth = (user, password)
    session.headers.update({"MaxDataServiceVersion": "2.0"})
    client = pyodata.Client(root, session)

    snapshot = client.entity_sets.AssessmentSnapshots.create_entity().set(
        ID=0, AssessmentID=assessment_id, Name="Made by pyodata"
    ).execute()
    assert snapshot.ID > 0, f"snapshot ID {snapshot.ID}"
    assert snapshot.AssessmentID == assessment_id

    batch = client.entity_sets.PrintBatches.create_entity().set(
        ID=0, GroupID=group_id, SnapshotID=snapshot.ID, Name="pyodata batch"
    ).execute()
    assert batch.ID > 0 and batch.SnapshotID == snapshot.ID

    attempt = client.entity_sets.Attempts.create_entity().set(
        ID=0,
        ParticipantID=participant_id,
        AssessmentID=assessment_id,
        AssessmentSnapshotID=snapshot.ID,
        ExternalAttemptID="pyodata-attempt-1",
        LockStatus=False,
        LockRequired=False,
    ).execute()
    assert attempt.ID > 0, f"attempt {attempt.ID}"
    # pyodata reads a null Edm.Int32 as 0; the service's answer itself says null.
    raw = session.get(f"{root}Attempts({attempt.ID})", headers={"Accept": "application/json"}).json()
    assert raw["d"]["ResultID"] is None, f"ResultID before the upload: {raw}"

    found = client.entity_sets.Attempts.get_entities().filter("ExternalAttemptID eq 'pyodata-attempt-1'").execute()
    assert [a.ID for a in found] == [attempt.ID], f"found {[a.ID for a in found]}"

    xml = session.get(f"{root}AssessmentSnapshots({snapshot.ID})/AssessmentSnapshotData/$value")
    assert xml.status_code == 200, xml.text
    document = ET.fromstring(xml.content)
    questions = []
    for question in document.findall("s:Question", NS):
        number = int(question.get("OrderNumber"))
        if question.get("ExpectedResponse") == "text_or_image":
            questions.append({"QuestionOrderNumber": number, "TextResponse": "Answered through pyodata."})
        else:
            # The first choice, whatever it is: the test reads the marks back.
            questions.append({
                "QuestionOrderNumber": number,
                "UploadedChoices": [{"ChoiceOrderNumber": "1", "Selected": True}],
            })
    upload = {"AttemptID": attempt.ID, "BatchID": str(batch.ID), "QuestionAndChoices": questions}
    response = session.post(f"{root}AnswerUploads", json=upload)
    assert response.status_code == 201, f"{response.status_code} {response.text}"

    attempt = client.entity_sets.Attempts.get_entity(attempt.ID).execute()
    assert attempt.ResultID is not None, "no ResultID after the upload"
    result = client.entity_sets.Results.get_entity(attempt.ResultID).expand("Answers").execute()
    answers = result.Answers
    assert len(answers) == len(questions), f"{len(answers)} answers for {len(questions)} questions"
    essays = sum(1 for q in questions if "TextResponse" in q)
    # Null scores read through pyodata are 0 (as above): count them in the answer.
    raw = session.get(f"{root}Results({attempt.ResultID})/Answers", headers={"Accept": "application/json"}).json()
    unscored = sum(1 for a in raw["d"]["results"] if a["ActualScore"] is None)
    assert unscored == essays, f"{unscored} answers wait for a scorer, {essays} essays"
    # Coordinators do not read ScoringTasks (the role table); the test counts them.
    print(f"pyodata delivered: snapshot {snapshot.ID}, attempt {attempt.ID}, result {attempt.ResultID}, total {result.TotalScore}")


if __name__ == "__main__":
    main()
