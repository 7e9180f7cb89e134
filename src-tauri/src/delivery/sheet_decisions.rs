//! The readings of the batch being worked on, kept as they were read with the
//! coordinator's decisions beside them until the attempts are uploaded. A decision
//! is checked against the reading when given, and may be given again (a changed
//! mind replaces it): the reading that goes up is the one read, with every
//! decision applied then.

use std::collections::BTreeMap;
use std::sync::Mutex;

use scoredesk_sheets::AttemptReading;

use crate::error::CommandError;

#[derive(Default)]
pub struct HeldSheets(Mutex<Option<Held>>);

struct Held {
    batch: i32,
    attempts: BTreeMap<i32, HeldAttempt>,
}

struct HeldAttempt {
    read: AttemptReading,
    /// By `(question, part)`.
    decisions: BTreeMap<(i32, i32), Decision>,
}

#[derive(Clone)]
enum Decision {
    /// The choices seen marked on an unsure question or row.
    Choices(Vec<i32>),
    /// The words read in a short answer's box.
    Typed(String),
}

impl Decision {
    fn apply(
        &self,
        reading: &mut AttemptReading,
        question: i32,
        part: i32,
    ) -> Result<(), CommandError> {
        match self {
            Decision::Choices(choices) => reading.resolve_part(question, part, choices.clone()),
            Decision::Typed(words) => reading.transcribe_part(question, part, words),
        }
        .map_err(|e| CommandError::InvalidInput(e.to_string()))
    }
}

impl HeldAttempt {
    /// The reading with every decision given so far applied.
    fn decided(&self) -> Result<AttemptReading, CommandError> {
        let mut reading = self.read.clone();
        for ((question, part), decision) in &self.decisions {
            decision.apply(&mut reading, *question, *part)?;
        }
        Ok(reading)
    }
}

impl HeldSheets {
    fn lock(&self) -> Result<std::sync::MutexGuard<'_, Option<Held>>, CommandError> {
        self.0
            .lock()
            .map_err(|_| CommandError::Server("The readings are unavailable.".into()))
    }

    /// Keeps a batch's readings, in place of any before.
    pub fn keep(
        &self,
        batch: i32,
        readings: BTreeMap<i32, AttemptReading>,
    ) -> Result<(), CommandError> {
        let attempts = readings
            .into_iter()
            .map(|(attempt, read)| {
                let decisions = BTreeMap::new();
                (attempt, HeldAttempt { read, decisions })
            })
            .collect();
        *self.lock()? = Some(Held { batch, attempts });
        Ok(())
    }

    /// The coordinator's decision on an unsure question (`part` 0) or a grid's
    /// row: the choices they see marked.
    pub fn decide(
        &self,
        attempt: i32,
        question: i32,
        part: i32,
        choices: Vec<i32>,
    ) -> Result<(), CommandError> {
        self.give(attempt, question, part, Decision::Choices(choices))
    }

    /// What the coordinator read in a short answer's box (a blank's: `part` >
    /// 0), typed (nothing: no answer).
    pub fn transcribe(
        &self,
        attempt: i32,
        question: i32,
        part: i32,
        text: &str,
    ) -> Result<(), CommandError> {
        self.give(attempt, question, part, Decision::Typed(text.to_owned()))
    }

    fn give(
        &self,
        attempt: i32,
        question: i32,
        part: i32,
        decision: Decision,
    ) -> Result<(), CommandError> {
        let mut held = self.lock()?;
        let held = held
            .as_mut()
            .and_then(|h| h.attempts.get_mut(&attempt))
            .ok_or_else(|| {
                CommandError::InvalidInput(format!(
                    "Attempt {attempt} is not among the scans read."
                ))
            })?;
        // Checked on the reading as read: the doubt is there, the choices are its.
        decision.apply(&mut held.read.clone(), question, part)?;
        held.decisions.insert((question, part), decision);
        Ok(())
    }

    /// Each attempt whose every doubt is decided, with its batch, decisions applied.
    pub fn decided(&self) -> Result<Vec<(i32, AttemptReading)>, CommandError> {
        let held = self.lock()?;
        let Some(held) = held.as_ref() else {
            return Ok(Vec::new());
        };
        Ok(held
            .attempts
            .values()
            .filter_map(|attempt| attempt.decided().ok())
            .filter(AttemptReading::is_decided)
            .map(|reading| (held.batch, reading))
            .collect())
    }

    /// Lets an uploaded attempt go.
    pub fn let_go(&self, attempt: i32) {
        if let Ok(mut held) = self.lock() {
            if let Some(held) = held.as_mut() {
                held.attempts.remove(&attempt);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use scoredesk_sheets::{Answer, Doubt, DoubtReason, Doubted, WrittenAnswer};

    fn held() -> HeldSheets {
        let read = AttemptReading {
            attempt: 7,
            answers: Vec::new(),
            doubts: vec![Doubt {
                question: 1,
                part: 0,
                page: 1,
                most: 1,
                reason: DoubtReason::SeveralMarks,
                bubbles: Vec::new(),
                doubted: Doubted::Bubbles,
            }],
            written: vec![WrittenAnswer {
                question: 2,
                part: 0,
                page: 1,
                png: Vec::new(),
                ink: 0.01,
            }],
        };
        let sheets = HeldSheets::default();
        sheets.keep(41, BTreeMap::from([(7, read)])).unwrap();
        sheets
    }

    #[test]
    fn a_decision_may_be_changed_and_the_last_one_goes_up() {
        let sheets = held();
        sheets.transcribe(7, 2, 0, "wicked king").unwrap();
        assert!(sheets.decided().unwrap().is_empty(), "question 1 undecided");
        sheets.decide(7, 1, 0, vec![]).unwrap();
        sheets.transcribe(7, 2, 0, " evil king ").unwrap();
        let decided = sheets.decided().unwrap();
        assert_eq!(decided.len(), 1);
        assert_eq!(decided[0].0, 41);
        assert_eq!(
            decided[0].1.answers,
            [
                Answer::Choices {
                    question: 1,
                    selected: vec![]
                },
                Answer::Text {
                    question: 2,
                    part: 0,
                    text: Some("evil king".into())
                }
            ]
        );
        sheets.let_go(7);
        assert!(sheets.decided().unwrap().is_empty());
    }

    #[test]
    fn a_decision_on_what_is_not_in_doubt_is_refused() {
        let sheets = held();
        assert!(sheets.transcribe(7, 1, 0, "x").is_err(), "1 is a mark");
        assert!(sheets.decide(7, 2, 0, vec![1]).is_err(), "2 is written");
        assert!(sheets.decide(8, 1, 0, vec![]).is_err(), "no attempt 8");
    }
}
