//! The whole paper path (issue 18, docs/paper-sheets.md), on both databases: a
//! print batch's sheets printed through the real print path, pencilled and
//! handwritten, scanned with damage, recognised, the unsure marks decided by the
//! coordinator, and each attempt's sheet posted as an upload file; then the choice
//! scores on the Results, the essay crops as image answers in the scorer's queue
//! (`ScoringTasks?$filter=Status eq 0`), and one of them scored through the PUT
//! rules.

use reqwest::StatusCode;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_paper::{rng, scan, Damage, Rng};
use scoredesk_server::documents::sheet_upload::upload_file;
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use scoredesk_sheets::layout::Shape;
use scoredesk_sheets::{assemble, recognise, Answer, AttemptReading, Verdict};
use serde_json::json;

use crate::scoring_support::{put_scoring_result, put_status, scoring_result_of, Task, SCORER};
use crate::uploads::{post, upload_reading};
use scoredesk_e2e::sheets::{deliver_paper, mark_sheet, printed, PaperDelivery};

on_both_backends! {
    scanned_sheets_come_back_as_choice_scores_and_essays_to_score => whole_path;
}

/// Rubrics for the paper test's essays (worth 2 and 4), so that a scorer may take them.
async fn rubrics(app: &TestApp, delivery: &PaperDelivery) -> Vec<i64> {
    let essays: Vec<(i64, i64)> = delivery.report["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|q| q["QuestionType"] == "essay")
        .map(|q| {
            (
                q["QuestionId"].as_str().unwrap().parse().unwrap(),
                q["MaxScore"].as_i64().unwrap(),
            )
        })
        .collect();
    for (question, max) in &essays {
        let body = json!({
            "QuestionID": question.to_string(),
            "Name": "Explanation",
            "MaxScore": max,
            "Dimensions": [
                {"Order": 1, "Name": "Idea", "MaxScore": max - 1},
                {"Order": 2, "Name": "Language", "MaxScore": 1}
            ]
        });
        let response = app
            .client
            .post(app.url(&format!("{}Rubrics", app.root())))
            .basic_auth("northwind-admin", Some(DEMO_PASSWORD))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(
            response.status(),
            StatusCode::CREATED,
            "{}",
            response.text().await.unwrap()
        );
    }
    essays.into_iter().map(|(question, _)| question).collect()
}

/// The coordinator's decision on each doubt, as the desktop's screen records it:
/// a faint mark is not taken; of several marks on a one-choice question, the first.
fn decide(reading: &mut AttemptReading) {
    for doubt in reading.doubts.clone() {
        let marked: Vec<i32> = doubt
            .bubbles
            .iter()
            .filter(|b| b.verdict == Verdict::Marked)
            .map(|b| b.choice)
            .collect();
        let choices = if doubt.most == 1 {
            marked.into_iter().take(1).collect()
        } else {
            marked
        };
        reading.resolve(doubt.question, choices).unwrap();
    }
}

/// What the paper test's key gives `reading`'s choices: 2 a question answered
/// exactly right (match_correct), else 0. The key is the package's
/// (qti::paper_package): a one-choice question's right choice is its index modulo
/// its count, a several-choice question's are its first and last.
fn expected_choice_score(delivery: &PaperDelivery, reading: &AttemptReading) -> i64 {
    let mut total = 0;
    for answer in &reading.answers {
        let Answer::Choices { question, selected } = answer else {
            continue;
        };
        let sheet = delivery
            .questions
            .iter()
            .find(|q| q.order == *question)
            .unwrap();
        let Shape::Choices { count, most } = sheet.shape else {
            unreachable!()
        };
        let single = most == 1;
        let index = *question - 1;
        let right: Vec<i32> = if single {
            vec![index % count as i32 + 1]
        } else {
            vec![1, count as i32]
        };
        if *selected == right {
            total += 2;
        }
    }
    total
}

async fn whole_path(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let delivery = deliver_paper(&app, 1).await;
    let essays = rubrics(&app, &delivery).await;
    let (batch, attempts) = &delivery.batches[0];
    let dir = tempfile::tempdir().unwrap();
    let pages = printed(&app, *batch, dir.path()).await;
    let mut random = rng(u64::from(backend == Backend::Postgres) + 18);
    for attempt in attempts.iter().take(3) {
        let printed: Vec<_> = pages
            .iter()
            .filter(|(code, _)| i64::from(code.attempt) == *attempt)
            .map(|(_, page)| page.clone())
            .collect();
        assert_eq!(printed.len(), 2);
        let marked = mark_sheet(&delivery.layout, &delivery.questions, &printed, &mut random);
        let readings: Vec<_> = marked
            .pages
            .iter()
            .enumerate()
            .map(|(index, page)| {
                let dpi = if random.random_bool(0.5) {
                    300.0
                } else {
                    150.0
                };
                let bytes = scan(page, Damage::random(&mut random, dpi), *attempt as u64);
                let found = recognise::open(&bytes).unwrap();
                assert_eq!(i64::from(found.code.attempt), *attempt);
                found.read(&delivery.layout[index]).unwrap()
            })
            .collect();
        let mut reading = assemble(&delivery.questions, &readings).unwrap();
        decide(&mut reading);
        let read = upload_reading(&app, *batch, *attempt, &reading).await;
        let result = read["ID"].as_i64().unwrap();
        assert_eq!(
            read["TotalScore"].as_i64().unwrap_or(0),
            expected_choice_score(&delivery, &reading),
            "attempt {attempt}: the choices' scores"
        );

        // Each written essay is an image answer waiting in the scorer's queue.
        let (status, queue) = app
            .get_json_with(
                SCORER,
                &format!(
                    "{}ScoringTasks?$filter=Status eq 0 and ResultID eq {result}",
                    app.root()
                ),
                &[],
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{queue}");
        let mut queued: Vec<i64> = queue["value"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["QuestionID"].as_str().unwrap().parse().unwrap())
            .collect();
        queued.sort_unstable();
        let written: Vec<(i64, &Vec<u8>)> = reading
            .answers
            .iter()
            .filter_map(|a| match a {
                Answer::Essay {
                    question,
                    png: Some(png),
                } => {
                    let index = delivery
                        .questions
                        .iter()
                        .position(|q| q.order == *question)
                        .unwrap();
                    Some((essays[index - 26], png))
                }
                _ => None,
            })
            .collect();
        let mut expected: Vec<i64> = written.iter().map(|(q, _)| *q).collect();
        expected.sort_unstable();
        assert_eq!(
            queued, expected,
            "attempt {attempt}: the written essays, and only those"
        );
        for (question, png) in &written {
            let image = app
                .client
                .get(app.url(&format!(
                    "{}ScoringTasks(QuestionID={question}L,ResultID={result})/Answer/$value",
                    app.root()
                )))
                .basic_auth(SCORER, Some(DEMO_PASSWORD))
                .send()
                .await
                .unwrap();
            assert_eq!(image.status(), StatusCode::OK);
            assert_eq!(image.headers()["content-type"], "image/png");
            assert_eq!(
                image.bytes().await.unwrap().as_ref(),
                png.as_slice(),
                "the crop, unchanged"
            );
        }
        // One essay scored through the PUT rules: the Result's total moves by its score.
        if let Some((question, _)) = written.first() {
            let task = Task {
                question: *question,
                result,
            };
            assert_eq!(put_status(&app, task, 1).await, StatusCode::NO_CONTENT);
            let scoring_result = scoring_result_of(&app, task).await;
            let response =
                put_scoring_result(&app, &scoring_result, 1, "Legible and on point.").await;
            assert_eq!(
                response.status(),
                StatusCode::NO_CONTENT,
                "{}",
                response.text().await.unwrap()
            );
            assert_eq!(put_status(&app, task, 3).await, StatusCode::NO_CONTENT);
            let (_, after) = app
                .get_json_with(SCORER, &format!("{}Results({result})", app.root()), &[])
                .await;
            assert_eq!(
                after["TotalScore"].as_i64().unwrap(),
                read["TotalScore"].as_i64().unwrap_or(0) + 1,
                "{after}"
            );
        }
    }
    // An attempt is uploaded once: the same sheet again is refused.
    let again = upload_file(
        *batch as i32,
        &AttemptReading {
            attempt: attempts[0] as i32,
            answers: Vec::new(),
            doubts: Vec::new(),
            written: Vec::new(),
        },
    )
    .unwrap();
    assert_eq!(
        post(&app, "AnswerUploads", &again).await.status(),
        StatusCode::CONFLICT
    );
}
