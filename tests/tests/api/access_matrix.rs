//! The access decision, walked as a matrix: each role (administrator, scorer,
//! coordinator, lead marker, another area's administrator) × every entity set × every URL form
//! (the feed, a key, `$count`, `$value`, each navigation and its `$links`, each `$expand` one and two
//! levels deep, each `$orderby` through a navigation) × every method, on both
//! databases. Each answer is checked against this file's own copy of the role table
//! and of the methods each feed takes (docs/architecture.md, "Roles"): the same data
//! must get the same answer however the URL is spelled.

use std::collections::BTreeMap;

use futures::StreamExt;
use reqwest::{Method, StatusCode};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::feeds::catalogue;
use scoredesk_server::odata::model::{Binding, EntitySet};

use crate::scoring_support::{open_task_with_rubric, scoring_result_of, scoring_result_path};

on_both_backends! {
    every_role_gets_the_role_tables_answer_for_every_url_form_and_method => matrix;
    every_feed_answers_405_with_allow_never_501_for_methods_it_never_takes => never_taken;
    the_same_data_gets_the_same_answer_whatever_the_url_form => url_forms_of_the_issue;
    every_role_gets_the_functions_tables_answer_for_every_function => functions;
    only_an_areas_administrators_run_its_actions => actions;
}

/// Our extension's functions (GET) and who may call them, written out
/// independently of the server's `model::access::FUNCTIONS`: (function, scorer,
/// coordinator, lead); administrators always may, another area's never.
const FUNCTION_ORACLE: &[(&str, bool, bool, bool)] = &[
    ("AssessmentStatistics", false, true, true),
    ("ScoringProgress", false, true, true),
    ("ExportResults", false, true, false),
    ("MarkingAgreement", false, true, true),
    ("MarkerStatistics", false, true, true),
    ("MarkerDrift", false, true, true),
    ("AnswersAlike", true, false, true),
    ("MarkedScript", false, true, true),
    ("RegradeCount", false, false, true),
];

/// Every declared function, by every role, with GET (200 with good parameters),
/// POST (405) and without its parameters (400 where allowed); another area's
/// administrator is refused (403) whatever the method.
async fn functions(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let assessment = app
        .sql_i64(&format!(
            "SELECT MIN(id) FROM assessments WHERE customer_id = {}",
            app.northwind()
        ))
        .await;
    let question = app
        .sql_i64(&format!(
            "SELECT MIN(id) FROM questions WHERE customer_id = {}",
            app.northwind()
        ))
        .await;
    // A task's key, for the functions of one script.
    let task = (
        app.sql_i64(&format!(
            "SELECT CAST(MIN(question_id) AS BIGINT) FROM scoring_tasks WHERE customer_id = {}",
            app.northwind()
        ))
        .await,
        0,
    );
    let task = (
        task.0,
        app.sql_i64(&format!(
            "SELECT CAST(MIN(result_id) AS BIGINT) FROM scoring_tasks WHERE question_id = {}",
            task.0
        ))
        .await,
    );
    let rubric = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(id) AS BIGINT) FROM rubrics WHERE customer_id = {}",
            app.northwind()
        ))
        .await;
    let declared: Vec<&str> = catalogue::actions()
        .iter()
        .filter(|action| action.function)
        .map(|action| action.name)
        .collect();
    let oracle: Vec<&str> = FUNCTION_ORACLE.iter().map(|(name, ..)| *name).collect();
    assert_eq!(declared, oracle, "every function has a row in the oracle");
    for (name, scorer, coordinator, lead) in FUNCTION_ORACLE {
        for role in Role::ALL {
            let may = match role {
                Role::Admin => true,
                Role::Scorer => *scorer,
                Role::Coordinator => *coordinator,
                Role::Lead => *lead,
                Role::OtherAreaAdmin => false,
            };
            // Its declared parameters, each with a good value (an undeclared one is a 400).
            let action = catalogue::action(name).unwrap();
            let query: Vec<String> = action
                .action
                .parameters
                .iter()
                .map(|(parameter, _)| match *parameter {
                    "AssessmentID" => format!("AssessmentID={assessment}L"),
                    "Format" => "Format='csv'".to_owned(),
                    "QuestionID" if *name == "AnswersAlike" => format!("QuestionID={}L", task.0),
                    "QuestionID" => format!("QuestionID={question}L"),
                    "ResultID" => format!("ResultID={}", task.1),
                    "RubricID" => format!("RubricID={rubric}"),
                    other => panic!("no good value for {name}'s {other}"),
                })
                .collect();
            let good = format!("{}{name}?{}", app.root(), query.join("&"));
            let bare = format!("{}{name}", app.root());
            for (method, path, allowed) in [
                (Method::GET, &good, StatusCode::OK),
                (Method::GET, &bare, StatusCode::BAD_REQUEST),
                (Method::POST, &good, StatusCode::METHOD_NOT_ALLOWED),
            ] {
                let response = app
                    .client
                    .request(method.clone(), app.url(path))
                    .basic_auth(role.username(), Some("scoredesk-demo"))
                    .send()
                    .await
                    .unwrap();
                // Another area's account is stopped at the area, before any method.
                let expected = if role == Role::OtherAreaAdmin {
                    StatusCode::FORBIDDEN
                } else if method == Method::POST || may {
                    allowed
                } else {
                    StatusCode::FORBIDDEN
                };
                assert_eq!(response.status(), expected, "{role:?} {method} {path}");
            }
        }
    }
}

