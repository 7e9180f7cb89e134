//! Purges and replays of results (spec, "Results feed"; contract, "Actions"): what
//! each action asks for, how a queued job records it, and the retention policy's
//! arithmetic. What a purge removes, table by table, is the store's
//! (`store/purges.rs`); the queue that runs them, `jobs/`. docs/purges.md.

use serde::{Deserialize, Serialize};

/// The `RunType` reserved for the server's own daily retention purge.
pub const SCHEDULED: &str = "Scheduled";

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The results a queued job works on, and what else it removes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum JobTarget {
    /// Results whose participant has this name, whether or not the participant
    /// exists (spec: "it therefore works for participants already deleted").
    ParticipantName {
        name: String,
    },
    /// The same, and then the participants of that name with their attempts and
    /// group memberships.
    ParticipantAndResults {
        name: String,
    },
    AssessmentId {
        assessment_id: i64,
    },
    OneResult {
        result_id: i32,
    },
    /// Results finished before `cutoff` (milliseconds since the epoch).
    Retention {
        cutoff: i64,
    },
    /// Not a purge: every result finished from `start` to `end` has its scores
    /// recomputed.
    ReplayRange {
        start: i64,
        end: i64,
    },
}

impl JobTarget {
    /// The action's name, as the audit log's RequestType records it.
    pub fn request_type(&self) -> &'static str {
        match self {
            JobTarget::ParticipantName { .. } => "PurgeResultsByParticipantName",
            JobTarget::ParticipantAndResults { .. } => {
                "PurgeParticipantAndResultsByParticipantName"
            }
            JobTarget::AssessmentId { .. } => "PurgeResultsByAssessmentId",
            JobTarget::OneResult { .. } => "Purge",
            JobTarget::Retention { .. } => "PurgeResultsByRetentionPolicy",
            JobTarget::ReplayRange { .. } => "ReplayResultsByDateRange",
        }
    }

    /// Whether the job removes results (rather than recomputing them).
    pub fn purges(&self) -> bool {
        !matches!(self, JobTarget::ReplayRange { .. })
    }

    pub fn to_payload(&self) -> String {
        serde_json::to_string(self).expect("a job target always serialises")
    }

    pub fn from_payload(payload: &str) -> Result<Self, String> {
        serde_json::from_str(payload).map_err(|e| format!("a queued job's payload: {e}"))
    }
}

/// Results finished longer ago than `days` before `now` are past the policy.
pub fn retention_cutoff(now: i64, days: i32) -> i64 {
    now - i64::from(days) * DAY_MS
}

/// The day (since the epoch, UTC) that `at` falls on: the scheduled purge runs
/// once per area and day.
pub fn day_of(at: i64) -> i64 {
    at.div_euclid(DAY_MS)
}

/// A retention period set by an operator: whole days, at least one.
pub fn check_retention_days(days: i64) -> Result<i32, String> {
    match i32::try_from(days) {
        Ok(days) if days >= 1 => Ok(days),
        _ => Err(format!(
            "a retention period is a whole number of days, 1 or more (not {days})"
        )),
    }
}

/// `RunType` as a client may send it: any description but the reserved one.
pub fn check_run_type(run_type: &str) -> Result<(), String> {
    if run_type.trim().eq_ignore_ascii_case(SCHEDULED) {
        return Err(format!(
            "RunType '{SCHEDULED}' is reserved for the server's own daily purge; describe what triggered this one"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_target_survives_the_queue() {
        for target in [
            JobTarget::ParticipantName {
                name: "O'Brien, \"Pat\"".into(),
            },
            JobTarget::AssessmentId {
                assessment_id: 1_234_567_890_123,
            },
            JobTarget::OneResult { result_id: 7 },
            JobTarget::Retention { cutoff: -5 },
            JobTarget::ReplayRange { start: 1, end: 2 },
        ] {
            assert_eq!(JobTarget::from_payload(&target.to_payload()), Ok(target));
        }
        assert!(JobTarget::from_payload("{\"kind\":\"Nothing\"}").is_err());
    }

    #[test]
    fn the_retention_cutoff_is_whole_days_back() {
        assert_eq!(retention_cutoff(10 * DAY_MS, 3), 7 * DAY_MS);
        assert_eq!(day_of(DAY_MS - 1), 0);
        assert_eq!(day_of(DAY_MS), 1);
        assert_eq!(check_retention_days(30), Ok(30));
        assert!(check_retention_days(0).is_err());
        assert!(check_retention_days(i64::from(i32::MAX) + 1).is_err());
    }

    #[test]
    fn clients_may_not_claim_to_be_the_scheduler() {
        assert!(check_run_type("Manual").is_ok());
        assert!(check_run_type("scheduled").is_err());
        assert!(check_run_type(" Scheduled ").is_err());
    }
}
