//! A QTI package (read by the scoredesk-qti crate) as the content it becomes here
//! (docs/content.md, "From QTI"): single choice → multiple_choice, multiple →
//! multiple_response, both keeping the package's match_correct or map_response;
//! a text entry with a key → text_entry, marked against it; several text entries
//! → fill_in_blanks, each blank against its own keys; an essay, a text entry
//! without a key, an upload or a drawing → essay, scored by a person; points on
//! a picture → point, its areas as choices.

use scoredesk_qti::{Blank, ChoiceScoring, Item, Package, Response, TextScoring};

use crate::model::content::{ContentPlan, PlannedQuestion};
use crate::model::matching::{PairKey, Parts};
use crate::model::points::{Picture, Shape};
use crate::model::question_kind::QuestionKind;
use crate::model::scoring_rule::{ScoringRule, TextKey};
use crate::model::snapshot::SourceChoice;
use crate::model::typed_number::NumberRange;

/// The plan for `package`; `fallback_name` names the assessment when the package
/// has no title (the file's name, say).
pub fn plan(package: &Package, fallback_name: &str) -> ContentPlan {
    let name = if package.title.trim().is_empty() {
        fallback_name.trim().to_owned()
    } else {
        package.title.trim().to_owned()
    };
    // The manifest's and the test's identifiers are often fixed by the tool that
    // wrote them ("main_manifest"), so the title is part of the key: two tests from
    // one tool are two assessments, and a renamed test a new one.
    let key = format!(
        "qti:{}/{}/{}",
        package.identifier,
        package.test_identifier.as_deref().unwrap_or(""),
        name
    );
    // Items may share an identifier (tools reuse "item1" in each folder): the first
    // is keyed by it, the others by it and their file, so each is a question of its
    // own and stays the same one when the package is imported again.
    // Items of one file (QTI 1.2, a Moodle bank) sharing an identifier are numbered.
    let mut seen = std::collections::HashSet::new();
    let questions = package
        .items
        .iter()
        .map(|item| {
            let mut item_key = item.identifier.clone();
            let mut count = 1;
            while !seen.insert(item_key.clone()) {
                count += 1;
                item_key = match count {
                    2 => format!("{}@{}", item.identifier, item.file),
                    n => format!("{}@{}#{n}", item.identifier, item.file),
                };
            }
            question(
                item,
                &format!("{key}#{item_key}"),
                package.language.as_deref(),
            )
        })
        .collect();
    ContentPlan {
        key,
        name,
        language: package.language.clone(),
        questions,
        score_bands: package
            .score_bands
            .iter()
            .map(|band| (band.min_percentage, band.title.clone()))
            .collect(),
    }
}

/// The question template `template` (a template question's, as imported) gives
/// with `seed`: a snapshot's own draw of it, or why it cannot be drawn.
pub fn instance(template: &str, seed: u64) -> Result<PlannedQuestion, String> {
    let item = scoredesk_qti::instantiate(template, seed)?;
    Ok(question(&item, &item.identifier, None))
}