/// Every declared action that is not a function (imports, purges, replays, the
/// retention policy …): a scorer, a coordinator and another area's administrator
/// are refused (403) before the body is read, so nothing they send is run.
async fn actions(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let actions: Vec<_> = catalogue::actions()
        .iter()
        .filter(|action| !action.function)
        .collect();
    assert!(
        actions.iter().any(|a| a.name == "ImportRoster"),
        "the roster import is declared"
    );
    for action in actions {
        let path = match action.binding {
            Some((set, Binding::Collection)) => format!("{}{set}/{}", app.root(), action.name),
            Some((set, Binding::Entity)) => format!("{}{set}(1)/{}", app.root(), action.name),
            None => format!("{}{}", app.root(), action.name),
        };
        for role in [
            Role::Scorer,
            Role::Coordinator,
            Role::Lead,
            Role::OtherAreaAdmin,
        ] {
            let response = app
                .client
                .post(app.url(&path))
                .basic_auth(role.username(), Some("scoredesk-demo"))
                .json(&serde_json::json!({}))
                .send()
                .await
                .unwrap();
            assert_eq!(
                response.status(),
                StatusCode::FORBIDDEN,
                "{role:?} POST {path}"
            );
        }
    }
}

/// What a role may do with a set: nothing, read, or read and write.
#[derive(Clone, Copy, PartialEq)]
enum May {
    No,
    R,
    Rw,
}

/// The role table, written out independently of the server's: (set, scorer,
/// coordinator, lead marker).
const ORACLE: &[(&str, May, May, May)] = &[
    ("Annotations", May::Rw, May::No, May::Rw),
    ("AnswerGroupMarkings", May::Rw, May::No, May::Rw),
    ("AnswerGroupMembers", May::R, May::No, May::R),
    ("AnswerUploads", May::No, May::Rw, May::No),
    ("Answers", May::R, May::R, May::R),
    ("AssessmentSnapshotData", May::No, May::R, May::No),
    ("AssessmentSnapshots", May::No, May::Rw, May::No),
    ("Assessments", May::R, May::R, May::R),
    ("Attempts", May::No, May::Rw, May::No),
    ("BankedComments", May::Rw, May::No, May::Rw),
    ("DimensionLevels", May::R, May::No, May::R),
    ("DimensionScores", May::Rw, May::No, May::Rw),
    ("Dimensions", May::R, May::No, May::R),
    ("FlagAnswers", May::R, May::No, May::Rw),
    ("Flags", May::Rw, May::No, May::Rw),
    ("Groups", May::R, May::R, May::R),
    ("ItemStatistics", May::No, May::R, May::R),
    ("MarkerPauses", May::R, May::No, May::R),
    ("MarkerReleases", May::No, May::No, May::Rw),
    ("MarkingPlans", May::No, May::No, May::R),
    ("MarkingScores", May::Rw, May::No, May::Rw),
    ("Markings", May::Rw, May::No, May::Rw),
    ("Participants", May::No, May::R, May::No),
    ("PrintBatches", May::No, May::Rw, May::No),
    ("Questions", May::R, May::R, May::R),
    ("Results", May::R, May::R, May::R),
    ("ResultsAuditLog", May::No, May::R, May::No),
    ("RubricRegrades", May::No, May::No, May::Rw),
    ("Rubrics", May::R, May::No, May::Rw),
    ("ScoringEvents", May::R, May::No, May::R),
    ("ScoringResults", May::Rw, May::No, May::Rw),
    ("ScoringTasks", May::Rw, May::No, May::Rw),
    ("SecondMarkingQueue", May::R, May::No, May::R),
    ("SeedMarkings", May::No, May::No, May::R),
    ("Seeds", May::No, May::No, May::Rw),
    ("TopicScores", May::No, May::R, May::No),
];

