//! The read-only feeds through the protocol layer: keys, navigation, media,
//! `$expand`, `$select`, and customer-area isolation.

use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};

on_both_backends! {
    every_read_only_feed_answers_with_a_json_light_feed => every_feed_answers;
    an_entity_is_read_by_its_key_with_the_int64_l_suffix_required => entity_by_key;
    navigation_from_a_result_reaches_its_answers => navigation_to_answers;
    a_question_reaches_its_rubric_and_an_essay_without_one_has_none => question_rubric;
    media_values_come_with_their_real_type_and_head_tells_it => media_values;
    expand_inlines_related_entities_two_levels_deep_and_no_deeper => expand_levels;
    select_limits_the_properties => select_properties;
    one_area_never_sees_another_areas_entities => area_isolation;
    scoring_tasks_filter_and_expand_through_their_assessment_and_group => task_navigations;
    every_feed_with_every_expandable_navigation_answers_in_both_formats => expand_sweep;
}

async fn expand_sweep(backend: Backend) {
    use scoredesk_server::feeds::catalogue;
    let app = TestApp::spawn_with_demo(backend).await;
    let root = app.get_json(&app.root()).await;
    let listed: Vec<&str> = root["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    let declared: Vec<&str> = catalogue::all().iter().map(|s| s.name).collect();
    assert_eq!(
        listed, declared,
        "the service document lists every declared feed"
    );
    let verbose = [("Accept", "application/json;odata=verbose")];
    for set in catalogue::all()
        .iter()
        .filter(|s| s.name != "AssessmentSnapshots")
    {
        let mut paths = vec![
            format!("{}?$top=3", set.name),
            format!("{}/$count", set.name),
        ];
        // Snapshots are not read through any form until they are served.
        for navigation in set
            .navigations
            .iter()
            .filter(|n| n.through.is_none() && n.target != "AssessmentSnapshots")
        {
            paths.push(format!("{}?$top=3&$expand={}", set.name, navigation.name));
        }
        for path in paths {
            for headers in [&[][..], &verbose[..]] {
                let response = app
                    .client
                    .get(app.url(&format!("{}{path}", app.root())))
                    .basic_auth("northwind-admin", Some("scoredesk-demo"))
                    .headers(
                        headers
                            .iter()
                            .map(|(k, v)| (k.parse().unwrap(), v.parse().unwrap()))
                            .collect(),
                    )
                    .send()
                    .await
                    .unwrap();
                assert_eq!(
                    response.status(),
                    200,
                    "{path} {headers:?}: {}",
                    response.text().await.unwrap_or_default()
                );
            }
        }
    }
}

async fn task_navigations(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let area = app.northwind();
    let assessment = app
        .sql_i64(&format!(
            "SELECT MIN(id) FROM assessments WHERE customer_id = {area}"
        ))
        .await;
    let stored = app.sql_i64(&format!("SELECT COUNT(*) FROM scoring_tasks t JOIN results r ON r.id = t.result_id WHERE t.customer_id = {area} AND r.assessment_id = {assessment}")).await;
    let (tasks, _) = app
        .get_all_pages(&format!(
            "{}ScoringTasks?$filter=Assessment/ID eq {assessment}L&$expand=Assessment,Group",
            app.root()
        ))
        .await;
    assert_eq!(tasks.len() as i64, stored);
    assert!(tasks.iter().all(|t| t["Assessment"]["ID"].as_str()
        == Some(assessment.to_string().as_str())
        && t["Group"]["Name"].is_string()));
}

async fn every_feed_answers(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    for feed in [
        "Groups",
        "Participants",
        "Assessments",
        "Questions",
        "Answers",
        "TopicScores",
        "ResultsAuditLog",
        "Results",
        "ScoringTasks",
        "Rubrics",
        "Dimensions",
    ] {
        let body = app.get_json(&format!("{}{feed}", app.root())).await;
        assert!(
            body["odata.metadata"]
                .as_str()
                .unwrap()
                .ends_with(&format!("$metadata#{feed}")),
            "{feed}"
        );
        assert!(body["value"].is_array(), "{feed}");
    }
}

async fn entity_by_key(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let area = app.northwind();
    let question = app.first_id("questions").await;
    let body = app
        .get_json(&format!("{}Questions({question}L)", app.root()))
        .await;
    assert_eq!(
        body["QuestionID"],
        question.to_string(),
        "Int64 is a JSON string"
    );
    assert!(body["odata.metadata"]
        .as_str()
        .unwrap()
        .ends_with("$metadata#Questions/@Element"));
    let missing_suffix = app
        .get_as(
            "northwind-admin",
            &format!("{}Questions({question})", app.root()),
        )
        .await;
    assert_eq!(missing_suffix.status(), 400);
    assert!(odata_error_message(missing_suffix)
        .await
        .contains(&format!("{question}L")));
    let unknown = app
        .get_as("northwind-admin", &format!("{}Questions(1L)", app.root()))
        .await;
    assert_eq!(unknown.status(), 404);
    let task = app.sql_strings(&format!("SELECT CAST(question_id AS TEXT) || ',' || CAST(result_id AS TEXT) FROM scoring_tasks WHERE customer_id = {area} LIMIT 1")).await;
    let (q, r) = task[0].split_once(',').unwrap();
    let body = app
        .get_json(&format!(
            "{}ScoringTasks(QuestionID={q}L,ResultID={r})",
            app.root()
        ))
        .await;
    assert_eq!(body["ResultID"].as_i64().unwrap().to_string(), r);
    let encoded = app
        .get_json(&format!(
            "{}ScoringTasks%28QuestionID%3D{q}L%2CResultID%3D{r}%29",
            app.root()
        ))
        .await;
    assert_eq!(encoded["ResultID"], body["ResultID"]);
    let partial = app
        .get_as(
            "northwind-admin",
            &format!("{}ScoringTasks(QuestionID={q}L)", app.root()),
        )
        .await;
    assert_eq!(partial.status(), 400);
    assert!(odata_error_message(partial).await.contains("ResultID"));
}

async fn navigation_to_answers(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let result = app.first_id("results").await;
    let stored = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM answers WHERE result_id = {result}"
        ))
        .await;
    let body = app
        .get_json(&format!("{}Results({result})/Answers", app.root()))
        .await;
    let answers = body["value"].as_array().unwrap();
    assert_eq!(answers.len() as i64, stored);
    assert!(answers.iter().all(|a| a["ResultID"] == result));
    let counted = app
        .get_as(
            "northwind-admin",
            &format!("{}Results({result})/Answers/$count", app.root()),
        )
        .await;
    assert_eq!(counted.text().await.unwrap(), stored.to_string());
    let assessment = app
        .get_json(&format!("{}Results({result})/Assessment", app.root()))
        .await;
    assert!(assessment["Name"].is_string());
}

