//! To-one expansions read in their parent's own statement (a LEFT JOIN,
//! `Navigation::joinable`) against the same targets read on their own: for every
//! feed and every to-one navigation, each expanded entity is exactly what its
//! navigation path (`Set(key)/Navigation`) answers, annotations included (but
//! signed print links, which only single-entity reads carry), and a
//! parent without a target shows `null` where the path answers 204.

use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::feeds::catalogue;

on_both_backends! {
    every_to_one_expansion_is_the_entity_its_navigation_path_reads => expansions_match_paths;
}

const FULL: [(&str, &str); 1] = [("Accept", "application/json;odata=fullmetadata")];

async fn expansions_match_paths(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (mut compared, mut absent) = (0, 0);
    for set in catalogue::all()
        .iter()
        .filter(|s| s.name != "AssessmentSnapshots")
    {
        for navigation in set.navigations.iter().filter(|n| !n.many) {
            let page = format!(
                "{}{}?$top=5&$expand={}",
                app.root(),
                set.name,
                navigation.name
            );
            let (status, body) = app.get_json_with("northwind-admin", &page, &FULL).await;
            assert_eq!(status, 200, "{page}: {body}");
            for entity in body["value"].as_array().unwrap() {
                let edit = entity["odata.editLink"].as_str().unwrap();
                let path = format!("{}{edit}/{}", app.root(), navigation.name);
                let (status, mut alone) = app.get_json_with("northwind-admin", &path, &FULL).await;
                if status == 204 {
                    // No target: the path answers No Content, the expansion null.
                    assert!(entity[navigation.name].is_null(), "{page}: {entity}");
                    absent += 1;
                    continue;
                }
                assert_eq!(status, 200, "{path}: {alone}");
                let alone = alone.as_object_mut().unwrap();
                alone.remove("odata.metadata");
                let mut expanded = entity[navigation.name].as_object().unwrap().clone();
                // Signed print links are filled on single-entity reads only, null
                // in collections and expansions (docs/delivery.md).
                let target = catalogue::by_name(navigation.target).unwrap();
                for computed in target.properties.iter().filter(|p| p.column.is_empty()) {
                    assert!(expanded[computed.name].is_null(), "{page}: {computed:?}");
                    expanded.remove(computed.name);
                    alone.remove(computed.name);
                }
                assert_eq!(&expanded, alone, "{page}: {edit}/{}", navigation.name);
                compared += 1;
            }
        }
    }
    assert!(compared >= 40, "only {compared} expansions compared");
    assert!(absent > 0, "no expansion without a target met");
    without_a_target(&app).await;
}

/// A task without a group (an upload not from a print batch): its expansion of
/// Group is null, in a feed and alone, where its path answers 204.
async fn without_a_target(app: &TestApp) {
    let area = app.northwind();
    let result = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(result_id) AS BIGINT) FROM scoring_tasks WHERE customer_id = {area}"
        ))
        .await;
    let question = app
        .sql_i64(&format!(
            "SELECT MIN(question_id) FROM scoring_tasks WHERE customer_id = {area} AND result_id = {result}"
        ))
        .await;
    app.sql_execute(&format!(
        "UPDATE scoring_tasks SET group_id = NULL WHERE customer_id = {area} AND result_id = {result}"
    ))
    .await;
    let task = format!(
        "{}ScoringTasks(QuestionID={question}L,ResultID={result})",
        app.root()
    );
    let alone = app.get_json(&format!("{task}?$expand=Group,Result")).await;
    assert!(alone["Group"].is_null(), "{alone}");
    assert_eq!(alone["Result"]["ID"], result, "{alone}");
    let (tasks, _) = app
        .get_all_pages(&format!(
            "{}ScoringTasks?$filter=Result/ID eq {result}&$expand=Group",
            app.root()
        ))
        .await;
    assert!(!tasks.is_empty() && tasks.iter().all(|t| t["Group"].is_null()));
    let (status, _) = app
        .get_json_with("northwind-admin", &format!("{task}/Group"), &[])
        .await;
    assert_eq!(status, 204);
}
