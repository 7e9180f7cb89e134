use scoredesk_e2e::{on_both_backends, Backend, TestApp};

on_both_backends! {
    migrations_create_every_table_and_running_them_again_changes_nothing => migrations_idempotent;
}

/// Every table of the data model; both backends must have exactly these.
const TABLES: &[&str] = &[
    "accounts",
    "answer_uploads",
    "answers",
    "assessment_questions",
    "assessment_snapshots",
    "assessments",
    "attempts",
    "banked_comments",
    "choices",
    "customers",
    "dimension_levels",
    "dimension_scores",
    "dimensions",
    "group_participants",
    "groups",
    "jobs",
    "participants",
    "print_batches",
    "questions",
    "results",
    "results_audit_log",
    "retention_policies",
    "rubrics",
    "scheduled_purges",
    "score_bands",
    "scoring_events",
    "scoring_results",
    "scoring_task_counts",
    "scoring_tasks",
    "signing_keys",
    "snapshot_choices",
    "snapshot_questions",
    "topic_scores",
    "topics",
];

async fn table_names(app: &TestApp) -> Vec<String> {
    let sql = match app.backend {
        Backend::Sqlite => "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx%' ORDER BY name",
        Backend::Postgres => "SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public' AND table_name NOT LIKE '_sqlx%' ORDER BY table_name",
    };
    app.sql_strings(sql).await
}

async fn migrations_idempotent(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    assert_eq!(table_names(&app).await, TABLES);
    app.store.migrate().await.expect("a second run succeeds");
    assert_eq!(table_names(&app).await, TABLES);
}

on_both_backends! {
    every_declared_property_and_join_column_exists_in_the_schema => declarations_match_schema;
}

async fn declarations_match_schema(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    for set in scoredesk_server::feeds::entities::ALL {
        let mut columns: Vec<&str> = set
            .properties
            .iter()
            .map(|p| p.column)
            .filter(|c| !c.is_empty())
            .collect();
        columns.push("customer_id");
        for navigation in set.navigations {
            columns.extend(navigation.on.iter().map(|(near, _)| *near));
            let target = scoredesk_server::feeds::entities::by_name(navigation.target).unwrap();
            let far: Vec<&str> = navigation.on.iter().map(|(_, far)| *far).collect();
            app.sql_i64(&format!(
                "SELECT COUNT(*) FROM (SELECT {} FROM {} WHERE 1 = 0) AS probe",
                far.join(", "),
                target.table
            ))
            .await;
        }
        if let Some(media) = &set.media {
            columns.push(media.content_column);
        }
        app.sql_i64(&format!(
            "SELECT COUNT(*) FROM (SELECT {} FROM {} WHERE 1 = 0) AS probe",
            columns.join(", "),
            set.table
        ))
        .await;
    }
}
