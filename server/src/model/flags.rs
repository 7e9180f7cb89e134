//! Flags to a lead marker (our extension, `Flags` and `FlagAnswers`;
//! docs/marking-quality.md, "Flags"): a marker flags a script he cannot or should
//! not mark alone, the task leaves every queue, and a lead marker answers once,
//! releasing it or taking it over. These are the rules, free of HTTP and SQL.

use std::fmt;

use crate::model::scoring::TaskStatus;

/// Why a script is flagged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagReason {
    /// The scan or the writing cannot be read.
    Unreadable,
    /// Possible malpractice: copied, prompted, not the participant's own.
    Malpractice,
    /// An answer the rubric does not foresee.
    OffRubric,
    /// The marker wants another opinion.
    SecondLook,
}

impl FlagReason {
    pub const ALL: [FlagReason; 4] = [
        FlagReason::Unreadable,
        FlagReason::Malpractice,
        FlagReason::OffRubric,
        FlagReason::SecondLook,
    ];

    /// The value the wire and the database carry.
    pub fn as_str(self) -> &'static str {
        match self {
            FlagReason::Unreadable => "unreadable",
            FlagReason::Malpractice => "malpractice",
            FlagReason::OffRubric => "off-rubric",
            FlagReason::SecondLook => "second-look",
        }
    }

    pub fn parse(text: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|reason| reason.as_str() == text)
            .ok_or_else(|| {
                format!(
                    "Flag.Reason is '{text}', which is not a reason: use unreadable, \
                     malpractice, off-rubric or second-look"
                )
            })
    }
}

impl fmt::Display for FlagReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the lead marker's answer does with the flagged task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagOutcome {
    /// Back to Unscored (0): in every queue again, its saved marks kept.
    Released,
    /// Stays Locked (1): the lead marks it himself.
    TakenOver,
}

impl FlagOutcome {
    pub const ALL: [FlagOutcome; 2] = [FlagOutcome::Released, FlagOutcome::TakenOver];

    pub fn as_str(self) -> &'static str {
        match self {
            FlagOutcome::Released => "released",
            FlagOutcome::TakenOver => "taken-over",
        }
    }

    pub fn parse(text: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|outcome| outcome.as_str() == text)
            .ok_or_else(|| {
                format!(
                    "FlagAnswer.Outcome is '{text}', which is not an outcome: use released \
                     (the task goes back to 0) or taken-over (it stays locked, yours)"
                )
            })
    }

    /// The task's status after the answer, from `now` (its status when answered):
    /// a release puts a task still locked back to 0; a task somebody moved
    /// meanwhile (a spec client may set any status) is left where it is, as is a
    /// task taken over.
    pub fn task_status_after(self, now: TaskStatus) -> Option<TaskStatus> {
        match (self, now) {
            (FlagOutcome::Released, TaskStatus::Locked) => Some(TaskStatus::Unscored),
            _ => None,
        }
    }
}

/// The status a flagged task is put to: Locked, the spec's "prevents the built-in
/// scoring tool from scoring this response", so it leaves every queue of Status 0.
pub const FLAGGED: TaskStatus = TaskStatus::Locked;

/// Whether a task at `status` may be flagged: a script being marked (0, 1 or 2).
/// A Scored (3) task is final; it is questioned by setting it back first.
pub fn check_flaggable(status: TaskStatus) -> Result<(), String> {
    match status {
        TaskStatus::Scored => Err(
            "the ScoringTask is Scored (3), its mark final: flags are for scripts being \
             marked (0, 1 or 2); set it back to 2 to question its mark"
                .into(),
        ),
        _ => Ok(()),
    }
}

/// A flag's note, trimmed: it may be empty (the reason may say enough).
pub fn flag_note(note: Option<&str>) -> String {
    note.unwrap_or_default().trim().to_owned()
}

/// An answer's note, trimmed: it must say something, since the marker who flagged
/// reads it.
pub fn answer_note(note: Option<&str>) -> Result<String, String> {
    let note = note.unwrap_or_default().trim();
    if note.is_empty() {
        return Err(
            "FlagAnswer.Note is required: say what you decided, the marker who flagged reads it"
                .into(),
        );
    }
    Ok(note.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_and_outcomes_read_back_what_they_write_and_name_the_choices() {
        for reason in FlagReason::ALL {
            assert_eq!(FlagReason::parse(reason.as_str()), Ok(reason));
        }
        for outcome in FlagOutcome::ALL {
            assert_eq!(FlagOutcome::parse(outcome.as_str()), Ok(outcome));
        }
        let error = FlagReason::parse("Unreadable").unwrap_err();
        assert!(
            error.contains("Flag.Reason") && error.contains("second-look"),
            "{error}"
        );
        let error = FlagOutcome::parse("release").unwrap_err();
        assert!(
            error.contains("FlagAnswer.Outcome") && error.contains("taken-over"),
            "{error}"
        );
    }

    #[test]
    fn a_scored_task_is_final_and_cannot_be_flagged() {
        for status in [TaskStatus::Unscored, TaskStatus::Locked, TaskStatus::Saved] {
            assert!(check_flaggable(status).is_ok(), "{status}");
        }
        let error = check_flaggable(TaskStatus::Scored).unwrap_err();
        assert!(error.contains("Scored (3)"), "{error}");
    }

    #[test]
    fn a_release_unlocks_only_a_task_still_locked() {
        use FlagOutcome::*;
        assert_eq!(
            Released.task_status_after(TaskStatus::Locked),
            Some(TaskStatus::Unscored)
        );
        for status in [TaskStatus::Unscored, TaskStatus::Saved, TaskStatus::Scored] {
            assert_eq!(Released.task_status_after(status), None, "{status}");
        }
        for status in TaskStatus::ALL {
            assert_eq!(TakenOver.task_status_after(status), None, "{status}");
        }
    }

    #[test]
    fn notes_are_trimmed_and_an_answer_must_say_something() {
        assert_eq!(flag_note(Some("  smudged \n")), "smudged");
        assert_eq!(flag_note(None), "");
        assert_eq!(
            answer_note(Some(" Read it as 7. ")).unwrap(),
            "Read it as 7."
        );
        assert!(answer_note(Some(" \t"))
            .unwrap_err()
            .contains("FlagAnswer.Note"));
        assert!(answer_note(None).is_err());
    }
}