async fn question_rubric(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let area = app.northwind();
    let with = app.sql_strings(&format!("SELECT CAST(q.id AS TEXT) || ',' || CAST(r.id AS TEXT) FROM questions q JOIN rubrics r ON r.question_id = q.id WHERE q.customer_id = {area} LIMIT 1")).await;
    let (question, rubric) = with[0].split_once(',').unwrap();
    let body = app
        .get_json(&format!(
            "{}Questions({question}L)/Rubric({rubric})?$expand=Dimensions",
            app.root()
        ))
        .await;
    assert_eq!(body["ID"].to_string(), rubric);
    let dimensions = body["Dimensions"].as_array().unwrap();
    let sum: i64 = dimensions
        .iter()
        .map(|d| d["MaxScore"].as_i64().unwrap())
        .sum();
    assert_eq!(
        sum,
        body["MaxScore"].as_i64().unwrap(),
        "dimension maxima add up to the rubric's"
    );
    let without = app.sql_i64(&format!("SELECT CAST(MIN(id) AS BIGINT) FROM questions q WHERE customer_id = {area} AND question_type = 'essay' AND NOT EXISTS (SELECT 1 FROM rubrics r WHERE r.question_id = q.id)")).await;
    let empty = app
        .get_json(&format!("{}Questions({without}L)/Rubric", app.root()))
        .await;
    assert_eq!(empty["value"].as_array().unwrap().len(), 0);
}

