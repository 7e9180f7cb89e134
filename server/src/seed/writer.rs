//! Writes a customer area's worth of demo content: topics, groups, participants,
//! assessments with their questions and rubrics, and finished results with answers.

use std::collections::HashMap;

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::answers::{answer_for, Given};
use super::content::{question_markup, AssessmentSpec, QuestionSpec, FIRST_NAMES, LAST_NAMES};
use crate::model::area::CustomerArea;
use crate::model::finalise::{scoring_tasks_for, FinalisedResult};
use crate::model::result_scores::{self, ScoreBand, ScoredAnswer, Topic};
use crate::model::scoring_rule::ScoringRule;
use crate::store::seed_writes::{NewAnswer, NewQuestion, NewResult, NewTopicScore};
use crate::store::{StoreError, Tx};

/// How much of everything one area gets.
pub struct AreaPlan {
    pub area: CustomerArea,
    pub assessments: &'static [AssessmentSpec],
    pub groups: &'static [&'static str],
    pub participants: usize,
    pub results: usize,
    /// Base of this area's Int64 assessment and question IDs.
    pub id_base: i64,
    /// Share of essay answers still waiting for a scorer.
    pub unscored_share: f64,
}

const SCORE_BANDS: &[(i32, &str)] = &[
    (0, "Below pass"),
    (50, "Pass"),
    (75, "Merit"),
    (90, "Distinction"),
];

struct Participant {
    id: i32,
    login: String,
    first: &'static str,
    last: &'static str,
    group: usize,
}

struct Question {
    id: i64,
    spec: &'static QuestionSpec,
}

pub async fn write_area(
    tx: &mut Tx,
    rng: &mut ChaCha8Rng,
    plan: &AreaPlan,
    now: i64,
) -> Result<(), StoreError> {
    let area = plan.area;
    let topics = write_topics(tx, area, plan.assessments).await?;
    let mut group_ids = Vec::new();
    for name in plan.groups {
        group_ids.push(
            tx.insert_group(area, name, &format!("{name} participants"))
                .await?,
        );
    }
    let mut participants = Vec::new();
    for index in 0..plan.participants {
        let first = FIRST_NAMES[index % FIRST_NAMES.len()];
        let last = LAST_NAMES[(index * 7 + index / FIRST_NAMES.len()) % LAST_NAMES.len()];
        let login = format!(
            "{}.{}{}",
            first.to_lowercase(),
            last.to_lowercase().replace('\'', ""),
            index
        );
        let email = format!("{login}@example.org");
        let id = tx
            .insert_participant(area, &login, first, last, &email)
            .await?;
        let group = index % group_ids.len();
        tx.insert_group_member(area, group_ids[group], id).await?;
        participants.push(Participant {
            id,
            login,
            first,
            last,
            group,
        });
    }
    let bands: Vec<ScoreBand> = SCORE_BANDS
        .iter()
        .map(|(min_percentage, title)| ScoreBand {
            min_percentage: *min_percentage,
            title: (*title).into(),
        })
        .collect();
    let mut assessments = Vec::new();
    for (a, spec) in plan.assessments.iter().enumerate() {
        let assessment_id = plan.id_base + a as i64 * 1000;
        tx.insert_assessment(
            assessment_id,
            area,
            spec.name,
            Some("en-GB"),
            spec.description,
            now,
        )
        .await?;
        for (min, title) in SCORE_BANDS {
            tx.insert_score_band(area, assessment_id, *min, title)
                .await?;
        }
        let mut questions = Vec::new();
        for (q, question) in spec.questions.iter().enumerate() {
            let id = assessment_id + 1 + q as i64;
            write_question(tx, area, id, question, topics[spec.topic], now).await?;
            tx.insert_assessment_question(area, assessment_id, q as i32 + 1, id)
                .await?;
            questions.push(Question { id, spec: question });
        }
        assessments.push((assessment_id, spec, questions));
    }
    // How many scans each handwritten question has been given: its next answer
    // takes the next of the demo's pages, so that no two of the same question's
    // answers in a row look the same (issue 33, defect 15).
    let mut scans_given: HashMap<i64, usize> = HashMap::new();
    // How many answers each question has been given: every fifth typed essay is
    // the answer many of a class give (`common_answer`), the demo's answer groups.
    let mut answers_given: HashMap<i64, usize> = HashMap::new();
    for _ in 0..plan.results {
        let (assessment_id, spec, questions) =
            assessments.choose(rng).expect("an area has assessments");
        let participant = participants.choose(rng).expect("an area has participants");
        let finished = now - rng.random_range(3_600_000..45 * 86_400_000i64);
        let taken_ms = rng.random_range(10 * 60_000..50 * 60_000i64);
        let group_id = group_ids[participant.group];
        let mut answers: Vec<NewAnswer> = questions
            .iter()
            .enumerate()
            .map(|(n, q)| {
                let scan = scans_given.entry(q.id).or_default();
                *scan += usize::from(q.spec.handwritten);
                let scan = *scan;
                let nth = answers_given.entry(q.id).or_default();
                *nth += 1;
                let given = Given { scan, nth: *nth };
                answer_for(rng, area, (q.id, q.spec), n, given, plan.unscored_share)
            })
            .collect();
        let topic = Topic {
            id: topics[spec.topic],
            path: spec.topic.into(),
        };
        let scored: Vec<ScoredAnswer> = answers
            .iter()
            .map(|a| ScoredAnswer {
                max_score: a.max_score,
                actual_score: a.actual_score,
                topic: Some(topic.clone()),
            })
            .collect();
        let scores = result_scores::compute(&scored, &bands);
        let result = NewResult {
            area,
            assessment_id: *assessment_id,
            participant_id: Some(participant.id),
            participant_name: participant.login.clone(),
            first_name: participant.first.into(),
            last_name: participant.last.into(),
            group_id: Some(group_id),
            group_name: Some(plan.groups[participant.group].into()),
            status: 3,
            max_score: scores.max_score,
            total_score: scores.total_score,
            percentage_score: scores.percentage_score,
            score_band_title: scores.score_band_title.clone(),
            when_started: finished - taken_ms,
            when_finished: finished,
            time_taken: (taken_ms / 1000) as i32,
            language: "en-GB".into(),
            schedule_name: Some(format!(
                "{} — {}",
                spec.name, plan.groups[participant.group]
            )),
            test_center_name: Some("Main campus".into()),
            attempt_id: None,
        };
        let result_id = tx.insert_results(&[result]).await?[0];
        for answer in &mut answers {
            answer.result_id = result_id;
        }
        tx.insert_answers(&answers).await?;
        let finalised = FinalisedResult {
            area,
            group_id: Some(group_id),
            assessment_id: *assessment_id,
            finished_at: finished,
        };
        tx.insert_scoring_tasks(&scoring_tasks_for(
            answers.iter().map(NewAnswer::finalised),
            finalised,
        ))
        .await?;
        let topic_scores: Vec<NewTopicScore> = scores
            .topics
            .into_iter()
            .map(|t| NewTopicScore::from_scores(area, result_id, t))
            .collect();
        tx.insert_topic_scores(&topic_scores).await?;
    }
    Ok(())
}