/// The write methods each feed takes (spec, Endpoints), on one entity and on the collection.
fn writes_taken(set: &str, single: bool) -> &'static [&'static str] {
    match (set, single) {
        ("ScoringTasks" | "ScoringResults" | "DimensionScores", true) => &["PUT"],
        // Our extension, double marking (issue 38).
        ("MarkingPlans", true) => &["PUT"],
        ("Markings", true) => &["PUT", "DELETE"],
        // Our extension, annotations on the script (issue 38).
        ("Annotations", true) => &["PUT", "DELETE"],
        ("Annotations", false) => &["POST"],
        ("MarkingPlans" | "Markings", false) => &["POST"],
        ("MarkingScores", true) => &["PUT"],
        ("Results", true) => &["PUT", "PATCH", "MERGE"],
        // Renamed, and deleted while unused: our extension (issue 33).
        ("Assessments" | "AssessmentSnapshots" | "PrintBatches", true) => {
            &["PATCH", "MERGE", "DELETE"]
        }
        ("AssessmentSnapshots" | "PrintBatches" | "Attempts" | "AnswerUploads", false) => &["POST"],
        // Our extension, the comment bank.
        ("BankedComments", true) => &["PUT", "DELETE"],
        ("BankedComments", false) => &["POST"],
        // Our extension, flags to a lead marker and the answers (issue 38).
        ("Flags" | "FlagAnswers", false) => &["POST"],
        // Our extension, seeded scripts (issue 38).
        ("Seeds" | "MarkerReleases", false) => &["POST"],
        // Our extension, answer groups (issue 38).
        ("AnswerGroupMarkings", false) => &["POST"],
        // Our extension, participants and groups (issue 34).
        ("Participants" | "Groups", true) => &["PATCH", "MERGE"],
        ("Participants" | "Groups", false) => &["POST"],
        // Our extension, rubric authoring.
        ("Rubrics", true) => &["DELETE"],
        ("Rubrics", false) => &["POST"],
        // Our extension, regrades after a rubric change (issue 38).
        ("RubricRegrades", false) => &["POST"],
        _ => &[],
    }
}

/// Whether this version serves a method it takes (the rest is declared: 501).
fn served(set: &str, method: &str) -> bool {
    match method {
        "GET" | "HEAD" => true,
        "PUT" => matches!(
            set,
            "ScoringTasks"
                | "ScoringResults"
                | "DimensionScores"
                | "BankedComments"
                | "Results"
                | "MarkingPlans"
                | "Markings"
                | "MarkingScores"
                | "Annotations"
        ),
        "POST" => matches!(
            set,
            "BankedComments"
                | "Flags"
                | "FlagAnswers"
                | "Seeds"
                | "MarkerReleases"
                | "AnswerGroupMarkings"
                | "Annotations"
                | "MarkingPlans"
                | "Markings"
                | "AssessmentSnapshots"
                | "PrintBatches"
                | "Attempts"
                | "AnswerUploads"
                | "Rubrics"
                | "RubricRegrades"
                | "Participants"
                | "Groups"
        ),
        "DELETE" => matches!(
            set,
            "BankedComments"
                | "Rubrics"
                | "Assessments"
                | "AssessmentSnapshots"
                | "PrintBatches"
                | "Markings"
                | "Annotations"
        ),
        "PATCH" | "MERGE" => matches!(
            set,
            "Assessments"
                | "AssessmentSnapshots"
                | "PrintBatches"
                | "Results"
                | "Participants"
                | "Groups"
        ),
        _ => false,
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Role {
    Admin,
    Scorer,
    Coordinator,
    Lead,
    OtherAreaAdmin,
}

impl Role {
    const ALL: [Role; 5] = [
        Role::Admin,
        Role::Scorer,
        Role::Coordinator,
        Role::Lead,
        Role::OtherAreaAdmin,
    ];

    fn username(self) -> &'static str {
        match self {
            Role::Admin => "northwind-admin",
            Role::Scorer => "northwind-scorer",
            Role::Coordinator => "northwind-coordinator",
            Role::Lead => "northwind-lead",
            Role::OtherAreaAdmin => "harbour-admin",
        }
    }

    fn may(self, set: &str) -> May {
        let row = ORACLE.iter().find(|(name, ..)| *name == set);
        let (_, scorer, coordinator, lead) =
            row.unwrap_or_else(|| panic!("{set} is not in the oracle"));
        match self {
            Role::Admin => May::Rw,
            Role::Scorer => *scorer,
            Role::Coordinator => *coordinator,
            Role::Lead => *lead,
            Role::OtherAreaAdmin => May::No,
        }
    }
}

const METHODS: &[&str] = &["GET", "HEAD", "POST", "PUT", "PATCH", "MERGE", "DELETE"];

/// One URL form: what it reads, what a write would change, and which methods apply.
#[derive(Debug, Clone)]
struct Form {
    path: String,
    reads: Vec<&'static str>,
    target: &'static str,
    single: bool,
    /// `$count`, `$value` and `$links` are read-only whatever the feed takes.
    read_only: bool,
    methods: &'static [&'static str],
}

