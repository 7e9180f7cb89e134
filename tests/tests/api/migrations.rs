use scoredesk_e2e::{on_both_backends, Backend, TestApp};

on_both_backends! {
    migrations_create_every_table_and_running_them_again_changes_nothing => migrations_idempotent;
}

/// Every table of the data model; both backends must have exactly these.
const TABLES: &[&str] = &[
    "accounts",
    "annotations",
    "answer_group_markings",
    "answer_group_members",
    "answer_uploads",
    "answers",
    "assessment_questions",
    "assessment_snapshots",
    "assessments",
    "attempts",
    "banked_comments",
    "choices",
    "content_sources",
    "customers",
    "dimension_levels",
    "dimension_scores",
    "dimensions",
    "flag_answers",
    "flags",
    "group_participants",
    "groups",
    "item_statistics",
    "jobs",
    "marker_pauses",
    "marker_releases",
    "marking_plans",
    "marking_queue",
    "marking_scores",
    "markings",
    "pair_keys",
    "participants",
    "print_batches",
    "question_parts",
    "questions",
    "results",
    "results_audit_log",
    "retention_policies",
    "rubric_regrades",
    "rubrics",
    "scheduled_purges",
    "score_bands",
    "scoring_events",
    "scoring_results",
    "scoring_task_counts",
    "scoring_tasks",
    "seed_copies",
    "seed_scores",
    "seeds",
    "signing_keys",
    "snapshot_choices",
    "snapshot_questions",
    "text_keys",
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
    for set in scoredesk_server::feeds::catalogue::all() {
        let mut columns: Vec<&str> = set
            .properties
            .iter()
            .map(|p| p.column)
            .filter(|c| !c.is_empty())
            .collect();
        columns.push("customer_id");
        for navigation in set.navigations {
            columns.extend(navigation.on.iter().map(|(near, _)| *near));
            let target = scoredesk_server::feeds::catalogue::by_name(navigation.target).unwrap();
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

on_both_backends! {
    every_foreign_key_into_a_table_rows_are_deleted_from_has_an_index => foreign_keys_indexed;
}

/// The tables whose rows the store deletes (`from_table` in `server/src/store`): a
/// purge's result with what hangs from it, attempts, participants and their
/// memberships, banked comments, jobs and retention policies.
const DELETED_FROM: &[&str] = &[
    "answer_uploads",
    "answers",
    "attempts",
    "banked_comments",
    "dimension_scores",
    "group_participants",
    "jobs",
    "pair_keys",
    "participants",
    "results",
    "retention_policies",
    "scoring_events",
    "scoring_results",
    "scoring_tasks",
    "topic_scores",
];

/// Each foreign key as `child(columns) -> parent` with `true` when an index of the
/// child (its primary key included) leads with one of those columns.
async fn foreign_keys(app: &TestApp) -> Vec<String> {
    let sql = match app.backend {
        // A rowid table's INTEGER PRIMARY KEY has no index of its own in the lists.
        Backend::Sqlite => {
            "SELECT m.name || '(' || group_concat(f.\"from\") || ') -> ' || f.\"table\" || ' ' || \
             CASE WHEN EXISTS (SELECT 1 FROM pragma_index_list(m.name) AS l, \
                 pragma_index_info(l.name) AS i WHERE i.seqno = 0 AND i.name IN \
                 (SELECT g.\"from\" FROM pragma_foreign_key_list(m.name) AS g WHERE g.id = f.id)) \
               OR EXISTS (SELECT 1 FROM pragma_table_info(m.name) AS c WHERE c.pk = 1 \
                 AND upper(c.type) = 'INTEGER' AND c.name IN \
                 (SELECT g.\"from\" FROM pragma_foreign_key_list(m.name) AS g WHERE g.id = f.id)) \
               AND (SELECT COUNT(*) FROM pragma_table_info(m.name) AS c WHERE c.pk > 0) = 1 \
             THEN 'true' ELSE 'false' END \
             FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f \
             WHERE m.type = 'table' GROUP BY m.name, f.id ORDER BY 1"
        }
        Backend::Postgres => {
            "SELECT c.conrelid::regclass::text || '(' || \
               (SELECT string_agg(a.attname, ',' ORDER BY a.attnum) FROM pg_attribute AS a \
                WHERE a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)) || ') -> ' || \
               c.confrelid::regclass::text || ' ' || \
             CASE WHEN EXISTS (SELECT 1 FROM pg_index AS i WHERE i.indrelid = c.conrelid \
                 AND i.indkey[0] = ANY (c.conkey)) THEN 'true' ELSE 'false' END \
             FROM pg_constraint AS c WHERE c.contype = 'f' ORDER BY 1"
        }
    };
    app.sql_strings(sql).await
}

async fn foreign_keys_indexed(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let keys = foreign_keys(&app).await;
    assert!(
        keys.iter()
            .any(|k| k.starts_with("answers(result_id) -> results ")),
        "the catalogue query sees the foreign keys: {keys:?}"
    );
    let unindexed: Vec<&String> = keys
        .iter()
        .filter(|key| {
            let parent = key.split(" -> ").nth(1).and_then(|p| p.split(' ').next());
            parent.is_some_and(|p| DELETED_FROM.contains(&p)) && key.ends_with(" false")
        })
        .collect();
    assert!(
        unindexed.is_empty(),
        "deleting a parent row reads the whole child table: {unindexed:?}"
    );
}
