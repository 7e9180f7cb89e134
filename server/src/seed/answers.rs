//! The demo's answers: a choice drawn (right two times in three), a scan, or a
//! typed essay of the question's sentences, every fifth of them the answer
//! many of a class give.

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::content::QuestionSpec;
use super::scans::{demo_scans, SCAN_MEDIA_TYPE};
use crate::model::area::CustomerArea;
use crate::model::choice_scoring;
use crate::model::question_kind::QuestionKind;
use crate::store::seed_writes::NewAnswer;

/// Which of its question's answers one is: its scan (the handwritten ones'
/// count), and its place among all of them (from 1).
pub(super) struct Given {
    pub scan: usize,
    pub nth: usize,
}

/// The answer many of a class type, as each types it: the first three of the
/// question's sentences, in lower case, spaced or quoted differently. Alike
/// once normalised (model::answer_groups), so that the demo has answer groups.
fn common_answer(sentences: &[&str], variant: usize) -> String {
    let text = sentences[..sentences.len().min(3)].join(" ");
    match variant % 4 {
        0 => text,
        1 => text.to_lowercase(),
        2 => format!("  {}", text.replace(". ", ".  ").trim_end_matches('.')),
        _ => format!("\u{201c}{text}\u{201d}"),
    }
}

pub(super) fn answer_for(
    rng: &mut ChaCha8Rng,
    area: CustomerArea,
    (question_id, spec): (i64, &QuestionSpec),
    index: usize,
    given: Given,
    unscored_share: f64,
) -> NewAnswer {
    let Given { scan, nth } = given;
    let (media_type, content, actual_score) = match spec.kind {
        QuestionKind::MultipleChoice => {
            let correct = spec.choices.iter().position(|c| c.1).unwrap_or(0);
            let chosen = if rng.random_bool(0.65) {
                correct
            } else {
                rng.random_range(0..spec.choices.len())
            };
            let score = choice_scoring::score(spec.kind, spec.max_score, &[chosen == correct], 1);
            (
                "text/plain".to_owned(),
                (chosen + 1).to_string().into_bytes(),
                Some(score),
            )
        }
        QuestionKind::MultipleResponse => {
            let selected: Vec<usize> = (0..spec.choices.len())
                .filter(|&i| {
                    if spec.choices[i].1 {
                        rng.random_bool(0.8)
                    } else {
                        rng.random_bool(0.25)
                    }
                })
                .collect();
            let correctness: Vec<bool> = selected.iter().map(|&i| spec.choices[i].1).collect();
            let all_right = spec.choices.iter().filter(|c| c.1).count();
            let score = choice_scoring::score(spec.kind, spec.max_score, &correctness, all_right);
            let text = selected
                .iter()
                .map(|i| (i + 1).to_string())
                .collect::<Vec<_>>()
                .join(",");
            ("text/plain".to_owned(), text.into_bytes(), Some(score))
        }
        // The demo writes no text-entry, matching, fill-in-the-blanks or point
        // questions (only imports make them).
        QuestionKind::TextEntry
        | QuestionKind::Matching
        | QuestionKind::FillIn
        | QuestionKind::Point => ("text/plain; charset=utf-8".to_owned(), Vec::new(), Some(0)),
        QuestionKind::Essay => {
            let score = if rng.random_bool(unscored_share) {
                None
            } else {
                Some(rng.random_range(0..=spec.max_score))
            };
            if spec.handwritten {
                let scans = demo_scans();
                (
                    SCAN_MEDIA_TYPE.to_owned(),
                    scans[scan % scans.len()].clone(),
                    score,
                )
            } else {
                let count = rng.random_range(3..=spec.answer_sentences.len().min(6));
                let mut text = spec
                    .answer_sentences
                    .choose_multiple(rng, count)
                    .copied()
                    .collect::<Vec<_>>()
                    .join(" ");
                // After the draws, so that every other answer stays as it was.
                if nth % 5 == 0 {
                    text = common_answer(spec.answer_sentences, nth / 5);
                }
                (
                    "text/plain; charset=utf-8".to_owned(),
                    text.into_bytes(),
                    score,
                )
            }
        }
    };
    NewAnswer {
        area,
        question_id,
        result_id: 0,
        occurrence: 1,
        block_number: 1,
        question_number: index as i32 + 1,
        max_score: spec.max_score,
        actual_score,
        media_type,
        content,
    }
}

#[cfg(test)]
mod tests {
    use super::common_answer;
    use crate::model::answer_groups::answer_key;
    use crate::seed::content::NORTHWIND;

    #[test]
    fn the_common_answer_is_one_group_however_it_is_typed() {
        let essay = NORTHWIND
            .iter()
            .flat_map(|assessment| assessment.questions)
            .find(|question| question.answer_sentences.len() >= 3)
            .expect("the demo has a typed essay");
        let keys: Vec<_> = (0..4)
            .map(|variant| {
                let text = common_answer(essay.answer_sentences, variant);
                answer_key("text/plain; charset=utf-8", text.as_bytes())
            })
            .collect();
        assert!(keys.iter().all(|key| key.is_some() && *key == keys[0]));
        let variants: std::collections::BTreeSet<_> = (0..4)
            .map(|variant| common_answer(essay.answer_sentences, variant))
            .collect();
        assert_eq!(variants.len(), 4, "typed four ways");
    }
}
