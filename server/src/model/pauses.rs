//! Markers paused from a question by their seeds (docs/marking-quality.md,
//! "Pauses"): after each seed a marker scores, his last few seeds of the question
//! since he was last released are weighed against the plan's tolerance, and one
//! whose mean distance from the definitive marks is beyond it is paused until a
//! lead releases him. Pure functions: the store keeps pauses, the feeds wire them.

use crate::model::seeds::SeedPlan;

/// How many of a marker's latest seeds of a question are weighed: enough that one
/// slip among good markings does not pause him at once once he has a record, few
/// enough that a marker who drifts is stopped within a few seeds.
pub const WINDOW: usize = 3;

/// The longest a release's note may be, in characters.
pub const NOTE_LENGTH: usize = 4000;

/// Why a marker is paused: the seeds weighed and their mean distance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pause {
    pub seeds_counted: usize,
    /// The mean of the absolute deviations, in marks.
    pub mean_deviation: f64,
    pub tolerance: i32,
}

/// Whether the marker whose latest seeds of the question (since his last release,
/// newest first) deviated by `deviations` is paused under `plan`: the mean of the
/// absolute deviations of the latest [`WINDOW`] beyond the tolerance. A marker
/// with no seed marked is never paused.
pub fn standing(deviations: &[i32], plan: &SeedPlan) -> Option<Pause> {
    let weighed = &deviations[..deviations.len().min(WINDOW)];
    if weighed.is_empty() {
        return None;
    }
    let total: u64 = weighed.iter().map(|d| u64::from(d.unsigned_abs())).sum();
    let mean_deviation = total as f64 / weighed.len() as f64;
    (mean_deviation > f64::from(plan.tolerance())).then_some(Pause {
        seeds_counted: weighed.len(),
        mean_deviation,
        tolerance: plan.tolerance(),
    })
}

/// What a paused marker is told when he asks for a task of the question: that he
/// is paused, why, and who lifts it. Never which scripts were seeds.
pub fn pause_message(question_id: i64, pause: &Pause) -> String {
    let seeds = if pause.seeds_counted == 1 {
        "1 check script".to_owned()
    } else {
        format!("{} check scripts", pause.seeds_counted)
    };
    format!(
        "you are paused from marking question {question_id}: your marks on your last {seeds} \
         were {:.2} marks from the definitive marks on average, beyond the tolerance of {}; a \
         lead marker will review them with you and release you",
        pause.mean_deviation, pause.tolerance
    )
}

/// A release's note as stored: trimmed, and required (what was agreed).
pub fn release_note(text: Option<&str>) -> Result<String, String> {
    let note = text.map(str::trim).unwrap_or_default();
    if note.is_empty() {
        return Err("MarkerRelease.Note is required: what the lead agreed with the marker".into());
    }
    if note.chars().count() > NOTE_LENGTH {
        return Err(format!(
            "MarkerRelease.Note has {} characters; at most {NOTE_LENGTH}",
            note.chars().count()
        ));
    }
    Ok(note.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(tolerance: i32) -> SeedPlan {
        SeedPlan::parse(5, tolerance).unwrap()
    }

    #[test]
    fn a_marker_is_paused_when_his_latest_seeds_are_beyond_the_tolerance() {
        assert_eq!(standing(&[], &plan(0)), None);
        // Within the tolerance either way.
        assert_eq!(standing(&[1, -1], &plan(1)), None);
        let pause = standing(&[3], &plan(1)).unwrap();
        assert_eq!((pause.seeds_counted, pause.mean_deviation), (1, 3.0));
        // Distances, not signs: +2 and -2 do not cancel.
        let pause = standing(&[2, -2, 0], &plan(1)).unwrap();
        assert!((pause.mean_deviation - 4.0 / 3.0).abs() < 1e-9);
        // Only the latest three: an old slip no longer counts.
        assert_eq!(standing(&[0, 1, 0, 9], &plan(1)), None);
        assert_eq!(standing(&[1], &plan(0)).unwrap().tolerance, 0);
    }

    #[test]
    fn the_message_names_the_question_and_the_figures_not_the_scripts() {
        let pause = Pause {
            seeds_counted: 3,
            mean_deviation: 4.0 / 3.0,
            tolerance: 1,
        };
        let message = pause_message(12, &pause);
        assert!(message.contains("question 12"), "{message}");
        assert!(message.contains("last 3 check scripts"), "{message}");
        assert!(message.contains("1.33 marks"), "{message}");
        assert!(message.contains("tolerance of 1"), "{message}");
        assert!(release_note(Some("  talked it over ")).unwrap() == "talked it over");
        assert!(release_note(Some(" ")).is_err());
        assert!(release_note(Some(&"x".repeat(4001)))
            .unwrap_err()
            .contains("4001"));
    }
}
