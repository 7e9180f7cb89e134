"""pyslet's OData client (an Atom client from PyPI) against ScoreDesk: it reads the
service document and $metadata, filters and pages ScoringTasks and Results
through their next links, reads a Question's markup, and scores a task: PUT its
Status, follows its ScoringResult navigation, PUTs the ScoringResult with the ETag
it read, and sees a stale copy refused with 412. Prints one JSON object of what it
saw; the Rust test (tests/tests/api/pyslet.rs) checks it.

    python score.py ROOT USER PASSWORD
"""

import io
import json
import sys

import pyslet.odata2.core as core
from pyslet.odata2.csdl import ConstraintError
from pyslet.http.auth import BasicCredentials
from pyslet.odata2.client import Client, UnexpectedHTTPResponse
from pyslet.rfc2396 import URI

root, user, password = sys.argv[1:4]
client = Client()
credentials = BasicCredentials()
credentials.userid = user
credentials.password = password
credentials.protectionSpace = URI.from_octets(root).get_canonical_root()
client.add_credentials(credentials)
client.load_service(root)
seen = {"feeds": sorted(client.feeds.keys())}


def count_all(name, filter_text=None):
    with client.feeds[name].open() as collection:
        if filter_text:
            collection.set_filter(core.CommonExpression.from_str(filter_text))
        return sum(1 for _ in collection.itervalues())


seen["open_tasks"] = count_all("ScoringTasks", "Status eq 0")
seen["results"] = count_all("Results")

with client.feeds["Questions"].open() as questions:
    question = next(iter(questions.itervalues()))
    markup = io.BytesIO()
    stream = questions.read_stream(question.key(), markup)
    seen["markup_type"] = str(stream.type)
    seen["markup"] = markup.getvalue().decode("utf-8")

with client.feeds["ScoringTasks"].open() as tasks:
    tasks.set_filter(core.CommonExpression.from_str("Status eq 0 and QuestionID eq %sL" % sys.argv[4]))
    task = next(iter(tasks.itervalues()))
    seen["task"] = [str(part) for part in task.key()]
    task["Status"].set_from_value(1)
    tasks.update_entity(task)

with client.feeds["ScoringTasks"].open() as tasks:
    task = tasks[task.key()]
    seen["status_after"] = task["Status"].value
    with task["ScoringResult"].open() as results:
        result = next(iter(results.itervalues()))
        stale = next(iter(results.itervalues()))
        result["Score"].set_from_value(1)
        result["Comments"].set_from_value("Scored from pyslet")
        results.update_entity(result)
        seen["scored"] = True
        stale["Score"].set_from_value(0)
        try:
            results.update_entity(stale)
            seen["stale"] = "accepted"
        except (ConstraintError, UnexpectedHTTPResponse) as error:
            # pyslet raises a 412 as a ConstraintError carrying the error's code.
            seen["stale"] = str(error)
    with task["ScoringResult"].open() as results:
        seen["score_after"] = next(iter(results.itervalues()))["Score"].value

print(json.dumps(seen))
