// breeze-client's OData adapter (with datajs underneath, as it ships) saving two
// ScoringTasks in one change set. ScoreDesk's scoring feeds take PUT only (spec), so
// the adapter's documented change-request interceptor sends each change as a PUT of
// the whole entity instead of breeze's default MERGE of the changed properties.
// Prints a JSON line: what was saved and what breeze made of the answers.
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
globalThis.window = globalThis;
globalThis.XMLHttpRequest = require("xhr2");
globalThis.DOMParser = require("@xmldom/xmldom").DOMParser;
require("datajs");
const breeze = await import("breeze-client");
const { DataServiceODataAdapter } = await import("breeze-client/adapter-data-service-odata");
const { ModelLibraryBackingStoreAdapter } = await import("breeze-client/adapter-model-library-backing-store");
const { UriBuilderODataAdapter } = await import("breeze-client/adapter-uri-builder-odata");

const [root, username, password] = process.argv.slice(2);
const authorization = "Basic " + Buffer.from(`${username}:${password}`).toString("base64");
ModelLibraryBackingStoreAdapter.register();
UriBuilderODataAdapter.register();
const adapter = DataServiceODataAdapter.register();
adapter.headers = { Authorization: authorization };
adapter.changeRequestInterceptor = function (saveContext, saveBundle) {
  this.getRequest = (request, entity) => {
    if (request.method === "MERGE") {
      request.method = "PUT";
      request.data = saveContext.entityManager.helper.unwrapInstance(entity, null);
    }
    return request;
  };
  this.done = () => {};
};
const manager = new breeze.EntityManager(root);
try {
  await manager.fetchMetadata();
  // Two open tasks read with datajs itself: breeze 2.2.2's own query merge stops at
  // the first deferred to-one navigation of an OData v3 feed (result.filter of
  // null), which WCF Data Services writes too; the save path is what is tried here.
  const open = await new Promise((resolve, reject) =>
    OData.read({ requestUri: root + "ScoringTasks?$filter=Status%20eq%200&$top=2", headers: { Authorization: authorization } },
      (data) => resolve(data.results), (error) => reject(error)));
  const results = open.map((task) =>
    manager.createEntity("ScoringTask", { QuestionID: task.QuestionID, ResultID: task.ResultID, Status: task.Status }, breeze.EntityState.Unchanged));
  for (const task of results) task.setProperty("Status", 1);
  const saved = await manager.saveChanges();
  console.log(JSON.stringify({
    saved: saved.entities.map((t) => ({ QuestionID: String(t.getProperty("QuestionID")), ResultID: t.getProperty("ResultID"), Status: t.getProperty("Status"), state: t.entityAspect.entityState.name })),
    pending: manager.hasChanges(),
  }));
} catch (error) {
  console.log(JSON.stringify({ error: String(error && (error.message || error)), detail: error && error.body ? String(error.body).slice(0, 500) : undefined }));
  process.exitCode = 1;
}
