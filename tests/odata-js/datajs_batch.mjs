// datajs 1.0.3's own $batch, as it writes it: a GET whose request line holds the
// filter's spaces unencoded, and a change set PUTting a task's Status. Prints a
// JSON line with what came back for each part.
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
globalThis.window = globalThis;
globalThis.XMLHttpRequest = require("xhr2");
globalThis.DOMParser = require("@xmldom/xmldom").DOMParser;
require("datajs");

const [root, username, password] = process.argv.slice(2);
const headers = { Authorization: "Basic " + Buffer.from(`${username}:${password}`).toString("base64") };
const read = (uri) => new Promise((resolve, reject) =>
  OData.read({ requestUri: root + uri, headers }, (data) => resolve(data), reject));
try {
  const [task] = (await read("ScoringTasks?$filter=Status eq 0&$top=1")).results;
  const key = `ScoringTasks(QuestionID=${task.QuestionID}L,ResultID=${task.ResultID})`;
  const answer = await new Promise((resolve, reject) => OData.request({
    requestUri: root + "$batch",
    method: "POST",
    headers,
    data: { __batchRequests: [
      { requestUri: "ScoringTasks/$count?$filter=Status eq 0", method: "GET" },
      { __changeRequests: [
        { requestUri: key, method: "PUT", headers: { "Content-ID": "1" },
          data: { QuestionID: task.QuestionID, ResultID: task.ResultID, Status: 2 } },
      ] },
    ] },
  }, (data) => resolve(data), reject, OData.batchHandler));
  const [count, changeSet] = answer.__batchResponses;
  const change = changeSet.__changeResponses[0];
  const after = await read(key);
  console.log(JSON.stringify({
    count: count.statusCode, countBody: count.body,
    change: change.statusCode, changeContentId: change.headers["Content-ID"],
    task: key, statusAfter: after.Status,
  }));
} catch (error) {
  console.log(JSON.stringify({ error: String(error && (error.message || error)), body: error && error.response && String(error.response.body).slice(0, 400) }));
  process.exitCode = 1;
}
