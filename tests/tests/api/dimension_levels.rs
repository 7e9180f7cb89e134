//! Our extension feed `DimensionLevels` (docs/odata.md, "Extensions"): what earns
//! each score of a rubric's dimension, read by scorers with the rubric, never by
//! coordinators or another area, and not written through the service.

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::Value;

use crate::scoring_support::SCORER;

on_both_backends! {
    a_scorer_reads_what_earns_each_score_of_a_rubrics_dimensions => read_levels;
    coordinators_other_areas_and_writes_never_reach_the_levels => levels_access;
}

/// The Northwind rubric with the most levels.
async fn rubric_with_levels(app: &TestApp) -> i64 {
    app.sql_i64(&format!(
        "SELECT CAST(rubric_id AS BIGINT) FROM dimension_levels WHERE customer_id = {} \
         GROUP BY rubric_id ORDER BY COUNT(*) DESC, rubric_id LIMIT 1",
        app.northwind()
    ))
    .await
}

async fn read_levels(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let rubric = rubric_with_levels(&app).await;
    let (status, body) = app
        .get_json_with(
            SCORER,
            &format!(
                "{}DimensionLevels?$filter=RubricID eq {rubric}&$orderby=Order,Score&$expand=Dimension",
                app.root()
            ),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let levels = body["value"].as_array().unwrap();
    let dimensions = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM dimensions WHERE rubric_id = {rubric}"
        ))
        .await;
    let scores = app
        .sql_i64(&format!(
            "SELECT SUM(max_score + 1) FROM dimensions WHERE rubric_id = {rubric}"
        ))
        .await;
    assert!(dimensions >= 2);
    assert_eq!(
        levels.len() as i64,
        scores,
        "every score of every dimension has its level"
    );
    let mut previous = (0, -1);
    for level in levels {
        let key = (
            level["Order"].as_i64().unwrap(),
            level["Score"].as_i64().unwrap(),
        );
        assert!(key > previous, "ordered by Order, then Score");
        previous = key;
        assert!(key.1 <= level["Dimension"]["MaxScore"].as_i64().unwrap());
        assert_eq!(level["Dimension"]["Order"], level["Order"]);
        assert!(!level["Description"].as_str().unwrap().is_empty());
    }
    // One level by its key, and the declaration in $metadata.
    let (order, score) = previous;
    let one = app
        .get_json(&format!(
            "{}DimensionLevels(RubricID={rubric},Order={order},Score={score})",
            app.root()
        ))
        .await;
    assert_eq!(one["Score"], score);
    let metadata = app
        .request_as(
            Method::GET,
            &format!("{}$metadata", app.root()),
            SCORER,
            DEMO_PASSWORD,
        )
        .await
        .text()
        .await
        .unwrap();
    assert!(metadata.contains(r#"<EntitySet Name="DimensionLevels""#));
}

async fn levels_access(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let rubric = rubric_with_levels(&app).await;
    let path = format!("{}DimensionLevels?$filter=RubricID eq {rubric}", app.root());
    let (status, _) = app.get_json_with("northwind-coordinator", &path, &[]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Harbour's administrator, in Harbour's area, finds none of Northwind's levels.
    let harbour = format!(
        "/deliveryodata/{}/DimensionLevels?$filter=RubricID eq {rubric}",
        app.harbour()
    );
    let (status, body) = app.get_json_with("harbour-admin", &harbour, &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["value"], Value::Array(Vec::new()));
    // Read-only: no method writes them.
    for method in [Method::POST, Method::PUT, Method::DELETE] {
        let target = if method == Method::POST {
            format!("{}DimensionLevels", app.root())
        } else {
            format!(
                "{}DimensionLevels(RubricID={rubric},Order=1,Score=0)",
                app.root()
            )
        };
        let response = app
            .request_as(method.clone(), &target, "northwind-admin", DEMO_PASSWORD)
            .await;
        assert_eq!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method}"
        );
    }
}
