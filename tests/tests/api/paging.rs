//! Server-driven paging: continuation links, `$count`, `$inlinecount`, `$top`, `$skip`.

use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};

on_both_backends! {
    following_continuation_links_returns_every_entity_exactly_once_and_agrees_with_count => continuation_covers_everything;
    inlinecount_agrees_with_count => inlinecount_agrees;
    orderby_result_when_finished_desc_is_really_ordered_across_pages => ordered_across_pages;
    top_and_skip_select_the_same_slice_as_the_full_order => top_and_skip;
    continuation_stays_correct_while_rows_are_inserted => paging_with_inserts;
    an_altered_skiptoken_is_refused => altered_skiptoken;
}

fn ids(entities: &[serde_json::Value], key: &str) -> Vec<String> {
    entities.iter().map(|e| e[key].to_string()).collect()
}

async fn count(app: &TestApp, path: &str) -> usize {
    let response = app.get_as("northwind-admin", path).await;
    assert_eq!(response.status(), 200, "{path}");
    response.text().await.unwrap().parse().unwrap()
}

async fn continuation_covers_everything(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let root = app.root();
    for (feed, key, filter) in [
        ("Results", "ID", ""),
        ("Results", "ID", "$orderby=WhenFinished desc"),
        ("ScoringTasks", "ResultID", "$filter=Status eq 0"),
        ("Answers", "ResultID", "$filter=ResultID le 120"),
    ] {
        let (entities, pages) = app.get_all_pages(&format!("{root}{feed}?{filter}")).await;
        let expected = count(
            &app,
            &format!(
                "{root}{feed}/$count?{}",
                filter.replace("$orderby=WhenFinished desc", "")
            ),
        )
        .await;
        assert_eq!(entities.len(), expected, "{feed}?{filter}");
        assert!(pages > 1, "{feed}?{filter} needs several pages of 100");
        let mut seen: Vec<String> = entities.iter().map(|e| e.to_string()).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(
            seen.len(),
            entities.len(),
            "{feed}?{filter}: an entity came twice"
        );
        let _ = ids(&entities, key);
    }
}

async fn inlinecount_agrees(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let root = app.root();
    let body = app
        .get_json(&format!(
            "{root}ScoringTasks?$filter=Status eq 0&$inlinecount=allpages&$top=3"
        ))
        .await;
    let inline: usize = body["odata.count"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        inline,
        count(
            &app,
            &format!("{root}ScoringTasks/$count?$filter=Status eq 0")
        )
        .await
    );
    assert_eq!(body["value"].as_array().unwrap().len(), 3);
}

async fn ordered_across_pages(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let path = format!(
        "{}ScoringTasks?$filter=Status eq 0&$orderby=Result/WhenFinished desc&$expand=Result",
        app.root()
    );
    let (tasks, pages) = app.get_all_pages(&path).await;
    assert!(pages >= 3);
    let finished: Vec<&str> = tasks
        .iter()
        .map(|t| t["Result"]["WhenFinished"].as_str().unwrap())
        .collect();
    assert!(
        finished.windows(2).all(|w| w[0] >= w[1]),
        "not in descending WhenFinished order"
    );
    assert_eq!(
        tasks.len(),
        count(
            &app,
            &format!("{}ScoringTasks/$count?$filter=Status eq 0", app.root())
        )
        .await
    );
}

async fn top_and_skip(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let root = app.root();
    let (all, _) = app
        .get_all_pages(&format!(
            "{root}Results?$orderby=GroupName,WhenFinished desc"
        ))
        .await;
    let body = app
        .get_json(&format!(
            "{root}Results?$orderby=GroupName,WhenFinished desc&$top=7&$skip=95"
        ))
        .await;
    let slice = body["value"].as_array().unwrap();
    assert_eq!(ids(slice, "ID"), ids(&all[95..102], "ID"));
    assert!(
        body.get("odata.nextLink").is_none(),
        "$top within a page needs no continuation"
    );
    // A $top larger than a page continues with the rest of the $top.
    let (capped, pages) = app
        .get_all_pages(&format!("{root}Results?$orderby=ID&$top=150"))
        .await;
    assert_eq!((capped.len(), pages), (150, 2));
    assert_eq!(ids(&capped, "ID"), ids(&all_by_id(&app).await[..150], "ID"));
}

async fn all_by_id(app: &TestApp) -> Vec<serde_json::Value> {
    app.get_all_pages(&format!("{}Results?$orderby=ID", app.root()))
        .await
        .0
}

async fn paging_with_inserts(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let first = app
        .get_json(&format!("{}Results?$orderby=ID", app.root()))
        .await;
    let before: Vec<String> = ids(first["value"].as_array().unwrap(), "ID");
    // New results arrive (they get higher IDs) between the first and later pages.
    let area = app.northwind();
    let assessment = app.first_id("assessments").await;
    let mut tx = app.store.begin().await.unwrap();
    let rows: Vec<_> = (0..5)
        .map(|i| scoredesk_server::store::seed_writes::NewResult {
            area: scoredesk_server::model::area::CustomerArea::new(area).unwrap(),
            assessment_id: assessment,
            participant_id: None,
            participant_name: format!("late{i}"),
            first_name: "Late".into(),
            last_name: "Arrival".into(),
            group_id: None,
            group_name: None,
            status: 3,
            max_score: 1,
            total_score: 0,
            percentage_score: 0,
            score_band_title: None,
            when_started: 0,
            when_finished: 1,
            time_taken: 1,
            language: "en".into(),
            schedule_name: None,
            test_center_name: None,
            attempt_id: None,
        })
        .collect();
    tx.insert_results(&rows).await.unwrap();
    tx.commit().await.unwrap();
    let mut all: Vec<String> = before;
    let mut next = first["odata.nextLink"].as_str().map(str::to_owned);
    while let Some(url) = next {
        let body = app.get_json(&url).await;
        all.extend(ids(body["value"].as_array().unwrap(), "ID"));
        next = body["odata.nextLink"].as_str().map(str::to_owned);
    }
    let mut sorted = all.clone();
    sorted.dedup();
    assert_eq!(sorted.len(), all.len(), "no result twice");
    assert_eq!(
        all.len(),
        245,
        "the 240 demo results and the 5 that arrived"
    );
}

async fn altered_skiptoken(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let first = app.get_json(&format!("{}Results", app.root())).await;
    let next = first["odata.nextLink"].as_str().unwrap().to_owned();
    let altered = next.replace("skiptoken=", "skiptoken=x");
    assert_ne!(altered, next, "the link carries a token");
    let response = app
        .get_as("northwind-admin", &altered.replacen(&app.address, "", 1))
        .await;
    assert_eq!(response.status(), 400);
    assert!(odata_error_message(response).await.contains("skiptoken"));
    // A token used with another order is refused too.
    let other = format!(
        "{}&$orderby=WhenFinished",
        next.replacen(&app.address, "", 1)
    );
    assert_eq!(app.get_as("northwind-admin", &other).await.status(), 400);
}