async fn media_values(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let area = app.northwind();
    let image = app.sql_strings(&format!("SELECT CAST(question_id AS TEXT) || ',' || CAST(result_id AS TEXT) FROM answers WHERE customer_id = {area} AND media_type = 'image/jpeg' LIMIT 1")).await;
    let (q, r) = image[0].split_once(',').unwrap();
    let path = format!(
        "{}Answers(QuestionID={q}L,ResultID={r},Occurrence=1,BlockNumber=1)/$value",
        app.root()
    );
    let head = app
        .client
        .head(app.url(&path))
        .basic_auth("northwind-admin", Some("scoredesk-demo"))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["content-type"], "image/jpeg");
    let length: usize = head.headers()["content-length"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let bytes = app
        .get_as("northwind-admin", &path)
        .await
        .bytes()
        .await
        .unwrap();
    assert_eq!(bytes.len(), length);
    let decoded = image::load_from_memory(&bytes).expect("a real image");
    assert!(decoded.width() >= 1000);
    let question = app.first_id("questions").await;
    let markup = app
        .get_as(
            "northwind-admin",
            &format!("{}Questions({question}L)/$value", app.root()),
        )
        .await;
    assert_eq!(markup.headers()["content-type"], "application/xhtml+xml");
    assert!(markup
        .text()
        .await
        .unwrap()
        .contains("<div class=\"question\""));
    let not_media = app
        .get_as(
            "northwind-admin",
            &format!("{}Results(1)/$value", app.root()),
        )
        .await;
    assert_eq!(not_media.status(), 400);
    // In a feed, media entries carry their read link and type.
    let feed = app.get_json(&format!("{}Answers?$top=1", app.root())).await;
    assert!(feed["value"][0]["odata.mediaReadLink"]
        .as_str()
        .unwrap()
        .ends_with("/$value"));
    assert!(feed["value"][0]["odata.mediaContentType"].is_string());
}

async fn expand_levels(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let body = app
        .get_json(&format!(
            "{}Results?$top=5&$expand=Answers/Question,Assessment",
            app.root()
        ))
        .await;
    for result in body["value"].as_array().unwrap() {
        assert_eq!(result["Assessment"]["ID"], result["AssessmentID"]);
        let answers = result["Answers"].as_array().unwrap();
        assert!(!answers.is_empty());
        for answer in answers {
            assert_eq!(answer["ResultID"], result["ID"]);
            assert_eq!(answer["Question"]["QuestionID"], answer["QuestionID"]);
        }
    }
    let too_deep = app
        .get_as(
            "northwind-admin",
            &format!("{}Results?$expand=Answers/Question/Rubric", app.root()),
        )
        .await;
    assert_eq!(too_deep.status(), 400);
    let unknown = app
        .get_as(
            "northwind-admin",
            &format!("{}Results?$expand=Nothing", app.root()),
        )
        .await;
    assert_eq!(unknown.status(), 400);
    assert!(
        odata_error_message(unknown).await.contains("Answers"),
        "names the navigation properties there are"
    );
}

async fn select_properties(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let body = app
        .get_json(&format!(
            "{}Results?$top=2&$select=ID,ParticipantName",
            app.root()
        ))
        .await;
    let first = body["value"][0].as_object().unwrap();
    let names: Vec<&String> = first.keys().collect();
    assert_eq!(names, ["ID", "ParticipantName"]);
    let bad = app
        .get_as(
            "northwind-admin",
            &format!("{}Results?$select=Secret", app.root()),
        )
        .await;
    assert_eq!(bad.status(), 400);
}

async fn area_isolation(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (northwind, harbour) = (app.northwind(), app.harbour());
    let stored = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM results WHERE customer_id = {northwind}"
        ))
        .await;
    let (results, _) = app.get_all_pages(&format!("{}Results", app.root())).await;
    assert_eq!(results.len() as i64, stored);
    let theirs = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(id) AS BIGINT) FROM results WHERE customer_id = {harbour}"
        ))
        .await;
    for path in [
        format!("Results({theirs})"),
        format!("Results({theirs})/Answers"),
        format!("Results?$filter=ID eq {theirs}"),
    ] {
        let (status, body) = app
            .get_json_with("northwind-admin", &format!("{}{path}", app.root()), &[])
            .await;
        let leaked = status == 200 && body["value"].as_array().is_none_or(|v| !v.is_empty());
        assert!(!leaked, "{path} showed another area's result: {body}");
    }
}