/// A key of `set` that exists in Northwind if the set has any rows there.
async fn some_key(app: &TestApp, set: &EntitySet) -> String {
    let (status, body) = app
        .get_json_with(
            "northwind-admin",
            &format!("{}{}?$top=1&$format=verbosejson", app.root(), set.name),
            &[],
        )
        .await;
    if status == StatusCode::OK {
        if let Some(uri) = body["d"]["results"][0]["__metadata"]["uri"].as_str() {
            let (_, key) = uri.rsplit_once('/').unwrap();
            return key
                .split_once('(')
                .unwrap()
                .1
                .trim_end_matches(')')
                .to_owned();
        }
    }
    // No rows (or not served yet): a made-up key of the right type.
    set.key
        .iter()
        .map(|name| {
            let property = set.property(name).unwrap();
            let literal = match property.edm {
                scoredesk_server::odata::edm::EdmType::Int64 => "1L".to_owned(),
                scoredesk_server::odata::edm::EdmType::String => "'x'".to_owned(),
                _ => "1".to_owned(),
            };
            if set.key.len() == 1 {
                literal
            } else {
                format!("{name}={literal}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

async fn forms(app: &TestApp) -> Vec<Form> {
    let all = METHODS;
    let get = &["GET"][..];
    let mut forms = Vec::new();
    for set in catalogue::all() {
        let key = some_key(app, set).await;
        let entity = format!("{}({key})", set.name);
        forms.push(Form {
            path: set.name.to_owned(),
            reads: vec![set.name],
            target: set.name,
            single: false,
            read_only: false,
            methods: all,
        });
        forms.push(Form {
            path: entity.clone(),
            reads: vec![set.name],
            target: set.name,
            single: true,
            read_only: false,
            methods: all,
        });
        forms.push(Form {
            path: format!("{}/$count", set.name),
            reads: vec![set.name],
            target: set.name,
            single: false,
            read_only: true,
            methods: all,
        });
        if set.media.is_some() {
            forms.push(Form {
                path: format!("{entity}/$value"),
                reads: vec![set.name],
                target: set.name,
                single: true,
                read_only: true,
                methods: all,
            });
        }
        for navigation in set.navigations {
            let target = catalogue::by_name(navigation.target).unwrap();
            forms.push(Form {
                path: format!("{entity}/{}", navigation.name),
                reads: vec![set.name, target.name],
                target: target.name,
                single: !navigation.many,
                read_only: false,
                methods: all,
            });
            forms.push(Form {
                path: format!("{entity}/$links/{}", navigation.name),
                reads: vec![set.name, target.name],
                target: target.name,
                single: !navigation.many,
                read_only: true,
                methods: all,
            });
            forms.push(Form {
                path: format!("{}?$top=2&$expand={}", set.name, navigation.name),
                reads: vec![set.name, target.name],
                target: set.name,
                single: false,
                read_only: true,
                methods: get,
            });
            for second in target.navigations {
                let last = catalogue::by_name(second.target).unwrap();
                forms.push(Form {
                    path: format!("{entity}?$expand={}/{}", navigation.name, second.name),
                    reads: vec![set.name, target.name, last.name],
                    target: set.name,
                    single: true,
                    read_only: true,
                    methods: get,
                });
            }
            // `any()` in $filter reads each set it crosses: a collection one step
            // away, or through a to-one step first.
            if navigation.many && navigation.through.is_none() {
                forms.push(Form {
                    path: format!("{}?$top=2&$filter={}/any()", set.name, navigation.name),
                    reads: vec![set.name, target.name],
                    target: set.name,
                    single: false,
                    read_only: true,
                    methods: get,
                });
            }
            if !navigation.many && navigation.through.is_none() {
                for second in target
                    .navigations
                    .iter()
                    .filter(|n| n.many && n.through.is_none())
                {
                    let last = catalogue::by_name(second.target).unwrap();
                    forms.push(Form {
                        path: format!(
                            "{}?$top=2&$filter={}/{}/any()",
                            set.name, navigation.name, second.name
                        ),
                        reads: vec![set.name, target.name, last.name],
                        target: set.name,
                        single: false,
                        read_only: true,
                        methods: get,
                    });
                }
            }
            if !navigation.many && navigation.through.is_none() {
                for property in target.filterable.iter().take(1) {
                    forms.push(Form {
                        path: format!(
                            "{}?$top=2&$orderby={}/{property}",
                            set.name, navigation.name
                        ),
                        reads: vec![set.name, target.name],
                        target: set.name,
                        single: false,
                        read_only: true,
                        methods: get,
                    });
                }
            }
        }
    }
    forms
}

/// Whether a form is a collection of links a client adds to (memberships, our
/// extension of issue 34: `Groups(1)/$links/Participants` and the other end).
fn link_writes(form: &Form) -> bool {
    let (start, navigation) = form.path.split_once("/$links/").unwrap_or_default();
    matches!(
        (start.split('(').next(), navigation),
        (Some("Groups"), "Participants") | (Some("Participants"), "Groups")
    )
}

/// The methods a form takes, as `Allow` lists them.
fn allowed(form: &Form) -> Vec<&'static str> {
    let mut methods = vec!["GET", "HEAD"];
    if !form.read_only {
        methods.extend_from_slice(writes_taken(form.target, form.single));
    } else if link_writes(form) {
        methods.push("POST");
    }
    methods
}

/// Checks one answer against the oracle; returns a description of what is wrong.
fn check(
    role: Role,
    form: &Form,
    method: &str,
    status: StatusCode,
    allow: Option<&str>,
) -> Option<String> {
    let allowed_methods = allowed(form);
    let expected_refusal = if role == Role::OtherAreaAdmin {
        Some(StatusCode::FORBIDDEN)
    } else if !allowed_methods.contains(&method) {
        Some(StatusCode::METHOD_NOT_ALLOWED)
    } else {
        let writes = !matches!(method, "GET" | "HEAD");
        let readable = form.reads.iter().all(|set| role.may(set) != May::No);
        let writable = !writes || role.may(form.target) == May::Rw;
        (!readable || !writable).then_some(StatusCode::FORBIDDEN)
    };
    match expected_refusal {
        Some(expected) if status != expected => Some(format!("expected {expected}, got {status}")),
        Some(StatusCode::METHOD_NOT_ALLOWED) => {
            let wanted = allowed_methods.join(", ");
            (allow != Some(wanted.as_str()))
                .then(|| format!("405 with Allow {allow:?}, expected {wanted}"))
        }
        Some(_) => None,
        None => {
            let set_served =
                form.reads.iter().all(|set| served(set, "GET")) && served(form.target, method);
            let fine = match status.as_u16() {
                501 => !set_served,
                200 | 204 | 400 | 404 => set_served,
                // Deleting what is in use is refused as a conflict (a demo
                // assessment has results).
                409 => set_served && method == "DELETE",
                _ => false,
            };
            (!fine).then(|| format!("allowed, but answered {status}"))
        }
    }
}

async fn matrix(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let forms = forms(&app).await;
    let mut cases = Vec::new();
    for role in Role::ALL {
        for form in &forms {
            for method in form.methods {
                cases.push((role, form.clone(), *method));
            }
        }
    }
    let total = cases.len();
    let app = &app;
    let failures: Vec<String> = futures::stream::iter(cases)
        .map(|(role, form, method)| async move {
            let response = app
                .client
                .request(
                    Method::from_bytes(method.as_bytes()).unwrap(),
                    app.url(&format!("{}{}", app.root(), form.path)),
                )
                .basic_auth(role.username(), Some("scoredesk-demo"))
                .header("Content-Type", "application/json")
                .body("{}")
                .send()
                .await
                .unwrap();
            let status = response.status();
            let allow = response
                .headers()
                .get("allow")
                .map(|v| v.to_str().unwrap().to_owned());
            check(role, &form, method, status, allow.as_deref())
                .map(|problem| format!("{role:?} {method} {}: {problem}", form.path))
        })
        .buffer_unordered(8)
        .filter_map(|failure| async move { failure })
        .collect()
        .await;
    assert!(
        failures.is_empty(),
        "{} of {total} answers differ from the role table:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(total > 2_000, "the matrix covers {total} requests");
}

async fn never_taken(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let mut answers: BTreeMap<String, u16> = BTreeMap::new();
    for set in catalogue::all() {
        let key = some_key(&app, set).await;
        for (path, single) in [
            (set.name.to_owned(), false),
            (format!("{}({key})", set.name), true),
        ] {
            for method in METHODS {
                if ["GET", "HEAD"].contains(method)
                    || writes_taken(set.name, single).contains(method)
                {
                    continue;
                }
                let response = app
                    .client
                    .request(
                        Method::from_bytes(method.as_bytes()).unwrap(),
                        app.url(&format!("{}{path}", app.root())),
                    )
                    .basic_auth("northwind-admin", Some("scoredesk-demo"))
                    .json(&serde_json::json!({}))
                    .send()
                    .await
                    .unwrap();
                let status = response.status();
                let allow = response.headers().get("allow").cloned();
                answers.insert(format!("{method} {path}"), status.as_u16());
                assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
                let mut expected = vec!["GET", "HEAD"];
                expected.extend_from_slice(writes_taken(set.name, single));
                assert_eq!(
                    allow.unwrap().to_str().unwrap(),
                    expected.join(", "),
                    "{method} {path}"
                );
                let message = scoredesk_e2e::odata_error_message(response).await;
                assert!(message.contains(method), "{message}");
            }
        }
    }
    assert!(
        answers.len() > 150,
        "{} refused methods walked",
        answers.len()
    );
}

/// The forms the issue found answering differently, each now with the same answer as
/// the plain feed.
async fn url_forms_of_the_issue(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let root = app.root();
    let task = open_task_with_rubric(&app).await;
    let result = task.result;
    let question = task.question;
    let scoring_result = scoring_result_of(&app, task).await;
    let rubric = &scoring_result["RubricID"];
    let status = |username: &'static str, path: String| {
        let app = &app;
        async move { app.get_as(username, &path).await.status() }
    };
    for path in [
        format!("{root}ScoringResults"),
        format!("{root}Results({result})?$expand=ScoringTasks/ScoringResult"),
        format!("{root}Results({result})/ScoringTasks"),
        format!("{root}Questions({question}L)?$expand=Rubric"),
        format!("{root}Questions({question}L)/Rubric"),
    ] {
        assert_eq!(
            status("northwind-coordinator", path.clone()).await,
            403,
            "{path}"
        );
        assert_eq!(status("northwind-admin", path.clone()).await, 200, "{path}");
    }
    for path in [
        format!("{root}TopicScores"),
        format!("{root}Results({result})?$expand=TopicScores,Attempt"),
        format!("{root}Results({result})/TopicScores"),
    ] {
        assert_eq!(
            status("northwind-scorer", path.clone()).await,
            403,
            "{path}"
        );
    }
    // What the scoring workflow reads, the scorer reads.
    let scoring_result_path = scoring_result_path(&app, &scoring_result);
    for path in [
        format!("{root}Questions({question}L)/Rubric({rubric})"),
        format!("{root}Questions({question}L)/Rubric({rubric})/Dimensions"),
        format!("{scoring_result_path}/Rubric"),
        format!("{scoring_result_path}/DimensionScores?$expand=Dimension"),
        format!("{root}DimensionScores(QuestionID={question}L,RubricID={rubric},ResultID={result},Order=1)/Dimension"),
    ] {
        assert_eq!(status("northwind-scorer", path.clone()).await, 200, "{path}");
    }
    // Results change and actions are the administrators' alone.
    for username in ["northwind-scorer", "northwind-coordinator"] {
        for (method, path) in [
            (Method::PATCH, format!("{root}Results({result})")),
            (Method::POST, format!("{root}Results({result})/Purge")),
            (Method::POST, format!("{root}Result({result})/Purge")),
            (
                Method::POST,
                format!("{root}Results/PurgeResultsByParticipantName"),
            ),
            (Method::POST, format!("{root}FetchPurgeRetentionPeriodDays")),
        ] {
            let response = app
                .request_as(method.clone(), &path, username, "scoredesk-demo")
                .await;
            assert_eq!(response.status(), 403, "{username} {method} {path}");
        }
    }
}