/// Creates every topic on the paths the assessments use; returns path → topic ID.
async fn write_topics(
    tx: &mut Tx,
    area: CustomerArea,
    assessments: &[AssessmentSpec],
) -> Result<HashMap<&'static str, i32>, StoreError> {
    let mut ids: HashMap<&'static str, i32> = HashMap::new();
    for spec in assessments {
        let mut parent = None;
        for (end, _) in spec
            .topic
            .match_indices('/')
            .chain([(spec.topic.len(), "")])
        {
            let path = &spec.topic[..end];
            let id = match ids.get(path) {
                Some(id) => *id,
                None => {
                    let name = path.rsplit('/').next().unwrap_or(path);
                    let id = tx.insert_topic(area, parent, name, path).await?;
                    ids.insert(path, id);
                    id
                }
            };
            parent = Some(id);
        }
    }
    Ok(ids)
}

async fn write_question(
    tx: &mut Tx,
    area: CustomerArea,
    id: i64,
    spec: &QuestionSpec,
    topic: i32,
    now: i64,
) -> Result<(), StoreError> {
    let markup = question_markup(spec);
    tx.insert_question(&NewQuestion {
        id,
        area,
        question_type: spec.kind.as_str(),
        description: spec.description,
        revision: 1,
        language: Some("en-GB"),
        rule: &ScoringRule::Service,
        max_score: spec.max_score,
        topic_id: Some(topic),
        markup: &markup,
        // The demo's single-choice questions are shuffled in each snapshot; its
        // multiple-response ones keep their order (a list read in order).
        shuffle_choices: spec.kind == crate::model::question_kind::QuestionKind::MultipleChoice,
        at: now,
    })
    .await?;
    for (order, (text, correct)) in spec.choices.iter().enumerate() {
        tx.insert_choice(area, id, order as i32 + 1, text, *correct)
            .await?;
    }
    if let Some(rubric) = &spec.rubric {
        let rubric_id = tx
            .insert_rubric(
                area,
                id,
                rubric.name,
                rubric.instructions,
                rubric.max_score() as i16,
                now,
            )
            .await?;
        for (order, (name, instructions, max)) in rubric.dimensions.iter().enumerate() {
            tx.insert_dimension(area, rubric_id, order as i32 + 1, name, instructions, *max)
                .await?;
            let levels = rubric.levels.get(order).copied().unwrap_or_default();
            for (score, description) in levels.iter().enumerate() {
                tx.insert_dimension_level(
                    area,
                    rubric_id,
                    order as i32 + 1,
                    score as i16,
                    description,
                )
                .await?;
            }
        }
    }
    Ok(())
}