fn question(item: &Item, key: &str, language: Option<&str>) -> PlannedQuestion {
    let mut planned = PlannedQuestion {
        key: key.to_owned(),
        title: item.title.clone(),
        language: item.language.clone().or(language.map(str::to_owned)),
        kind: QuestionKind::Essay,
        max_score: item.max_score,
        markup: item.markup.clone(),
        topic: item.topic.clone(),
        shuffle_choices: false,
        rule: ScoringRule::Service,
        choices: Vec::new(),
        text_keys: Vec::new(),
        parts: Parts::default(),
        template: item.template.clone(),
        max_choices: None,
        picture: None,
    };
    match &item.response {
        Response::Choice {
            multiple,
            max_choices,
            shuffle,
            choices,
            scoring,
        } => {
            // A limit below the number of choices is the question's own.
            if *multiple && *max_choices > 0 && *max_choices < choices.len() {
                planned.max_choices = Some(*max_choices as i32);
            }
            planned.kind = if *multiple {
                QuestionKind::MultipleResponse
            } else {
                QuestionKind::MultipleChoice
            };
            planned.shuffle_choices = *shuffle && choices.iter().any(|c| !c.fixed);
            planned.rule = rule_of(scoring);
            planned.choices = choices
                .iter()
                .enumerate()
                .map(|(index, choice)| SourceChoice {
                    order: index as i32 + 1,
                    text: choice.text.clone(),
                    correct: choice.correct,
                    mapped_value: choice.mapped_value,
                    fixed: choice.fixed,
                    part: 0,
                })
                .collect();
        }
        Response::Text {
            scoring:
                TextScoring::Key {
                    keys,
                    default_value,
                    lower_bound,
                    upper_bound,
                },
            ..
        } => {
            planned.kind = QuestionKind::TextEntry;
            planned.rule = if keys.iter().any(|k| k.mapped_value.is_some()) {
                ScoringRule::MapResponse {
                    default_value: *default_value,
                    lower_bound: *lower_bound,
                    upper_bound: *upper_bound,
                }
            } else {
                ScoringRule::MatchCorrect
            };
            planned.text_keys = keys.iter().map(|key| text_key(0, key)).collect();
        }
        Response::Matching {
            rows,
            options,
            shuffle,
            pairs,
            scoring,
        } => {
            planned.kind = QuestionKind::Matching;
            planned.rule = rule_of(scoring);
            planned.shuffle_choices = *shuffle && options.iter().any(|o| !o.fixed);
            planned.choices = options
                .iter()
                .enumerate()
                .map(|(index, option)| SourceChoice {
                    order: index as i32 + 1,
                    text: option.text.clone(),
                    correct: pairs.iter().any(|p| p.option == index && p.correct),
                    mapped_value: None,
                    fixed: option.fixed,
                    part: 0,
                })
                .collect();
            planned.parts = Parts {
                texts: rows.clone(),
                keys: pairs
                    .iter()
                    .map(|pair| PairKey {
                        part: pair.row as i32 + 1,
                        choice: pair.option as i32 + 1,
                        correct: pair.correct,
                        mapped_value: pair.mapped_value,
                    })
                    .collect(),
            };
        }
        Response::Blanks { blanks, scoring } => {
            planned.kind = QuestionKind::FillIn;
            planned.rule = rule_of(scoring);
            planned.parts = Parts {
                texts: (1..=blanks.len()).map(|b| format!("Blank {b}")).collect(),
                keys: Vec::new(),
            };
            planned.text_keys = blanks
                .iter()
                .enumerate()
                .flat_map(|(index, blank)| {
                    blank
                        .typed_keys()
                        .iter()
                        .map(move |key| text_key(index as i32 + 1, key))
                })
                .collect();
            planned.choices = picked_options(blanks);
            // A list that is not to be shuffled keeps its options fixed, so that
            // the question's one flag shuffles only the lists that ask for it.
            planned.shuffle_choices = planned.choices.iter().any(|c| !c.fixed);
        }
        Response::Points {
            width,
            height,
            most,
            areas,
            scoring,
        } => {
            planned.kind = QuestionKind::Point;
            planned.rule = rule_of(scoring);
            planned.picture = Some(Picture {
                width: *width,
                height: *height,
            });
            planned.max_choices = (*most > 0).then_some(*most as i32);
            // Each area a choice: its shape and coordinates, worth its value.
            planned.choices = areas
                .iter()
                .enumerate()
                .map(|(index, area)| SourceChoice {
                    order: index as i32 + 1,
                    text: Shape::stored(&area.shape, &area.coords),
                    correct: area.value > 0.0,
                    mapped_value: Some(area.value),
                    fixed: true,
                    part: 0,
                })
                .collect();
        }
        Response::Text {
            scoring: TextScoring::Person,
            ..
        }
        | Response::Image { .. } => {}
    }
    planned
}

/// The options of a passage's picked blanks, as the question's choices: each
/// with its blank's number, numbered on across the blanks in the passage's order.
/// The options of a list not shuffled are fixed.
fn picked_options(blanks: &[Blank]) -> Vec<SourceChoice> {
    let mut choices = Vec::new();
    for (index, blank) in blanks.iter().enumerate() {
        let Blank::Picked { options, shuffle } = blank else {
            continue;
        };
        for option in options {
            choices.push(SourceChoice {
                order: choices.len() as i32 + 1,
                text: option.text.clone(),
                correct: option.correct,
                mapped_value: option.mapped_value,
                fixed: option.fixed || !shuffle,
                part: index as i32 + 1,
            });
        }
    }
    choices
}

/// A package's key as the service keeps it, for blank `part` (0: a text entry).
fn text_key(part: i32, key: &scoredesk_qti::TextKey) -> TextKey {
    TextKey {
        part,
        text: key.text.clone(),
        case_sensitive: key.case_sensitive,
        mapped_value: key.mapped_value,
        numeric: key.numeric.map(|range| NumberRange {
            low: range.low,
            high: range.high,
        }),
    }
}

fn rule_of(scoring: &ChoiceScoring) -> ScoringRule {
    match scoring {
        ChoiceScoring::MatchCorrect => ScoringRule::MatchCorrect,
        ChoiceScoring::MapResponse {
            default_value,
            lower_bound,
            upper_bound,
        } => ScoringRule::MapResponse {
            default_value: *default_value,
            lower_bound: *lower_bound,
            upper_bound: *upper_bound,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(identifier: &str, file: &str) -> Item {
        Item {
            identifier: identifier.into(),
            file: file.into(),
            title: identifier.into(),
            stem: String::new(),
            language: None,
            topic: None,
            markup: "<div/>".into(),
            response: Response::Image { drawing: false },
            max_score: 1,
            notes: Vec::new(),
            template: None,
            values: Vec::new(),
        }
    }

    #[test]
    fn every_item_has_a_key_of_its_own_even_in_one_file() {
        let package = Package {
            version: scoredesk_qti::QtiVersion::V1,
            identifier: "m".into(),
            test_identifier: None,
            title: "T".into(),
            language: None,
            items: vec![
                item("q", "a.xml"),
                item("q", "b.xml"),
                item("q", "b.xml"),
                item("q", "b.xml"),
            ],
            skipped: Vec::new(),
            score_bands: Vec::new(),
            images: 0,
            notes: Vec::new(),
        };
        let keys: Vec<String> = plan(&package, "x")
            .questions
            .iter()
            .map(|q| {
                q.key
                    .rsplit_once("#q")
                    .map_or(q.key.clone(), |(_, k)| format!("q{k}"))
            })
            .collect();
        assert_eq!(keys, ["q", "q@b.xml", "q@b.xml#3", "q@b.xml#4"]);
    }
}
